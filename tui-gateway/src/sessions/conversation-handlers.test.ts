/**
 * Conversation control in process, against a real SessionDB: `/undo`, `/retry`, `/rewind` and
 * `/fork` refuse while a turn runs and work once it ended; the stored transcript, the agent's
 * history and every client agree afterwards; a prompt sent during an edit waits for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcErrorCode, type SessionInfo } from '@hermes/core/protocol';
import { SessionDB, type SessionRecord } from '@hermes/core/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../lifecycle/logger.js';
import { Dispatcher } from '../rpc/dispatcher.js';
import { LiveSession, type SessionPersistence } from './live-session.js';
import { RingBudget } from './replay-ring.js';
import { storedSessionInfo } from './session-view.js';
import { registerSessionHandlers } from './session-handlers.js';
import type { SessionRegistry } from './session-registry.js';
import { acceptInitialize, FakeClient, ScriptedAgent, settle, until } from './testing.js';

let dir: string;
let db: SessionDB;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-conversation-'));
  db = SessionDB.open(join(dir, 'state.db'), { warn: () => {} });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const s = db.createSession({ source: 'tui', cwd: dir, title: 'plans' });
  const ids = db.appendMessages(s.id, [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'one', status: 'complete' },
    { role: 'user', content: 'second' },
    { role: 'assistant', content: 'two', status: 'complete' },
    { role: 'user', content: 'steer me', status: 'guidance' },
  ]);
  const store: SessionPersistence = {
    getSession: (id) => db.getSession(id),
    getMessages: (id, o) => db.getMessages(id, o),
    setSessionState: (id, st) => db.setSessionState(id, st),
    moveQueuedPrompts: (a, b) => db.moveQueuedPrompts(a, b),
    queuePrompt: (id, p) => db.queuePrompt(id, p),
    unqueuePrompt: (p) => db.unqueuePrompt(p),
    queuedPrompts: (id) => db.queuedPrompts(id),
  };
  const agent = new ScriptedAgent();
  const live = new LiveSession({
    id: s.id,
    profile: 'default',
    store,
    createAgent: agent.create,
    approvalTimeoutS: 60,
    budget: new RingBudget(),
    epoch: 'e',
  });
  const profile = { db, writer: { pending: 0 }, home: {}, config: { checkpoints: {} } };
  const registry = {
    isDraining: false,
    get: () => live,
    peek: () => live,
    profile: () => profile,
    describe: (_p: unknown, r: SessionRecord): SessionInfo => storedSessionInfo('default', r),
  } as unknown as SessionRegistry;
  const dispatcher = new Dispatcher({
    log: silentLogger,
    maxFrameBytes: 1024 * 1024,
    validateResults: true,
    initialize: async (p, conn) => acceptInitialize(p, conn),
  });
  registerSessionHandlers(dispatcher, registry);
  let n = 0;
  const client = async (): Promise<FakeClient> => {
    const c = new FakeClient(dispatcher, `c-${++n}`);
    await c.call('initialize', {
      client: { name: `t${n}`, version: '1' },
      capabilities: { approvals: true },
    });
    await c.call('session.attach', { session_id: s.id });
    return c;
  };
  return { id: s.id, ids, live, agent, client, profile };
}

const contents = (id: string): (string | null)[] => db.getMessages(id).map((m) => m.content);

describe('undo and retry against a running turn', () => {
  it('refuses while a turn runs (nothing changes), then drops the last exchange once it ended', async () => {
    const t = setup();
    const a = await t.client();
    const b = await t.client();
    await a.call('prompt.submit', { session_id: t.id, text: 'third' });
    const turn = await t.agent.nextTurn();
    await expect(a.call('session.undo', { session_id: t.id })).rejects.toMatchObject({
      code: RpcErrorCode.SessionBusy,
    });
    await expect(a.call('session.fork', { session_id: t.id })).rejects.toMatchObject({
      code: RpcErrorCode.SessionBusy,
    });
    expect(contents(t.id)).toHaveLength(6);
    turn.end();
    await t.live.idle();
    // the last prompt is "second" (guidance is not a prompt): it goes, with what followed
    const r = await a.call('session.undo', { session_id: t.id });
    expect(r).toMatchObject({ removed: 3, message_id: t.ids[3], text: 'second' });
    expect(contents(t.id)).toEqual(['sys', 'first', 'one']);
    expect(db.getSession(t.id)!.message_count).toBe(3);
    // the agent's history follows the cut: only what is left
    expect(t.agent.replaced.at(-1)!.map((m) => m.content)).toEqual(['sys', 'first', 'one']);
    // every attached client is told, so each reloads
    await until(() => b.eventsOf('session.rewound').length === 1, 'b hears of the undo');
    expect(b.eventsOf('session.rewound')[0]!.payload).toMatchObject({ reason: 'undo', removed: 3 });
  });

  it('retry cuts the last exchange and runs its prompt again', async () => {
    const t = setup();
    const a = await t.client();
    const r = await a.call('session.retry', { session_id: t.id });
    expect(r.text).toBe('second');
    expect(r.prompt_id).toBeTruthy();
    const turn = await t.agent.nextTurn();
    expect(turn.text).toBe('second');
    turn.end();
    await t.live.idle();
    expect(contents(t.id)).toEqual(['sys', 'first', 'one']);
  });

  it('a prompt sent while an edit runs waits for it, then runs', async () => {
    const t = setup();
    const a = await t.client();
    let release!: () => void;
    const edit = t.live.whileIdle('/rewind', () => new Promise<void>((r) => (release = r)));
    expect(await a.call('prompt.submit', { session_id: t.id, text: 'meanwhile' })).toMatchObject({
      status: 'queued',
    });
    await settle(10);
    expect(t.agent.started).toEqual([]);
    // a second edit is refused while the first runs
    await expect(t.live.whileIdle('/undo', () => 1)).rejects.toThrow(/interrupt it first/);
    release();
    await edit;
    const turn = await t.agent.nextTurn();
    expect(turn.text).toBe('meanwhile');
    turn.end();
    await t.live.idle();
  });
});

describe('rewind and fork', () => {
  it('rewinds to a picked prompt, and refuses guidance, unknown ids and empty sessions', async () => {
    const t = setup();
    const a = await t.client();
    await expect(a.call('session.rewind', { session_id: t.id, message_id: t.ids[5]! })).rejects.toMatchObject(
      {
        code: RpcErrorCode.InvalidParams,
      },
    );
    await expect(a.call('session.rewind', { session_id: t.id, message_id: 99_999 })).rejects.toMatchObject({
      code: RpcErrorCode.InvalidParams,
    });
    const r = await a.call('session.rewind', { session_id: t.id, message_id: t.ids[1]! });
    expect(r).toMatchObject({ removed: 5, text: 'first' });
    expect(contents(t.id)).toEqual(['sys']);
    await expect(a.call('session.undo', { session_id: t.id })).rejects.toMatchObject({
      code: RpcErrorCode.InvalidParams,
    });
  });

  it('forks from a picked prompt into a child session; the original is kept', async () => {
    const t = setup();
    const a = await t.client();
    const r = await a.call('session.fork', { session_id: t.id, message_id: t.ids[3]! });
    expect(r).toMatchObject({ parent_session_id: t.id, text: 'second' });
    expect(r.session.title).toBe('plans (fork)');
    expect(contents(r.session.id)).toEqual(['sys', 'first', 'one']);
    expect(db.getSession(r.session.id)!.parent_session_id).toBe(t.id);
    expect(contents(t.id)).toHaveLength(6);
    const all = await a.call('session.fork', { session_id: t.id });
    expect(contents(all.session.id)).toHaveLength(6);
  });
});
