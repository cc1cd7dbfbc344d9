import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '@hermes/core/protocol';
import { listedSessions } from './session-list.js';

const session = (over: Partial<SessionInfo>): SessionInfo => ({
  id: 'id',
  profile: 'default',
  title: null,
  source: 'acp',
  model: null,
  cwd: '/w',
  started_at: Date.UTC(2026, 0, 2, 3, 4, 5),
  ended_at: null,
  message_count: 0,
  state: 'idle',
  ...over,
});

describe('listedSessions', () => {
  it('lists interactive sessions with a folder, titled by their title or first prompt', () => {
    const out = listedSessions([
      session({ id: 'a', title: 'Fix the parser' }),
      session({ id: 'b', source: 'tui', preview: 'what does this do?' }),
      session({ id: 'c', source: 'cron' }),
      session({ id: 'd', source: 'telegram' }),
      session({ id: 'e', cwd: null }),
      session({ id: 'f', source: 'cli', cwd: 'relative' }),
    ]);
    expect(out).toEqual([
      { sessionId: 'a', cwd: '/w', title: 'Fix the parser', updatedAt: '2026-01-02T03:04:05.000Z' },
      { sessionId: 'b', cwd: '/w', title: 'what does this do?', updatedAt: '2026-01-02T03:04:05.000Z' },
    ]);
  });

  it('keeps only the sessions of the folder asked for', () => {
    const out = listedSessions(
      [session({ id: 'a', cwd: '/w' }), session({ id: 'b', cwd: '/other' })],
      '/other',
    );
    expect(out.map((s) => s.sessionId)).toEqual(['b']);
  });
});
