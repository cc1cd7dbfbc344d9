/**
 * Live sessions across real processes: the daemon is `hermes gateway start`
 * in a temp root (run `npm run build` first), the model a scripted server in this process, the
 * clients real WebSocket connections. Covers fan-out in seq order and a mid-stream attach, replay
 * with `since_seq` after an abrupt disconnect and after the ring overflowed, approvals raised with
 * no client attached, first-answer-wins and timeout, the shared prompt queue, and interrupt.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, tempRoot, waitFor } from './support/gateway-process.js';
import {
  contiguous,
  deferred,
  deltaText,
  is,
  recordingClient,
  seqs,
  startGateway,
  words,
  writeConfig,
  type RecordingClient,
} from './support/gateway-session-kit.js';

let root: string;
let model: FakeModelServer;
const open: RecordingClient[] = [];

beforeAll(async () => {
  root = tempRoot('hermes-sessions-');
  model = await startFakeModelServer();
  writeConfig(root, model.url);
  await startGateway(root);
});
afterEach(() => {
  for (const r of open.splice(0)) r.c.socket.terminate();
});
afterAll(async () => {
  killDaemons(root);
  await model?.close();
  rmSync(root, { recursive: true, force: true });
});

async function client(name: string, approvals = true): Promise<RecordingClient> {
  const r = await recordingClient(root, name, approvals);
  open.push(r);
  return r;
}

async function newSession(by: RecordingClient, title: string): Promise<string> {
  const { session } = await by.c.request('session.create', { title, cwd: root });
  return session.id;
}

/** A folder a scripted `rm -rf` would delete if the approval let it run. */
function victim(name: string): string {
  const dir = join(root, 'victims', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const rmCall = (dir: string) => ({
  toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }],
});

describe('fan-out', () => {
  it('two clients see the same events in seq order; a third attaching mid-stream gets the partial text, then the rest', async () => {
    const a = await client('fan-a');
    const b = await client('fan-b');
    const sid = await newSession(a, 'fan-out');
    await a.c.request('session.attach', { session_id: sid });
    await b.c.request('session.attach', { session_id: sid });
    const reply = words(150, 'fan');
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo fan-out-tool' } }] },
      { text: reply, chunkSize: 4, delayMs: 15 },
    );
    const start = (await a.c.request('prompt.submit', { session_id: sid, text: 'stream please' })).status;
    expect(start).toBe('started');

    const turnStart = await a.until(is('turn.start', sid), 'turn.start');
    const toolDone = await a.until(is('tool.complete', sid), 'tool.complete');
    await a.count(is('message.delta', sid, toolDone.seq), 10, 'deltas of the reply');

    const c = await client('fan-late');
    const snap = await c.c.request('session.attach', { session_id: sid });
    if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(snap.inflight?.text.length).toBeGreaterThan(0);
    expect(reply.startsWith(snap.inflight!.text)).toBe(true);
    expect(snap.inflight!.completed_tools?.map((t) => t.name)).toEqual(['terminal']);
    expect(snap.messages.map((m) => m.role)).toEqual(expect.arrayContaining(['user', 'assistant', 'tool']));

    for (const r of [a, b, c]) await r.until(is('turn.end', sid), 'turn.end');
    const complete = c.of(sid, snap.seq).find((e) => e.type === 'message.complete')!;
    const rest = deltaText(c.of(sid, snap.seq));
    expect(snap.inflight!.text + rest).toBe(reply);
    expect(complete.payload.text).toBe(reply);
    // The late client saw every event after its snapshot, once, in order.
    expect(contiguous(seqs(c.of(sid, snap.seq)), snap.seq + 1)).toBe(true);

    // A and B: identical streams from turn.start on, every seq once, in order.
    const fromTurn = (r: RecordingClient): WireEvent[] => r.of(sid, turnStart.seq - 1);
    expect(fromTurn(b)).toEqual(fromTurn(a));
    expect(contiguous(seqs(fromTurn(a)), turnStart.seq)).toBe(true);
    const types = fromTurn(a).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['tool.start', 'tool.complete', 'message.complete']));
    expect(types.at(-1)).toBe('turn.end');
  });
});

describe('session.list continue_from (hermes tui -c)', () => {
  it('picks the last interactive session of that folder first, else the last interactive one', async () => {
    const a = await client('continue');
    const here = join(root, 'continue-here');
    const there = join(root, 'continue-there');
    mkdirSync(here, { recursive: true });
    mkdirSync(there, { recursive: true });
    const mine = (await a.c.request('session.create', { title: 'in here', cwd: here })).session.id;
    const newer = (await a.c.request('session.create', { title: 'over there', cwd: there })).session.id;
    await a.c.request('session.create', { title: 'an api conversation', cwd: here, source: 'api_server' });
    const pick = async (cwd: string) =>
      (await a.c.request('session.list', { continue_from: cwd })).sessions.map((s) => s.id);
    expect(await pick(here)).toEqual([mine]);
    expect(await pick(there)).toEqual([newer]);
    // no session of this folder: the latest interactive one (never the api_server one)
    expect(await pick(join(root, 'elsewhere'))).toEqual([newer]);
  });
});

describe('replay', () => {
  it('a client killed mid-stream reconnects with since_seq and gets exactly the missed events', async () => {
    const a = await client('replay-stays');
    const k = await client('replay-killed');
    const sid = await newSession(a, 'replay');
    await a.c.request('session.attach', { session_id: sid });
    await k.c.request('session.attach', { session_id: sid });
    const reply = words(120, 'rp');
    model.push({ text: reply, chunkSize: 3, delayMs: 15 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'go' });
    await k.count(is('message.delta', sid), 15, 'deltas before the kill');
    k.c.socket.terminate();
    await k.c.closed;
    const lastSeq = k.lastSeq(sid);
    await a.count(is('message.delta', sid, lastSeq), 20, 'deltas the killed client misses');

    const k2 = await client('replay-back');
    // events.since reads the ring without joining the fan-out
    const peek = await k2.c.request('session.events.since', { session_id: sid, since_seq: lastSeq });
    expect(peek.truncated).toBe(false);
    // the staying client may not have received the newest of those events yet
    await a.until((e) => e.session_id === sid && e.seq >= peek.seq, 'the staying client to catch up (peek)');
    expect(peek.events).toEqual(a.of(sid, lastSeq).filter((e) => e.seq <= peek.seq));
    const listed = await k2.c.request('session.list', {});
    expect(listed.sessions.find((s) => s.id === sid)?.clients).toBe(1);
    const r = await k2.c.request('session.attach', { session_id: sid, since_seq: lastSeq });
    if (r.kind !== 'replay') throw new Error(`expected a replay, got ${r.kind}`);
    expect(r.events[0]!.seq).toBe(lastSeq + 1);
    await a.until((e) => e.session_id === sid && e.seq >= r.seq, 'the staying client to catch up (replay)');
    expect(r.events).toEqual(a.of(sid, lastSeq).filter((e) => e.seq <= r.seq));
    await a.until(is('turn.end', sid), 'turn.end');
    await k2.until(is('turn.end', sid), 'turn.end');

    // What the killed client saw + the replay + live events = what the staying client saw.
    const seen = [...k.of(sid), ...r.events, ...k2.of(sid, r.seq)];
    const firstSeen = seen[0]!.seq;
    expect(seqs(seen)).toEqual(seqs(a.of(sid, firstSeen - 1)));
    expect(contiguous(seqs(seen))).toBe(true);
    expect(deltaText(seen)).toBe(reply);
  });

  it('a fresh attach between turns carries the last usage (the context gauge shows at once)', async () => {
    const a = await client('usage-a');
    const sid = await newSession(a, 'usage');
    const first = await a.c.request('session.attach', { session_id: sid });
    expect(first.kind === 'snapshot' && first.usage).toBeFalsy(); // no turn yet in this daemon
    model.push({ text: 'counted' });
    await a.c.request('prompt.submit', { session_id: sid, text: 'count me' });
    const usage = await a.until(is('session.usage', sid), 'session.usage');
    await a.until(is('turn.end', sid), 'turn.end');
    const b = await client('usage-b');
    const snap = await b.c.request('session.attach', { session_id: sid });
    if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(snap.usage).toEqual({
      total_tokens: (usage.payload.usage as { total_tokens: number }).total_tokens,
      context_tokens: usage.payload.context_tokens ?? null,
      context_window: usage.payload.context_window ?? null,
      // the session's cost as the last session.usage said (a local model: 0)
      session_cost_usd: usage.payload.session_cost_usd,
      session_cost_status: usage.payload.session_cost_status,
    });
    expect(snap.usage).toMatchObject({ session_cost_usd: 0, session_cost_status: 'local' });
    expect(snap.usage!.context_tokens).toBeGreaterThan(0);
  });

  it('after the ring overflowed the reconnect is a truncated snapshot; history has the full reply', async () => {
    const a = await client('ring-stays');
    const k = await client('ring-killed');
    const sid = await newSession(a, 'ring');
    await a.c.request('session.attach', { session_id: sid });
    await k.c.request('session.attach', { session_id: sid });
    const reply = words(700, 'r').replace(/ /g, '');
    model.push({ text: reply, chunkSize: 2, delayMs: 1 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'a long one' });
    await k.count(is('message.delta', sid), 3, 'first deltas');
    k.c.socket.terminate();
    await k.c.closed;
    const lastSeq = k.lastSeq(sid);
    await a.until(is('turn.end', sid), 'turn.end', 60_000);
    expect(a.of(sid, lastSeq).length).toBeGreaterThan(600);

    const k2 = await client('ring-back');
    const since = await k2.c.request('session.events.since', { session_id: sid, since_seq: lastSeq });
    expect(since).toMatchObject({ truncated: true, events: [] });
    const r = await k2.c.request('session.attach', { session_id: sid, since_seq: lastSeq });
    if (r.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(r.truncated).toBe(true);
    expect(r.inflight).toBeNull();
    const history = await k2.c.request('session.history', { session_id: sid });
    const last = history.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', content: reply, status: 'complete' });
    // a `before` that names no message is refused clearly, not read as "everything"
    const refused = await k2.c.request('session.history', { session_id: sid, before: -1 }).then(
      () => undefined,
      (e: { code?: number; message?: string }) => e,
    );
    expect(refused?.code).toBe(-32602);
    expect(refused?.message).toMatch(/before: -1 is not a message id/);
  });
});

describe('approvals', () => {
  it('an approval raised with no client attached is delivered on attach; the first answer wins', async () => {
    const dir = victim('first-answer');
    const c1 = await client('ap-submitter');
    const sid = await newSession(c1, 'approval');
    await c1.c.request('session.attach', { session_id: sid });
    const gate = deferred();
    model.push(
      async () => {
        await gate.promise;
        return rmCall(dir);
      },
      { echo: 'last_tool_result', prefix: 'tool said: ' },
    );
    await c1.c.request('prompt.submit', { session_id: sid, text: 'clean up' });
    await c1.c.close();
    const observer = await client('ap-observer', false);
    await waitFor(async () => {
      const { sessions } = await observer.c.request('session.list', {});
      return sessions.find((s) => s.id === sid)?.clients === 0;
    }, 'no client attached');
    gate.resolve();
    // Poll with a client that cannot answer approvals, detaching at once after each look.
    await waitFor(async () => {
      const s = await observer.c.request('session.attach', { session_id: sid });
      await observer.c.request('session.detach', { session_id: sid });
      return s.kind === 'snapshot' && s.open_requests.length === 1;
    }, 'the approval to be open');

    const second = await client('ap-second');
    const resolvedSeen = deferred();
    const secondGot = deferred<string>();
    second.c.onServerRequest('approval.request', async (p) => {
      secondGot.resolve(p.request_id);
      await resolvedSeen.promise; // answers only after it was told someone else did: refused
      return { choice: 'deny' };
    });
    const order: string[] = [];
    second.c.onFrame((f) => order.push(typeof f.method === 'string' ? f.method : `answer ${String(f.id)}`));
    const snap2 = await second.c.request('session.attach', { session_id: sid });
    if (snap2.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(snap2.open_requests).toHaveLength(1);
    const open1 = snap2.open_requests[0]!;
    expect(open1.kind).toBe('approval');
    expect(String(open1.params.command)).toBe(`rm -rf ${dir}`);
    expect(await secondGot.promise).toBe(open1.request_id);
    // the snapshot listing the request arrives before the request itself
    expect(order.filter((m) => m !== 'event').slice(0, 2)).toEqual([
      expect.stringMatching(/^answer /),
      'approval.request',
    ]);

    const first = await client('ap-first');
    first.c.onServerRequest('approval.request', () => ({ choice: 'once' }));
    const snap3 = await first.c.request('session.attach', { session_id: sid });
    expect(snap3.kind === 'snapshot' && snap3.open_requests.map((o) => o.request_id)).toEqual([
      open1.request_id,
    ]);

    const resolved = await second.until(is('request.resolved', sid), 'request.resolved');
    expect(resolved.payload).toEqual({
      request_id: open1.request_id,
      kind: 'approval',
      choice: 'once',
      by: `connection:${first.c.server!.connection_id}`,
    });
    resolvedSeen.resolve();
    await first.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(dir)).toBe(false); // "once" applied: the command ran
    expect(second.of(sid).filter((e) => e.type === 'request.resolved')).toHaveLength(1);
    const done = first
      .of(sid)
      .find(
        (e) =>
          e.type === 'message.complete' &&
          e.payload.status === 'complete' &&
          String(e.payload.text).startsWith('tool said'),
      );
    expect(done).toBeDefined();
  });

  it('no answer before approvals.timeout → denied; the folder survives and the model is told', async () => {
    const t = await client('timeout');
    await t.c.request('config.set', { key: 'approvals.timeout', value: 2 });
    try {
      const dir = victim('timeout');
      const sid = await newSession(t, 'timeout');
      t.c.onServerRequest('approval.request', () => new Promise(() => {}));
      await t.c.request('session.attach', { session_id: sid });
      const before = model.requests.length;
      model.push(rmCall(dir), { echo: 'last_tool_result', prefix: 'tool said: ' });
      await t.c.request('prompt.submit', { session_id: sid, text: 'delete it' });
      const resolved = await t.until(is('request.resolved', sid), 'request.resolved');
      expect(resolved.payload).toMatchObject({ choice: 'deny', by: 'timeout' });
      await t.until(is('turn.end', sid), 'turn.end');
      expect(existsSync(dir)).toBe(true);
      const told = model.requests[before + 1]!.body as { messages: Array<{ role: string; content: string }> };
      const toolMsg = told.messages.filter((m) => m.role === 'tool').at(-1)!;
      expect(toolMsg.content).toMatch(/did not answer the approval request .* within 2 s, so it was denied/);
    } finally {
      await t.c.request('config.set', { key: 'approvals.timeout', value: 300 });
    }
  });
});

describe('prompt queue and interrupt', () => {
  it('prompts submitted while busy are queued and run next, in order, two clients sharing one queue', async () => {
    const a = await client('q-a');
    const b = await client('q-b');
    const sid = await newSession(a, 'queue');
    await a.c.request('session.attach', { session_id: sid });
    await b.c.request('session.attach', { session_id: sid });
    const before = model.requests.length;
    model.push(
      { text: words(40, 'q'), chunkSize: 4, delayMs: 20 },
      { echo: 'last_user', prefix: 'echo: ' },
      { echo: 'last_user', prefix: 'echo: ' },
    );
    const p1 = await a.c.request('prompt.submit', { session_id: sid, text: 'one' });
    await a.until(is('message.delta', sid), 'first delta');
    const p2 = await b.c.request('prompt.submit', { session_id: sid, text: 'two' });
    const p3 = await a.c.request('prompt.submit', { session_id: sid, text: 'three' });
    expect([p1.status, p2.status, p3.status]).toEqual(['started', 'queued', 'queued']);
    const late = await client('q-late');
    const snap = await late.c.request('session.attach', { session_id: sid });
    expect(snap.kind === 'snapshot' && snap.queued.map((q) => q.text)).toEqual(['two', 'three']);

    for (const r of [a, b]) await r.count(is('turn.end', sid), 3, 'turn.end');
    const starts = a.of(sid).filter((e) => e.type === 'turn.start');
    expect(starts.map((e) => e.payload.prompt_id)).toEqual([p1.prompt_id, p2.prompt_id, p3.prompt_id]);
    expect(String(starts[1]!.payload.by)).toContain(b.c.server!.connection_id);
    const queued = a.of(sid).filter((e) => e.type === 'prompt.queued');
    expect(queued.map((e) => (e.payload.queued as Array<{ text: string }>).map((q) => q.text))).toEqual([
      ['two'],
      ['two', 'three'],
      ['three'],
      [],
    ]);
    const replies = a
      .of(sid)
      .filter((e) => e.type === 'message.complete')
      .map((e) => e.payload.text);
    expect(replies.slice(1)).toEqual(['echo: two', 'echo: three']);
    const lastUser = (i: number) =>
      (model.requests[before + i]!.body as { messages: Array<{ role: string; content: string }> }).messages
        .filter((m) => m.role === 'user')
        .at(-1)!.content;
    expect([0, 1, 2].map(lastUser)).toEqual(['one', 'two', 'three']);
    expect(seqs(b.of(sid, starts[0]!.seq - 1))).toEqual(seqs(a.of(sid, starts[0]!.seq - 1)));
  });

  it('session.interrupt stops the turn and keeps the partial reply; a queued prompt runs next', async () => {
    const a = await client('int-a');
    const sid = await newSession(a, 'interrupt');
    await a.c.request('session.attach', { session_id: sid });
    const partial = 'the partial words so far';
    model.push({ hang: true, text: partial, chunkSize: 4 }, { text: 'after the interrupt' });
    await a.c.request('prompt.submit', { session_id: sid, text: 'hang' });
    await waitFor(() => deltaText(a.of(sid)) === partial, 'the partial text');
    expect((await a.c.request('prompt.submit', { session_id: sid, text: 'next' })).status).toBe('queued');
    expect(await a.c.request('session.interrupt', { session_id: sid })).toEqual({ interrupted: true });
    const end = await a.until(is('turn.end', sid), 'turn.end');
    expect(end.payload.status).toBe('interrupted');
    const complete = a.of(sid).find((e) => e.type === 'message.complete')!;
    expect(complete.payload).toMatchObject({ text: partial, status: 'interrupted' });
    const ends = await a.count(is('turn.end', sid), 2, 'turn.end of the queued prompt');
    expect(ends[1]!.payload.status).toBe('complete');
    const { messages } = await a.c.request('session.history', { session_id: sid });
    expect(messages.map((m) => [m.role, m.content, m.status ?? null])).toEqual([
      ['user', 'hang', null],
      ['assistant', partial, 'interrupted'],
      ['user', 'next', null],
      ['assistant', 'after the interrupt', 'complete'],
    ]);
  });

  it('session.interrupt denies an open approval', async () => {
    const dir = victim('interrupt');
    const a = await client('int-ap');
    const sid = await newSession(a, 'interrupt-approval');
    const asked = deferred();
    a.c.onServerRequest('approval.request', () => {
      asked.resolve();
      return new Promise(() => {});
    });
    await a.c.request('session.attach', { session_id: sid });
    const before = model.requests.length;
    model.push(rmCall(dir));
    await a.c.request('prompt.submit', { session_id: sid, text: 'delete' });
    await asked.promise;
    expect(await a.c.request('session.interrupt', { session_id: sid })).toEqual({ interrupted: true });
    const resolved = await a.until(is('request.resolved', sid), 'request.resolved');
    expect(resolved.payload).toMatchObject({ choice: 'deny', by: 'interrupt' });
    expect((await a.until(is('turn.end', sid), 'turn.end')).payload.status).toBe('interrupted');
    expect(existsSync(dir)).toBe(true);
    expect(model.requests.length).toBe(before + 1); // the model was not called again
  });
});
