import { describe, expect, it } from 'vitest';
import { DeliveryTarget } from './delivery-target.js';

describe('DeliveryTarget.parse / toString', () => {
  it.each<[string, object, string]>([
    ['origin', { kind: 'origin' }, 'origin'],
    ['ORIGIN', { kind: 'origin' }, 'origin'],
    ['local', { kind: 'local' }, 'local'],
    [' Local ', { kind: 'local' }, 'local'],
    ['telegram', { kind: 'platform', platform: 'telegram', chatId: undefined }, 'telegram'],
    ['Telegram', { kind: 'platform', platform: 'telegram' }, 'telegram'],
    ['telegram:123456', { kind: 'platform', platform: 'telegram', chatId: '123456' }, 'telegram:123456'],
    [
      'TELEGRAM:-100123:789',
      { kind: 'platform', platform: 'telegram', chatId: '-100123', threadId: '789' },
      'telegram:-100123:789',
    ],
    ['slack:C0ABCdef', { kind: 'platform', platform: 'slack', chatId: 'C0ABCdef' }, 'slack:C0ABCdef'],
    ['irc:#Hermes', { kind: 'platform', platform: 'irc', chatId: '#Hermes' }, 'irc:#Hermes'],
    [
      'x:chat:thread:with:colons',
      { kind: 'platform', platform: 'x', chatId: 'chat', threadId: 'thread:with:colons' },
      'x:chat:thread:with:colons',
    ],
    [
      'api_server:user-1',
      { kind: 'platform', platform: 'api_server', chatId: 'user-1' },
      'api_server:user-1',
    ],
  ])('%s', (text, fields, canonical) => {
    const t = DeliveryTarget.parse(text);
    expect(t).toMatchObject(fields);
    expect(t.toString()).toBe(canonical);
    expect(DeliveryTarget.parse(t.toString()).toString()).toBe(canonical);
    expect(JSON.stringify({ t })).toBe(JSON.stringify({ t: canonical }));
  });

  it.each(['', '   ', 'tele gram', '9lives', 'telegram:', 'telegram::5', 'telegram:1:', ':123'])(
    'refuses %j with a clear error',
    (text) => {
      expect(() => DeliveryTarget.parse(text)).toThrow(/delivery target|platform name/);
    },
  );

  it('marks home-channel targets', () => {
    expect(DeliveryTarget.parse('telegram').isHomeChannel).toBe(true);
    expect(DeliveryTarget.parse('telegram:1').isHomeChannel).toBe(false);
  });

  it('resolves origin against a source, or to local without one', () => {
    const o = DeliveryTarget.parse('origin');
    expect(
      o.resolve({ platform: 'irc', chatType: 'channel', chatId: '#Dev', threadId: undefined }).toString(),
    ).toBe('irc:#Dev');
    expect(
      o.resolve({ platform: 'telegram', chatType: 'group', chatId: '-1', threadId: '7' }).toString(),
    ).toBe('telegram:-1:7');
    expect(o.resolve().toString()).toBe('local');
    expect(DeliveryTarget.parse('local').resolve({ platform: 'irc', chatType: 'dm', chatId: 'x' }).kind).toBe(
      'local',
    );
  });
});
