import { describe, expect, it } from 'vitest';
import { sessionTitle } from './pipeline-admit.js';
import type { MessageSource } from './source.js';

const source = (over: Partial<MessageSource>): MessageSource =>
  ({ platform: 'irc', chatType: 'group', ...over }) as MessageSource;

// The steps of admitMessage run through the whole pipeline in pipeline.test.ts (context block,
// instructions, shared sessions, interrupt_on_message, commands, attachments).
describe('sessionTitle', () => {
  it('names the platform, the chat and, in a per-user session, the user', () => {
    expect(sessionTitle('irc', source({ chatName: '#hermes', userName: 'alice' }), false)).toBe(
      'irc · #hermes · alice',
    );
    expect(sessionTitle('irc', source({ chatName: '#hermes', userName: 'alice' }), true)).toBe(
      'irc · #hermes',
    );
    expect(sessionTitle('irc', source({ chatId: 'c1' }), false)).toBe('irc · c1');
    expect(sessionTitle('telegram', source({ chatType: 'dm', chatId: '42', userName: 'bob' }), false)).toBe(
      'telegram · bob',
    );
  });

  it('is one inert line: names with newlines, terminal escapes, bidi overrides and lone surrogates are cleaned', () => {
    const title = sessionTitle(
      'telegram',
      source({ chatName: 'Ops\n\u001b]0;pwned\u0007\u001b[2J', userName: 'eve\u202e\ud800' }),
      false,
    );
    expect(title).toBe('telegram · Ops ]0;pwned [2J · eve \ufffd');
    expect(sessionTitle('irc', source({ chatName: '\u0007\u200b', chatId: '#ops' }), true)).toBe(
      'irc · #ops',
    );
    // long names are cut by code point, never inside a surrogate pair
    const long = sessionTitle('matrix', source({ chatName: '\ud83d\ude00'.repeat(300) }), true);
    expect([...long].length).toBeLessThanOrEqual(120);
    expect(long.endsWith('\ud83d\ude00...')).toBe(true);
  });
});
