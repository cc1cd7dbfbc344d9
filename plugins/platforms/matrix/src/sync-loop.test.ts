import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MatrixClient } from 'matrix-js-sdk';
import type { SyncResponse } from './sdk.js';
import { syncLoop, type SyncLoopOptions } from './sync-loop.js';
import { SyncStateFile } from './sync-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A client whose /sync answers come from `answers` in turn (an Error is thrown), recording each `since`. */
function client(answers: (SyncResponse | Error)[], asked: (string | undefined)[]): MatrixClient {
  return {
    http: {
      authedRequest: (
        _m: unknown,
        _p: string,
        q: { since?: string },
        _b: unknown,
        o: { abortSignal?: AbortSignal },
      ) => {
        asked.push(q.since);
        const a = answers.shift();
        // no answer left: the long poll of a quiet room, until the loop is stopped
        if (!a)
          return new Promise((_, reject) =>
            o.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
          );
        return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
      },
    },
  } as unknown as MatrixClient;
}

function options(c: MatrixClient, over: Partial<SyncLoopOptions>): SyncLoopOptions {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-matrix-sync-'));
  dirs.push(dir);
  return {
    client: c,
    state: new SyncStateFile(join(dir, 'matrix.json')),
    filter: 'f',
    timeoutMs: 1,
    retryBaseMs: 1,
    handle: () => Promise.resolve(undefined),
    fatal: () => undefined,
    log: () => undefined,
    ...over,
  };
}

/** Waits until `cond` holds (deadline 2 s). */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 2_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('syncLoop', () => {
  it('stores the position only once every message of a batch was taken; a batch not taken comes again', async () => {
    const asked: (string | undefined)[] = [];
    const c = client([{ next_batch: 'b1' } as SyncResponse, { next_batch: 'b1' } as SyncResponse], asked);
    let calls = 0;
    const o = options(c, { handle: () => Promise.resolve(calls++ === 0 ? 'busy' : undefined) });
    const stop = new AbortController();
    const loop = syncLoop(o, 'b0', stop.signal);
    await until(() => asked.length >= 3);
    stop.abort();
    await loop;
    expect(asked.slice(0, 3)).toEqual(['b0', 'b0', 'b1']);
    expect(o.state.load().since).toBe('b1');
  });

  it('a refused token is fatal and ends the loop', async () => {
    const fatal: Error[] = [];
    const c = client([Object.assign(new Error('unknown token'), { httpStatus: 401 })], []);
    await syncLoop(options(c, { fatal: (e) => fatal.push(e) }), 'b0', new AbortController().signal);
    expect(fatal.map((e) => e.message)).toEqual(['the access token was refused (401)']);
  });
});
