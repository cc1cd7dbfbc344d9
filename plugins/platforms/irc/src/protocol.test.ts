import { describe, expect, it } from 'vitest';
import { stripFormatting } from './adapter.js';
import { chunkText, ircLower, isChannel, nickOf, parseLine, sanitizeParam } from './protocol.js';

describe('parseLine', () => {
  it.each([
    ['PING :irc.test', { prefix: '', command: 'PING', params: ['irc.test'] }],
    [
      ':alice!a@h PRIVMSG #chan :hello: world',
      { prefix: 'alice!a@h', command: 'PRIVMSG', params: ['#chan', 'hello: world'] },
    ],
    [':srv 001 hermes :Welcome', { command: '001', params: ['hermes', 'Welcome'] }],
    [
      '@account=alice;x=a\\sb :alice!a@h PRIVMSG hermes :hi',
      { tags: { account: 'alice', x: 'a b' }, command: 'PRIVMSG' },
    ],
    [':srv 332 hermes #c :the topic\r', { command: '332', params: ['hermes', '#c', 'the topic'] }],
    ['privmsg x :lower', { command: 'PRIVMSG' }],
  ])('%j', (line, expected) => expect(parseLine(line)).toMatchObject(expected));
  it.each(['', ':onlyprefix', '@tags-only'])('rejects %j', (line) => expect(parseLine(line)).toBeUndefined());
});

describe('helpers', () => {
  it('nicks, channels, case mapping, params', () => {
    expect(nickOf('alice!a@h')).toBe('alice');
    expect(isChannel('#x')).toBe(true);
    expect(isChannel('alice')).toBe(false);
    expect(ircLower('Nick[A]')).toBe('nick{a}');
    expect(sanitizeParam('a\r\nQUIT\u0000')).toBe('a  QUIT ');
  });

  it('chunkText: one PRIVMSG per line, each within the byte budget, no control breaks', () => {
    expect(chunkText('one\ntwo\r\n\nthree')).toEqual(['one', 'two', 'three']);
    const long = 'word '.repeat(300);
    const chunks = chunkText(long, 100);
    expect(chunks.every((c) => Buffer.byteLength(c) <= 100)).toBe(true);
    expect(chunks.join(' ')).toBe(long.trim());
    const wide = chunkText('é'.repeat(100), 51);
    expect(wide.every((c) => Buffer.byteLength(c) <= 51 && !c.includes('\ufffd'))).toBe(true);
    expect(wide.join('')).toBe('é'.repeat(100));
  });

  it('strips mIRC formatting', () => {
    expect(stripFormatting('\u0002bold\u0002 \u000304,12red\u000f plain')).toBe('bold red plain');
  });
});
