/** The status bar's count of running background processes and the stop notice (`process.changed`). */
import { describe, expect, it } from 'vitest';
import type { BackgroundProcessInfo, EventPayload } from '@hermes/core/protocol';
import { wire } from '../testing/fixtures.js';
import { initialSessionState, sessionReducer, type SessionAction } from './session-reducer.js';
import type { SessionState } from './types.js';

const proc: BackgroundProcessInfo = {
  id: 'bg-0000000a',
  pid: 42,
  profile: 'work',
  session: 's1',
  command: 'python3 -m http.server 8000',
  cwd: '/w',
  log: '/w/bg.log',
  started_at: '2026-01-01T00:00:00.000Z',
  state: 'running',
  exit_code: null,
  signal: null,
  ended_at: null,
  notify: false,
  adopted: false,
};
const changed = (p: Partial<EventPayload<'process.changed'>>): SessionAction => ({
  type: 'event',
  event: wire(
    'process.changed',
    0,
    { profile: 'work', reason: 'started', process: proc, running: 1, ...p },
    '*',
  ),
  now: 0,
});
const inWork = (): SessionState =>
  sessionReducer(initialSessionState(), { type: 'connected', connectionId: 'c1', profile: 'work' });

describe('background process count', () => {
  it('is seeded from process.list and follows process.changed of its profile', () => {
    let s = sessionReducer(inWork(), { type: 'background', running: 2 });
    expect(s.backgroundRunning).toBe(2);
    s = sessionReducer(s, changed({ running: 3 }));
    expect(s.backgroundRunning).toBe(3);
    s = sessionReducer(
      s,
      changed({ reason: 'ended', running: 2, process: { ...proc, state: 'exited', exit_code: 0 } }),
    );
    expect(s.backgroundRunning).toBe(2);
    expect(s.items).toEqual([]); // starts and ends are not transcript lines
  });

  it('ignores other profiles', () => {
    const s = sessionReducer(inWork(), changed({ profile: 'default', running: 5 }));
    expect(s.backgroundRunning).toBe(0);
  });

  it('tells the user when the daemon stops a process', () => {
    const s = sessionReducer(inWork(), changed({ reason: 'stopping', running: 1 }));
    expect(s.items.at(-1)).toMatchObject({
      kind: 'notice',
      tone: 'warn',
      text: 'The daemon stops: background process bg-0000000a (python3 -m http.server 8000) is being stopped.',
    });
  });

  it('survives a detach', () => {
    const s = sessionReducer(sessionReducer(inWork(), { type: 'background', running: 1 }), {
      type: 'detached',
    });
    expect(s.backgroundRunning).toBe(1);
  });
});
