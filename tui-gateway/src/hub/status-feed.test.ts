import { describe, expect, it } from 'vitest';
import type { OpenRequest, SessionInfo, WireEvent } from '@hermes/core/protocol';
import type { Connection } from '../rpc/types.js';
import { originOf, StatusFeed, type FeedSession } from './status-feed.js';

function session(id: string, source = 'tui'): FeedSession & { busy: boolean; open: OpenRequest[] } {
  return {
    id,
    profile: 'default',
    busy: false,
    clients: new Set(),
    open: [],
    info: () => ({ id, profile: 'default', title: `t ${id}`, source }) as SessionInfo,
    openRequests() {
      return this.open;
    },
    storedTokens: () => 10,
  };
}

function conn(): Connection & { got: WireEvent[] } {
  const got: WireEvent[] = [];
  return {
    id: 'c1',
    clientName: 'test',
    capabilities: { approvals: false },
    profile: 'default',
    closed: false,
    got,
    notify: (e: WireEvent) => void got.push(e),
    request: () => Promise.reject(new Error('no')),
    onClose: () => undefined,
  };
}

const ev = (type: string, payload: object, ts = 1000) =>
  ({ type, session_id: 's', seq: 1, ts, payload }) as WireEvent;

describe('status feed', () => {
  it('coalesces a burst of events into one status.changed with the latest state', () => {
    const feed = new StatusFeed({ coalesceMs: 60_000, now: () => 5000 });
    const c = conn();
    expect(feed.subscribe(c).sessions).toEqual([]);
    const s = session('a');
    s.busy = true;
    feed.touch(s, ev('turn.start', { prompt_id: 'p', text: 'hi' }, 1234));
    for (let i = 0; i < 50; i++) feed.touch(s, ev('message.delta', { text: 'x' }));
    feed.touch(
      s,
      ev('session.usage', { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }),
    );
    expect(c.got).toHaveLength(0); // nothing before the window closes
    feed.flush();
    expect(c.got).toHaveLength(1);
    const p = c.got[0]!.payload as { sessions: Array<Record<string, unknown>> };
    expect(p.sessions).toEqual([
      expect.objectContaining({
        session_id: 'a',
        state: 'working',
        turn_started_at: 1234,
        tokens: 17,
        origin: 'tui',
      }),
    ]);
    feed.touch(s, ev('message.delta', { text: 'y' }));
    feed.flush();
    expect(c.got).toHaveLength(1); // the row did not change: nothing sent
  });

  it('carries how the cost is known: a local server is local, not $0', () => {
    const feed = new StatusFeed({ coalesceMs: 60_000, now: () => 5000 });
    const c = conn();
    feed.subscribe(c);
    const s = session('l');
    feed.touch(s);
    feed.flush();
    expect(c.got.at(-1)!.payload).toMatchObject({ sessions: [{ session_id: 'l', cost_usd: null }] });
    expect((c.got.at(-1)!.payload as { sessions: object[] }).sessions[0]).not.toHaveProperty('cost_status');
    feed.touch(
      s,
      ev('session.usage', {
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        session_cost_usd: 0,
        session_cost_status: 'local',
      }),
    );
    feed.flush();
    expect(c.got.at(-1)!.payload).toMatchObject({
      sessions: [{ session_id: 'l', cost_usd: 0, cost_status: 'local' }],
    });
  });

  it('shows approval with its command, clarify, failed and idle; a gone session is removed', () => {
    const feed = new StatusFeed({ coalesceMs: 60_000 });
    const c = conn();
    feed.subscribe(c);
    const s = session('b', 'telegram');
    s.busy = true;
    s.open = [
      {
        request_id: 'r1',
        kind: 'approval',
        params: { command: 'rm -rf x' },
        created_at: '',
        expires_at: '',
      } as never,
    ];
    feed.touch(s);
    feed.escalated(s, 'r1', 'telegram');
    expect(feed.snapshot()[0]).toMatchObject({
      state: 'approval',
      command: 'rm -rf x',
      escalated_to: 'telegram',
      origin: 'platform',
    });
    s.open = [{ request_id: 'r2', kind: 'clarify', params: { question: 'which?' } } as never];
    expect(feed.snapshot()[0]).toMatchObject({ state: 'clarify', question: 'which?' });
    s.open = [];
    s.busy = false;
    feed.touch(s, ev('turn.end', { prompt_id: 'p', status: 'error' }));
    expect(feed.snapshot()[0]).toMatchObject({ state: 'failed', turn_started_at: null });
    feed.flush();
    feed.gone(s);
    feed.flush();
    expect((c.got.at(-1)!.payload as { removed: string[] }).removed).toEqual(['default/b']);
    expect(feed.snapshot()).toEqual([]);
  });

  it('pushes within the coalescing window on its own', async () => {
    const feed = new StatusFeed({ coalesceMs: 20 });
    const c = conn();
    feed.subscribe(c);
    feed.cronRunning({
      profile: 'work',
      session_id: 'c',
      title: 'cron: x',
      started_at: 1,
      tokens: 0,
      cost_usd: null,
    });
    const deadline = Date.now() + 2000;
    while (c.got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(c.got[0]!.payload).toMatchObject({
      sessions: [expect.objectContaining({ origin: 'cron', state: 'working' })],
    });
    feed.cronEnded('work', 'c');
    feed.flush();
    expect(c.got.at(-1)!.payload).toMatchObject({ removed: ['work/c'] });
  });

  it('names the origin of a source', () => {
    expect(['tui', 'cli', 'telegram', 'cron', 'acp', 'api_server'].map(originOf)).toEqual([
      'tui',
      'tui',
      'platform',
      'cron',
      'acp',
      'api',
    ]);
  });
});
