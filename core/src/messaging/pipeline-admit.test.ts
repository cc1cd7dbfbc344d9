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
});
