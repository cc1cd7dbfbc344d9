/**
 * A rewound conversation on screen: the controller clears the screen, attaches again for a
 * snapshot and then prints what happened — for a live `session.rewound`, and for one that arrives
 * in a replay after a reconnect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonClient, type AttachResult } from '@hermes/client';
import type { StoredMessage, WireEvent } from '@hermes/core/protocol';
import { startTestServer, waitFor, type TestConn } from '@hermes/client/testing';
import { sessionInfo, snapshotResult, stored } from '../testing/fixtures.js';
import { SessionController } from './controller.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const server = await startTestServer();
  cleanups.push(() => server.close());
  const events: WireEvent[] = [];
  let messages: StoredMessage[] = [
    stored('user', 'one'),
    stored('assistant', 'first'),
    stored('user', 'two'),
  ];
  const emit = (conn: TestConn | null, type: string, payload: Record<string, unknown>): void => {
    const seq = events.length + 1;
    events.push({ type, seq, session_id: 's1', payload } as unknown as WireEvent);
    conn?.event(type, 's1', seq, payload);
  };
  server.handlers.set('session.list', () => ({ sessions: [sessionInfo()] }));
  server.handlers.set('session.attach', (p): AttachResult => {
    const since = p.since_seq as number | undefined;
    if (since === undefined) return snapshotResult({ messages, seq: events.length });
    return {
      kind: 'replay',
      session: sessionInfo(),
      events: events.filter((e) => e.seq > since),
      open_requests: [],
      seq: events.length,
      epoch: 'epoch-1',
    };
  });
  const client = new DaemonClient({
    endpoint: { url: server.url, token: server.token },
    name: 'hermes-tui',
    version: 'test',
    capabilities: { approvals: true, clarify: true },
    reconnect: true,
    backoff: { initialMs: 10, maxMs: 30 },
  });
  cleanups.push(() => client.close());
  const controller = new SessionController({ client, cwd: '/w', throttleMs: 0 });
  cleanups.push(() => controller.dispose());
  let resets = 0;
  controller.screenReset = () => void resets++;
  await controller.start({ mode: 'continue' });
  const conn = await server.waitForConns(1);
  return {
    server,
    controller,
    conn,
    emit,
    resets: () => resets,
    setMessages: (m: StoredMessage[]) => (messages = m),
  };
}

const texts = (c: SessionController): string[] =>
  c.state.items.map((i) => `${i.kind}:${'text' in i ? i.text : ''}`);
const REWOUND = { reason: 'undo', message_id: 3, removed: 1, text: 'two' };

describe('a rewound conversation in the TUI', () => {
  it('a live session.rewound clears the screen, reloads the transcript, then says what happened', async () => {
    const t = await setup();
    expect(texts(t.controller)).toEqual(['user:one', 'assistant:first', 'user:two']);
    t.setMessages([stored('user', 'one'), stored('assistant', 'first')]);
    t.emit(t.conn, 'session.rewound', REWOUND);
    await waitFor(() => texts(t.controller).at(-1)?.startsWith('notice:Undone') === true);
    expect(t.resets()).toBe(1);
    expect(texts(t.controller)).toEqual([
      'user:one',
      'assistant:first',
      'notice:Undone: 1 message(s) removed, back to before “two”.',
    ]);
  });

  it('a session.rewound missed while disconnected reloads after the replay', async () => {
    const t = await setup();
    t.conn.ws.terminate();
    await waitFor(() => t.controller.state.connection === 'reconnecting');
    t.setMessages([stored('user', 'one'), stored('assistant', 'first')]);
    t.emit(null, 'session.rewound', REWOUND);
    await t.server.waitForConns(2);
    await waitFor(() => texts(t.controller).at(-1)?.startsWith('notice:Undone') === true);
    expect(t.resets()).toBe(1);
    expect(texts(t.controller)).not.toContain('user:two');
  });
});
