/**
 * Driving a fake model server that runs in another process (cross-process tests: the daemon or
 * `hermes chat` talks to it over HTTP while the test pushes steps and reads what was recorded).
 *
 * - `spawnFakeModelServer({script})` starts `fake-model-server.ts` as a child process and returns
 *   a handle once it printed its URL.
 * - `connectFakeModelServer(url)` controls any running fake server through its `/__…` routes.
 *
 * Only JSON steps (`StaticStep`) cross the process boundary; for dynamic answers use
 * `{echo: 'last_tool_result' | 'last_user', prefix?}`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FakeModelPricing } from './fake-model-server.js';
import type { RecordedRequest, StaticStep } from './fake-model-wire.js';

/** Control of a fake model server reached over HTTP. */
export interface RemoteFakeModelServer {
  /** Base URL for an OpenAI client, ending in `/v1`. */
  readonly url: string;
  /** Appends steps to the server's queue. */
  push(...steps: StaticStep[]): Promise<void>;
  /** The requests recorded so far. */
  requests(): Promise<RecordedRequest[]>;
  /** Empties the queue and the recorded requests. */
  reset(): Promise<void>;
  /**
   * Polls until at least `n` requests were recorded.
   * @throws Error after `timeoutMs` (default 5000) naming how many arrived.
   */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
}

/** A fake model server child process. */
export interface SpawnedFakeModelServer extends RemoteFakeModelServer {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Stops the child (SIGTERM, then SIGKILL after 2 s) and removes its script file. */
  close(): Promise<void>;
}

/** Controls the fake model server at `url` (its `/v1` base URL). */
export function connectFakeModelServer(url: string): RemoteFakeModelServer {
  const root = url.replace(/\/v1\/?$/, '');
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(root + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`fake model server: ${method} ${path} → HTTP ${res.status}`);
    return res.json() as Promise<unknown>;
  };
  const requests = () => call('GET', '/__requests') as Promise<RecordedRequest[]>;
  return {
    url,
    push: async (...steps) => void (await call('POST', '/__script', steps)),
    requests,
    reset: async () => void (await call('POST', '/__reset')),
    async waitForRequests(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = await requests();
        if (got.length >= n) return got;
        if (Date.now() > deadline) {
          throw new Error(`fake model server: waited ${timeoutMs} ms for ${n} requests, got ${got.length}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

const SERVER_FILE = join(dirname(fileURLToPath(import.meta.url)), 'fake-model-server.ts');
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts the fake model server as a child process (`node --import tsx fake-model-server.ts`).
 * @param opts.script initial steps (JSON forms only); `whenEmpty`, `models` and `pricing` as in-process.
 * @param opts.startTimeoutMs how long to wait for the URL line (default 15000).
 * @throws Error when the child exits or stays silent before printing its URL.
 */
export async function spawnFakeModelServer(
  opts: {
    script?: StaticStep[];
    whenEmpty?: StaticStep;
    models?: string[];
    pricing?: Record<string, FakeModelPricing>;
    startTimeoutMs?: number;
  } = {},
): Promise<SpawnedFakeModelServer> {
  const dir = mkdtempSync(join(tmpdir(), 'fake-model-'));
  const scriptFile = join(dir, 'script.json');
  writeFileSync(
    scriptFile,
    JSON.stringify({
      steps: opts.script ?? [],
      whenEmpty: opts.whenEmpty,
      models: opts.models,
      pricing: opts.pricing,
    }),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_FILE, '--script', scriptFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });

  const info = await new Promise<{ url: string; pid: number }>((resolveStart, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      cleanup();
      reject(new Error(`fake model server: ${why}${stderr ? `\n${stderr}` : ''}`));
    };
    const timer = setTimeout(
      () => fail('no URL line within the start timeout'),
      opts.startTimeoutMs ?? 15_000,
    );
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolveStart(JSON.parse(line) as { url: string; pid: number });
      } catch {
        fail(`unexpected first line ${JSON.stringify(line)}`);
      }
    });
    child.once('exit', (code) => fail(`exited with code ${code} before printing its URL`));
  });

  const remote = connectFakeModelServer(info.url);
  return {
    ...remote,
    pid: info.pid,
    child,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(killer);
      }
      cleanup();
    },
  };
}
