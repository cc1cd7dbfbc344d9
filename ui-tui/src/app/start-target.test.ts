import { RpcCallError, type DaemonClientLike } from '@hermes/client';
import { describe, expect, it } from 'vitest';
import { resolveStartTarget } from './start-target.js';

/** A client answering `session.*` requests from `sessions` (ids and titles); records creations. */
function client(sessions: Array<{ id: string; title: string | null; cwd: string | null }>, pick?: string) {
  const created: string[] = [];
  const c = {
    request: async (method: string, params: Record<string, unknown>) => {
      if (method === 'session.create') {
        created.push(String(params.cwd));
        return { session: { id: 'new-1' } };
      }
      if (method === 'session.list')
        return { sessions: params.continue_from ? sessions.filter((s) => s.id === pick) : sessions };
      if (method === 'session.history') {
        if (params.session_id === 'old-id') return { messages: [] };
        throw new RpcCallError('session.history', -32001, 'not found');
      }
      throw new Error(`unexpected ${method}`);
    },
  } as unknown as DaemonClientLike;
  return { c, created };
}

describe('resolveStartTarget', () => {
  it('new creates one in the folder; continue takes the daemon’s pick, saying when it is another folder’s', async () => {
    const { c, created } = client([{ id: 's1', title: 'notes', cwd: '/elsewhere' }], 's1');
    expect(await resolveStartTarget(c, '/here', { mode: 'new' }, () => undefined)).toBe('new-1');
    expect(created).toEqual(['/here']);
    const said: string[] = [];
    expect(await resolveStartTarget(c, '/here', { mode: 'continue' }, (t) => said.push(t))).toBe('s1');
    expect(said[0]).toMatch(/Continuing “notes”, whose folder is \/elsewhere/);
  });

  it('continue with nothing to continue creates a session', async () => {
    const { c, created } = client([]);
    expect(await resolveStartTarget(c, '/here', { mode: 'continue' }, () => undefined)).toBe('new-1');
    expect(created).toEqual(['/here']);
  });

  it('a session by id or title, an id older than the listing, and a clear error for none', async () => {
    const { c } = client([{ id: 's2', title: 'plan', cwd: null }]);
    const none = (): void => undefined;
    expect(await resolveStartTarget(c, '/', { mode: 'session', session: 'plan' }, none)).toBe('s2');
    expect(await resolveStartTarget(c, '/', { mode: 'session', session: ' s2 ' }, none)).toBe('s2');
    expect(await resolveStartTarget(c, '/', { mode: 'session', session: 'old-id' }, none)).toBe('old-id');
    await expect(resolveStartTarget(c, '/', { mode: 'session', session: 'nope' }, none)).rejects.toThrow(
      'No session with id or title "nope" in this profile.',
    );
  });
});
