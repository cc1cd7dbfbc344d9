import { describe, expect, it } from 'vitest';
import {
  buildSessionKey,
  isSharedMultiUserSession,
  profileFromNamespace,
  sessionKeyNamespace,
  type SessionKeyOptions,
} from './session-key.js';
import type { MessageSource } from './source.js';

const src = (s: Partial<MessageSource>): MessageSource => ({ platform: 'telegram', chatType: 'dm', ...s });

describe('buildSessionKey', () => {
  const cases: Array<[string, MessageSource, SessionKeyOptions, string]> = [
    ['dm by chat id', src({ chatId: '12345', userId: '12345' }), {}, 'agent:main:telegram:dm:12345'],
    ['dm keeps chat id case', src({ chatId: 'AbC' }), {}, 'agent:main:telegram:dm:AbC'],
    ['dm with thread', src({ chatId: '9', threadId: 't1' }), {}, 'agent:main:telegram:dm:9:t1'],
    ['dm without chat id falls back to the sender', src({ userId: 'u7' }), {}, 'agent:main:telegram:dm:u7'],
    [
      'dm without chat id: alt id wins',
      src({ userId: 'u7', userIdAlt: 'uuid-7' }),
      {},
      'agent:main:telegram:dm:uuid-7',
    ],
    ['dm without any id: the single fallback', src({}), {}, 'agent:main:telegram:dm'],
    [
      'dm fallback with thread: user before thread',
      src({ userId: 'u1', threadId: 't' }),
      {},
      'agent:main:telegram:dm:u1:t',
    ],
    [
      'group per user by default',
      src({ chatType: 'group', chatId: '-100', userId: 'alice' }),
      {},
      'agent:main:telegram:group:-100:alice',
    ],
    [
      'group shared when configured',
      src({ chatType: 'group', chatId: '-100', userId: 'alice' }),
      { groupSessionsPerUser: false },
      'agent:main:telegram:group:-100',
    ],
    [
      'channel per user',
      src({ platform: 'irc', chatType: 'channel', chatId: '#hermes', userId: 'bob' }),
      {},
      'agent:main:irc:channel:#hermes:bob',
    ],
    [
      'thread shared by default',
      src({ chatType: 'group', chatId: '-100', threadId: '42', userId: 'alice' }),
      {},
      'agent:main:telegram:group:-100:42',
    ],
    [
      'thread per user when configured',
      src({ chatType: 'group', chatId: '-100', threadId: '42', userId: 'alice' }),
      { threadSessionsPerUser: true },
      'agent:main:telegram:group:-100:42:alice',
    ],
    [
      'group without a user id',
      src({ chatType: 'group', chatId: '-100' }),
      {},
      'agent:main:telegram:group:-100',
    ],
    [
      'default profile keeps agent:main',
      src({ chatId: '1' }),
      { profile: 'default' },
      'agent:main:telegram:dm:1',
    ],
    ['named profile namespace', src({ chatId: '1' }), { profile: 'work' }, 'agent:work:telegram:dm:1'],
    ['profile named main is marked', src({ chatId: '1' }), { profile: 'main' }, 'agent:main~:telegram:dm:1'],
  ];
  it.each(cases)('%s', (_name, source, options, expected) => {
    expect(buildSessionKey(source, options)).toBe(expected);
  });

  it('never merges different people’s chat-id-less DMs', () => {
    const a = buildSessionKey(src({ userId: 'alice' }));
    const b = buildSessionKey(src({ userId: 'bob' }));
    expect(a).not.toBe(b);
  });

  it('keeps the platform at position 2 for every profile', () => {
    for (const profile of [undefined, 'default', 'work', 'main'])
      expect(buildSessionKey(src({ chatId: '1' }), { profile }).split(':')[2]).toBe('telegram');
  });
});

describe('namespaces and shared sessions', () => {
  it.each([
    [undefined, 'agent:main', 'default'],
    ['default', 'agent:main', 'default'],
    ['work', 'agent:work', 'work'],
    ['main', 'agent:main~', 'main'],
  ])('profile %s → %s', (profile, ns, back) => {
    expect(sessionKeyNamespace(profile)).toBe(ns);
    expect(profileFromNamespace(ns.split(':')[1]!)).toBe(back);
  });

  it.each<[string, MessageSource, SessionKeyOptions, boolean]>([
    ['dm', src({ chatId: '1' }), {}, false],
    ['group per user', src({ chatType: 'group', chatId: 'g' }), {}, false],
    ['group shared', src({ chatType: 'group', chatId: 'g' }), { groupSessionsPerUser: false }, true],
    ['thread default', src({ chatType: 'group', chatId: 'g', threadId: 't' }), {}, true],
    [
      'thread per user',
      src({ chatType: 'group', chatId: 'g', threadId: 't' }),
      { threadSessionsPerUser: true },
      false,
    ],
  ])('isSharedMultiUserSession: %s', (_n, source, options, shared) => {
    expect(isSharedMultiUserSession(source, options)).toBe(shared);
  });
});
