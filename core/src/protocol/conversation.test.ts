import { describe, expect, it } from 'vitest';
import { Methods } from './methods.js';
import { EventPayloads } from './wire-events.js';
import { SessionRewindParams, SessionSteerParams } from './conversation.js';

describe('conversation protocol', () => {
  it('is part of the method and event tables', () => {
    for (const m of ['session.undo', 'session.retry', 'session.rewind', 'session.fork', 'session.steer'])
      expect(Methods).toHaveProperty([m]);
    expect(EventPayloads).toHaveProperty(['session.rewound']);
    expect(EventPayloads).toHaveProperty(['prompt.steered']);
  });

  it('checks its params', () => {
    expect(SessionRewindParams.safeParse({ session_id: 's', message_id: 0 }).success).toBe(false);
    expect(SessionRewindParams.safeParse({ session_id: 's', message_id: 3, files: true }).success).toBe(true);
    expect(SessionSteerParams.safeParse({ session_id: 's', text: '' }).success).toBe(false);
  });
});
