/**
 * Live sessions across daemon stops and crashes (`hermes gateway stop`
 * mid-turn drains; `kill -9` mid-turn then `start`: the session, its user message and its partial
 * reply are there, marked interrupted, nothing else lost, a new epoch). Real `hermes gateway`
 * processes in temp roots (run `npm run build` first); the model is a scripted server here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcErrorCode } from '@hermes/core/protocol';
import { RpcCallError } from '@hermes/client';
import { hermes, pidRuns, waitFor } from './support/gateway-process.js';
import {
  deltaText,
  is,
  startGateway,
  words,
  showSession,
  useDaemonRoots,
  type RecordingClient,
  type ShownMessage,
} from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-restart-');
const root = (configExtra = ''): string => fx.root(configExtra);
const client = (r: string, name: string): Promise<RecordingClient> => fx.client(r, name);

type Row = ShownMessage;
const rows = (messages: Row[]) => messages.map((m) => [m.role, m.content, m.status ?? null]);

describe('hermes gateway stop mid-turn', () => {
  it('lets a turn that ends within drain_timeout finish, then writes .clean_shutdown', async () => {
    const r = root('gateway:\n  drain_timeout: 20\n');
    await startGateway(r);
    const a = await client(r, 'drain-a');
    const b = await client(r, 'drain-b');
    const { session } = await a.c.request('session.create', { title: 'drain' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    const reply = words(200, 'd'); // ~4 s: still streaming when the stop arrives
    fx.model.push({ text: reply, chunkSize: 4, delayMs: 20 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'finish me' });
    await a.until(is('message.delta', sid), 'first delta');

    const stopping = hermes(r, ['gateway', 'stop']);
    await a.until((e) => e.type === 'gateway.shutdown', 'gateway.shutdown');
    const refused = await b.c.request('prompt.submit', { session_id: sid, text: 'too late' }).catch((e) => e);
    expect(refused).toBeInstanceOf(RpcCallError);
    expect((refused as RpcCallError).code).toBe(RpcErrorCode.ShuttingDown);
    const end = await a.until(is('turn.end', sid), 'turn.end');
    expect(end.payload.status).toBe('complete');
    const shutdownAt = a.events.findIndex((e) => e.type === 'gateway.shutdown');
    expect(shutdownAt).toBeLessThan(a.events.indexOf(end)); // the stop came mid-turn
    expect(deltaText(a.of(sid))).toBe(reply);
    const stop = await stopping;
    expect(stop.code, stop.stderr).toBe(0);
    expect(existsSync(join(r, '.clean_shutdown'))).toBe(true);

    const stored = await showSession(r, sid);
    expect(stored.session.state).toBe('idle');
    expect(rows(stored.messages)).toEqual([
      ['user', 'finish me', null],
      ['assistant', reply, 'complete'],
    ]);
  });

  it('interrupts a turn still running at drain_timeout, keeps the partial reply, no .clean_shutdown', async () => {
    const r = root('gateway:\n  drain_timeout: 1\n');
    const first = await startGateway(r);
    const a = await client(r, 'drain-int');
    const { session } = await a.c.request('session.create', { title: 'drain-interrupt' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    const partial = 'streamed before the stop';
    fx.model.push({ hang: true, text: partial, chunkSize: 6 });
    await a.c.request('prompt.submit', { session_id: sid, text: 'never ends' });
    await waitFor(() => deltaText(a.of(sid)) === partial, 'the partial text');

    const stop = await hermes(r, ['gateway', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect((await a.until(is('turn.end', sid), 'turn.end')).payload.status).toBe('interrupted');
    expect(existsSync(join(r, '.clean_shutdown'))).toBe(false);
    const stored = await showSession(r, sid);
    // left resume_pending by the drain: the next start marks it interrupted
    expect(stored.session.state).toBe('resume_pending');
    expect(rows(stored.messages)).toEqual([
      ['user', 'never ends', null],
      ['assistant', partial, 'interrupted'],
    ]);

    const second = await startGateway(r);
    expect(second.epoch).not.toBe(first.epoch);
    const b = await client(r, 'after');
    const snap = await b.c.request('session.attach', { session_id: sid });
    if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(snap.session.state).toBe('interrupted');
    expect(rows(snap.messages)).toEqual(rows(stored.messages));
  });
});

describe('kill -9 mid-turn, then start', () => {
  it('keeps the session, its user message and its partial reply, marked interrupted; nothing else lost', async () => {
    const r = root();
    const first = await startGateway(r);
    const a = await client(r, 'crash-a');
    const { session: idle } = await a.c.request('session.create', { title: 'idle-bystander' });
    const { session } = await a.c.request('session.create', { title: 'crash' });
    const sid = session.id;
    for (const id of [idle.id, sid]) await a.c.request('session.attach', { session_id: id });
    fx.model.push({ text: 'bystander reply' }, { text: 'first answer' });
    await a.c.request('prompt.submit', { session_id: idle.id, text: 'hello bystander' });
    await a.until(is('turn.end', idle.id), 'bystander turn.end');
    await a.c.request('prompt.submit', { session_id: sid, text: 'one' });
    await a.until(is('turn.end', sid), 'first turn.end');

    const reply = words(200, 'k');
    fx.model.push({ text: reply, chunkSize: 4, delayMs: 15 });
    const mark = a.lastSeq(sid);
    await a.c.request('prompt.submit', { session_id: sid, text: 'two' });
    const firstDelta = await a.until(is('message.delta', sid, mark), 'first delta');
    // past one streaming checkpoint (250 ms) so the stored partial has grown beyond the first delta
    await waitFor(() => a.lastSeq(sid) > firstDelta.seq && Date.now() - firstDelta.ts! > 600, 'stream');
    process.kill(first.pid, 'SIGKILL');
    await a.c.closed;
    await waitFor(() => !pidRuns(first.pid), 'the killed daemon to be gone');
    const streamed = deltaText(a.of(sid, firstDelta.seq - 1));

    const second = await startGateway(r);
    expect(second.epoch).not.toBe(first.epoch);
    const b = await client(r, 'crash-b');
    const snap = await b.c.request('session.attach', { session_id: sid });
    if (snap.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(snap.epoch).toBe(second.epoch);
    expect(snap.session.state).toBe('interrupted');
    expect(snap.inflight).toBeNull();
    const [u1, a1, u2, a2, ...rest] = snap.messages;
    expect(rest).toEqual([]);
    expect(rows([u1!, a1!, u2!])).toEqual([
      ['user', 'one', null],
      ['assistant', 'first answer', 'complete'],
      ['user', 'two', null],
    ]);
    expect(a2).toMatchObject({ role: 'assistant', status: 'interrupted' });
    expect(a2!.content!.length).toBeGreaterThan(0);
    // the stored partial is the reply's start (it may hold a delta the killed socket never sent)
    expect(reply.startsWith(a2!.content!)).toBe(true);
    expect(reply.startsWith(streamed)).toBe(true);
    expect(reply).not.toBe(a2!.content);
    const history = await b.c.request('session.history', { session_id: sid });
    expect(history.messages).toEqual(snap.messages);
    const shown = await showSession(r, sid);
    expect(shown.session.state).toBe('interrupted');
    expect(rows(shown.messages)).toEqual(rows(snap.messages));

    // the bystander session is intact and attachable at once (its old lock holder is dead)
    const other = await b.c.request('session.attach', { session_id: idle.id });
    expect(other.kind === 'snapshot' && rows(other.messages)).toEqual([
      ['user', 'hello bystander', null],
      ['assistant', 'bystander reply', 'complete'],
    ]);
    // the interrupted session goes on, with its whole history sent to the model
    const before = fx.model.requests.length;
    fx.model.push({ text: 'after the crash' });
    await b.c.request('prompt.submit', { session_id: sid, text: 'three' });
    expect((await b.until(is('turn.end', sid), 'turn.end')).payload.status).toBe('complete');
    const sent = (fx.model.requests[before]!.body as { messages: Row[] }).messages.filter(
      (m) => m.role !== 'system',
    );
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'first answer'],
      ['user', 'two'],
      ['assistant', a2!.content],
      ['user', 'three'],
    ]);
    const log = readFileSync(join(r, 'logs', 'tui-gateway.log'), 'utf8');
    expect(log).toMatch(new RegExp(`after a crash: profile default: marked interrupted: .*${sid}`));
  });
});

describe('one writer per session', () => {
  it('hermes chat -q --session joins the live session queue; an in-process writer is refused naming the daemon', async () => {
    const r = root();
    const info = await startGateway(r);
    const a = await client(r, 'writer-tui');
    const { session } = await a.c.request('session.create', { title: 'one-writer' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    fx.model.push({ text: words(120, 'busy'), chunkSize: 4, delayMs: 20 }, { text: 'reply for the cli' });
    await a.c.request('prompt.submit', { session_id: sid, text: 'from the tui' });
    await a.until(is('message.delta', sid), 'first delta');

    const chat = hermes(r, ['chat', '-q', 'from the cli', '--session', sid]);
    const queued = await a.until(
      (e) => is('prompt.queued', sid)(e) && JSON.stringify(e.payload).includes('from the cli'),
      'the cli prompt queued behind the running turn',
    );
    expect(a.of(sid, queued.seq).some((e) => e.type === 'turn.end')).toBe(false);

    const refused = await hermes(r, ['chat', '-q', 'x', '--session', sid, '--yolo']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`in use by tui-gateway (pid ${info.pid})`);

    const done = await chat;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('reply for the cli');
    const starts = a.of(sid).filter((e) => e.type === 'turn.start');
    expect(starts.map((e) => e.payload.text)).toEqual(['from the tui', 'from the cli']);
    const { messages } = await a.c.request('session.history', { session_id: sid });
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'from the tui',
      'from the cli',
    ]);
  });
});
