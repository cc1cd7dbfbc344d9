/**
 * The API server stays bounded under a stateless client (the real daemon, the `openai` package
 * as the client): requests without a conversation leave no live or stored session behind, so the
 * daemon's live-session count and RSS stay flat over 1,000 of them; named conversations are held
 * to `max_live_sessions` (least recently used unloaded first); a streaming client that
 * disconnects interrupts its turn. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { aliveDiscovery } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { freePort } from './support/ngircd.js';
import { gatewayStatus, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

const KEY = 'test-key-0123456789abcdef';
const MIB = 1024 * 1024;
let model: FakeModelServer;
let root: string;
let client: OpenAI;
let pid: number;

const liveSessions = async (): Promise<number> =>
  ((await gatewayStatus(root)) as { sessions_live: number }).sessions_live;

function rss(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

function apiSessions(): Array<{ id: string; state: string }> {
  const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
  try {
    return db.listSessions({ source: 'api_server', limit: 10_000 });
  } finally {
    db.close();
  }
}

async function waitFor<T>(
  f: () => Promise<T> | T,
  ok: (v: T) => boolean,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  model = await startFakeModelServer();
  const port = await freePort();
  root = makeTestHome({
    modelUrl: model.url,
    env: `API_SERVER_KEY=${KEY}\n`,
    config: [
      'platforms:',
      '  api_server:',
      '    enabled: true',
      `    port: ${port}`,
      '    max_live_sessions: 3',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'api_server', 'the API server to listen');
  pid = aliveDiscovery(root)!.pid;
  client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await model?.close();
});

describe('api_server bounds', () => {
  it('1,000 requests without a conversation: live sessions and RSS stay flat, nothing stored', async () => {
    const base = await liveSessions();
    const ask = async (i: number): Promise<void> => {
      const r = await client.chat.completions.create({
        model: 'hermes-agent',
        messages: [{ role: 'user', content: `one-off ${i}` }],
      });
      expect(r.choices[0]!.message.content).toBe('OK');
    };
    const run = async (from: number, to: number): Promise<void> => {
      let next = from;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < to) await ask(next++);
        }),
      );
    };
    const started = Date.now();
    await run(0, 100); // warm-up: caches, JIT, sqlite pages
    const live100 = await liveSessions();
    const rss100 = rss();
    await run(100, 1000);
    const live1000 = await liveSessions();
    const rss1000 = rss();
    const stored = apiSessions().length;
    console.log(
      `api one-offs: live sessions ${base} → ${live100} (100) → ${live1000} (1000); daemon RSS ` +
        `${(rss100 / MIB).toFixed(1)} MiB (100) → ${(rss1000 / MIB).toFixed(1)} MiB (1000); ` +
        `stored api sessions ${stored}; ${Date.now() - started} ms`,
    );
    expect(live100).toBe(base);
    expect(live1000).toBe(base);
    expect(stored).toBe(0);
    // the 900 live sessions kept before cost ~350 KB each (~300 MiB); what is left is the heap
    // settling (seen here: +13 to +47 MiB idle, flat from 1,000 to 3,000 requests; up to +103 MiB
    // while other test files load both cores and collection lags behind)
    expect(rss1000 - rss100).toBeLessThan(160 * MIB);
  }, 120_000); // ~15 s on an idle machine; the margin is for a loaded one

  it('named conversations are held to max_live_sessions (3)', async () => {
    const base = await liveSessions();
    for (let i = 0; i < 6; i++) {
      await client.chat.completions.create(
        { model: 'hermes-agent', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'X-Hermes-Session-Id': `conv-${i}` } },
      );
    }
    const live = await waitFor(liveSessions, (n) => n <= base + 3, 3000, 'the LRU cap');
    expect(live).toBe(base + 3);
    expect(apiSessions()).toHaveLength(6); // named conversations are stored
  }, 30_000);

  it('a streaming client that disconnects interrupts its turn', async () => {
    model.push({ text: 'this answer never ends ', chunkSize: 4, hang: true });
    const abort = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'go on forever' }], stream: true },
      { signal: abort.signal, headers: { 'X-Hermes-Session-Id': 'conv-stop' } },
    );
    let got = '';
    try {
      for await (const c of stream) {
        got += c.choices[0]?.delta?.content ?? '';
        if (got.length >= 8) abort.abort();
      }
    } catch {
      /* aborted */
    }
    expect(got.length).toBeGreaterThanOrEqual(8);
    const stopped = await waitFor(
      () => {
        const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
        try {
          return db.listSessions({ source: 'api_server', limit: 100 }).map((s) => s.state);
        } finally {
          db.close();
        }
      },
      (states) => states.includes('interrupted'),
      5000,
      'the turn to be interrupted',
    );
    expect(stopped).toContain('interrupted');
    // the conversation is free again: the next request is answered
    const next = await client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'still there?' }] },
      { headers: { 'X-Hermes-Session-Id': 'conv-stop' } },
    );
    expect(next.choices[0]!.message.content).toBe('OK');
  }, 30_000);

  it('a one-off streaming client that disconnects: its turn ends and its session is gone', async () => {
    const base = await liveSessions();
    const storedBefore = apiSessions().length;
    model.push({ text: 'this answer never ends either ', chunkSize: 4, hang: true });
    const abort = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'hermes-agent', messages: [{ role: 'user', content: 'go on' }], stream: true },
      { signal: abort.signal },
    );
    try {
      for await (const c of stream) if (c.choices[0]?.delta?.content) abort.abort();
    } catch {
      /* aborted */
    }
    // the session is released only after its turn ended: a turn still running would keep it
    await waitFor(liveSessions, (n) => n === base, 5000, 'the one-off session to be released');
    expect(apiSessions()).toHaveLength(storedBefore);
  }, 30_000);
});
