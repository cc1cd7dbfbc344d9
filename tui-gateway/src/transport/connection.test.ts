/**
 * Connections over real sockets: server requests (round trip, validation, rejection on close and
 * abort), slow clients (merging, overflow, no effect on others), liveness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { APPROVAL_CHOICES, type EventType, type WireEvent } from '@hermes/core/protocol';
import { connect, type DaemonClient } from '@hermes/client';
import {
  startDaemon,
  type DaemonContext,
  type DaemonHandle,
  type DaemonOptions,
} from '../lifecycle/daemon.js';
import type { Connection } from '../rpc/types.js';
import type { WsConnection } from './connection.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Harness {
  daemon: DaemonHandle;
  ctx: DaemonContext;
  /** Server side of each client, by connection id. */
  conns: Map<string, Connection>;
  client(name?: string): Promise<DaemonClient>;
}

/**
 * A daemon whose `slash.exec` broadcasts events like a streaming agent: command
 * `emit <n> <type> <bytes>` sends n events of `type` with `bytes` of text each to every
 * initialized connection, 8 per event-loop turn.
 */
async function harness(opts: Partial<DaemonOptions> = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'hermes-gw-conn-'));
  const conns = new Map<string, Connection>();
  let ctx!: DaemonContext;
  let seq = 0;
  const daemon = await startDaemon({
    root,
    version: '0.0.1',
    systemdUnitFile: null,
    ...opts,
    registerHandlers: (registry, c) => {
      ctx = c;
      c.onConnection((conn) => conns.set(conn.id, conn));
      registry.register('slash.exec', async ({ session_id, command }) => {
        const [, n, type, bytes] = command.split(' ');
        const text = 'x'.repeat(Number(bytes));
        for (let i = 0; i < Number(n); i++) {
          const payload = type === 'tool.progress' ? { tool_id: 't', text } : { text };
          c.broadcast({ type: type as EventType, session_id, seq: ++seq, payload } as WireEvent);
          if (i % 8 === 7) await new Promise((r) => setImmediate(r));
        }
        return { output: `emitted ${n}`, handled: true };
      });
    },
  });
  cleanups.push(async () => {
    await daemon.close();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    daemon,
    ctx,
    conns,
    client: async (name = 'test') => {
      const c = await connect(
        { port: daemon.port, token: daemon.token },
        { name, capabilities: { approvals: true } },
      );
      cleanups.push(async () => {
        c.socket.resume();
        await Promise.race([c.close(), new Promise((r) => setTimeout(r, 1000))]);
        c.socket.terminate();
      });
      return c;
    },
  };
}

const approval = (request_id: string) => ({
  session_id: 's1',
  request_id,
  kind: 'approval' as const,
  command: 'rm -rf /tmp/x',
  description: 'recursive delete',
  choices: [...APPROVAL_CHOICES],
});

describe('server requests', () => {
  it('round-trip with srq- ids and validated results', async () => {
    const h = await harness();
    const c = await h.client();
    const seen: string[] = [];
    c.onFrame((f) => {
      if (f.method === 'approval.request') seen.push(String(f.id));
    });
    c.onServerRequest('approval.request', (p) => ({ choice: p.request_id === 'r1' ? 'once' : 'deny' }));
    const conn = h.conns.get(c.server!.connection_id)!;
    expect(await conn.request('approval.request', approval('r1'))).toEqual({ choice: 'once' });
    expect(await conn.request('approval.request', approval('r2'))).toEqual({ choice: 'deny' });
    expect(seen).toHaveLength(2);
    for (const id of seen) expect(id).toMatch(/^srq-\d+$/);
  });

  it('hand a result on unchecked (its owner checks it); reject on a client error, abort and close', async () => {
    const h = await harness();
    const c = await h.client();
    const conn = h.conns.get(c.server!.connection_id)!;
    c.onServerRequest('approval.request', (p) => {
      if (p.request_id === 'bad') return { choice: 'maybe' } as never;
      if (p.request_id === 'err') throw new Error('user closed the dialog');
      return new Promise(() => {}); // never answers
    });
    // whether `maybe` is usable is the request's business (approvals/pending.ts), not the transport's
    expect(await conn.request('approval.request', approval('bad'))).toEqual({ choice: 'maybe' });
    const failed = await conn.request('approval.request', approval('err')).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: 'RpcFailureError', message: 'user closed the dialog' });

    const ac = new AbortController();
    const aborted = conn.request('approval.request', approval('slow'), ac.signal);
    ac.abort();
    await expect(aborted).rejects.toThrow(/aborted/);

    const pending = conn.request('approval.request', approval('slow2'));
    let closedCalled = false;
    conn.onClose(() => (closedCalled = true));
    await c.close();
    await expect(pending).rejects.toThrow(/closed before answering approval.request srq-\d+/);
    await expect(conn.request('approval.request', approval('late'))).rejects.toThrow(/closed/);
    expect(conn.closed).toBe(true);
    expect(closedCalled).toBe(true);
  });

  it('refuses invalid params before sending', async () => {
    const h = await harness();
    const c = await h.client();
    const conn = h.conns.get(c.server!.connection_id)!;
    await expect(conn.request('approval.request', { session_id: 's' } as never)).rejects.toThrow(
      /invalid params for server request approval.request: request_id/,
    );
  });
});

async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('slow clients', () => {
  it('a client that stops reading is closed on overflow and does not delay another', async () => {
    const h = await harness({ outbound: { maxBytes: 1024 * 1024, maxFrames: 1000 } });
    const fast = await h.client('fast');
    const slow = await h.client('slow');
    const slowConn = h.conns.get(slow.server!.connection_id)!;
    slow.socket.pause();
    let got = 0;
    let lastSeq = 0;
    let ordered = true;
    fast.onEvent((e) => {
      got++;
      if (e.seq <= lastSeq) ordered = false;
      lastSeq = e.seq;
    });
    const N = 400;
    const started = Date.now();
    // 400 × 64 KiB = 25 MiB: more than the kernel buffers plus the 1 MiB queue of the slow client.
    const r = await fast.request('slash.exec', {
      session_id: 's1',
      command: `emit ${N} tool.progress 65536`,
    });
    expect(r.output).toBe(`emitted ${N}`);
    await until(() => got === N, `the fast client's ${N} events`);
    const elapsedMs = Date.now() - started;
    expect(ordered).toBe(true);
    expect(slowConn.closed).toBe(true);
    expect(h.ctx.connections().map((c) => c.id)).toEqual([fast.server!.connection_id]);
    slow.socket.resume();
    expect([4008, 1006]).toContain((await slow.closed).code);
    // Diagnostic only (no wall-clock assertion): how long 25 MiB to the fast client took.
    console.info(`fast client: ${N} events of 64 KiB in ${elapsedMs} ms while another client was stuck`);
  });

  it('merges queued deltas: full text, last seq', async () => {
    const h = await harness({ outbound: { maxBytes: 256 * 1024 * 1024, maxFrames: 10_000 } });
    const reader = await h.client('reader');
    const conn = h.conns.get(reader.server!.connection_id)! as WsConnection;
    const events: WireEvent[] = [];
    reader.onEvent((e) => events.push(e));
    reader.socket.pause();
    // Fill the kernel buffers and the socket past the high-water mark, so later frames queue.
    let seq = 0;
    while (conn.queuedFrames === 0 && seq < 2000) {
      conn.notify({
        type: 'tool.progress',
        session_id: 's1',
        seq: ++seq,
        payload: { tool_id: 't', text: 'p'.repeat(100_000) },
      });
    }
    expect(conn.queuedFrames).toBeGreaterThan(0);
    const first = seq + 1;
    let text = '';
    for (let i = first; i < first + 500; i++) {
      text += `${i},`;
      conn.notify({ type: 'message.delta', session_id: 's1', seq: i, payload: { text: `${i},` } });
    }
    conn.notify({
      type: 'message.complete',
      session_id: 's1',
      seq: first + 500,
      payload: {
        text,
        status: 'complete',
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      },
    });
    expect(conn.outboundStats.merged).toBeGreaterThan(0);
    reader.socket.resume();
    await until(() => events.at(-1)?.type === 'message.complete', 'message.complete');
    const deltas = events.filter((e) => e.type === 'message.delta');
    expect(deltas.map((e) => e.payload.text).join('')).toBe(text);
    expect(deltas.at(-1)!.seq).toBe(first + 499);
    expect(deltas.length).toBeLessThan(500);
    const seqs = events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });
});

describe('liveness', () => {
  it('terminates a connection that answers no pings; keeps one that does', async () => {
    const h = await harness({ pingIntervalMs: 50, idleTimeoutMs: 300 });
    const alive = await h.client('alive');
    const mute = new WebSocket(`ws://127.0.0.1:${h.daemon.port}/`, {
      headers: { Authorization: `Bearer ${h.daemon.token}` },
      autoPong: false,
    });
    cleanups.push(() => mute.terminate());
    const muteClosed = new Promise<number>((r) => mute.once('close', (code) => r(code)));
    await new Promise((r) => mute.once('open', r));
    const started = Date.now();
    expect(await muteClosed).toBe(1006);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(alive.isClosed).toBe(false);
    expect((await alive.request('ping')).pong).toBe(true);
  });
});
