import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfIdentity } from '@hermes/client';
import { startTestServer, type TestServer } from '@hermes/client/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DaemonLink } from './daemon-link.js';
import { sendPrompt } from './turn-wait.js';

let root: string;
let daemon: TestServer;
let link: DaemonLink;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'hermes-mcp-turn-'));
  daemon = await startTestServer();
  daemon.handlers.set('session.attach', () => ({ kind: 'snapshot', open_requests: [] }));
  daemon.handlers.set('session.detach', () => ({ ok: true }));
  writeFileSync(
    join(root, 'tui-gateway.json'),
    JSON.stringify({
      ...selfIdentity(),
      port: daemon.port,
      token: daemon.token,
      version: 't',
      epoch: daemon.epoch,
    }),
  );
  link = new DaemonLink({
    root,
    profile: 'default',
    version: '0',
    start: () => Promise.reject(new Error('no start in this test')),
    log: () => undefined,
  });
});
afterEach(async () => {
  await link.close();
  await daemon.close();
  rmSync(root, { recursive: true, force: true });
});

describe('sendPrompt', () => {
  it('without wait: submits only (no attach) and returns the ids', async () => {
    daemon.handlers.set('prompt.submit', () => ({ prompt_id: 'p1', status: 'queued' }));
    expect(await sendPrompt(link, 's1', 'hi', { wait: false, timeoutMs: 1_000 })).toEqual({
      sessionId: 's1',
      promptId: 'p1',
      status: 'queued',
    });
    expect(daemon.conns[0]!.requests.map((r) => r.method)).toEqual(['initialize', 'prompt.submit']);
  });

  it('attaches before submitting, and follows a session compressed mid-turn to its new id', async () => {
    daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('turn.start', 's1', 1, { prompt_id: 'p1', text: 'hi' });
        conn.event('session.compressed', 's1', 2, { session_id: 's2' });
        conn.event('message.complete', 's2', 1, { text: 'after compression', status: 'complete', usage: {} });
        conn.event('turn.end', 's2', 2, { prompt_id: 'p1', status: 'complete' });
      }, 5);
      return { prompt_id: 'p1', status: 'started' };
    });
    const sent = await sendPrompt(link, 's1', 'hi', { wait: true, timeoutMs: 10_000 });
    expect(sent).toEqual({
      sessionId: 's2',
      promptId: 'p1',
      status: 'started',
      outcome: { kind: 'ended', status: 'complete', reply: 'after compression' },
    });
    const methods = daemon.conns[0]!.requests.map((r) => r.method);
    expect(methods.indexOf('session.attach')).toBeLessThan(methods.indexOf('prompt.submit'));
  });

  it('says the connection dropped (the turn may still run) instead of waiting out the timeout', async () => {
    daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('turn.start', 's1', 1, { prompt_id: 'p1', text: 'hi' });
        conn.event('message.delta', 's1', 2, { text: 'half a' });
        setTimeout(() => conn.ws.terminate(), 5);
      }, 5);
      return { prompt_id: 'p1', status: 'started' };
    });
    const sent = await sendPrompt(link, 's1', 'hi', { wait: true, timeoutMs: 60_000 });
    expect(sent.outcome).toEqual({ kind: 'disconnected', reply: 'half a' });
  });

  it('reports a failed turn with the error it ended on', async () => {
    daemon.handlers.set('prompt.submit', (_p, conn) => {
      setTimeout(() => {
        conn.event('turn.start', 's1', 1, { prompt_id: 'p1', text: 'hi' });
        conn.event('error', 's1', 2, { message: 'the model answered 401: bad key' });
        conn.event('turn.end', 's1', 3, { prompt_id: 'p1', status: 'error' });
      }, 5);
      return { prompt_id: 'p1', status: 'started' };
    });
    const sent = await sendPrompt(link, 's1', 'hi', { wait: true, timeoutMs: 10_000 });
    expect(sent.outcome).toEqual({
      kind: 'ended',
      status: 'error',
      reply: '',
      error: 'the model answered 401: bad key',
    });
  });
});
