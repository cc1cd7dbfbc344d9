/**
 * The Matrix adapter's own /sync long-poll: one request at a time from the stored `since` token
 * (sync-state.ts), the position stored only once the pipeline took every message of a batch (a
 * batch with a message not taken is fetched again), failures retried after a wait doubling from
 * `retryBaseMs` to 60 s (or the server's `retry_after_ms`), and a refused access token reported
 * as fatal (the adapter host reconnects).
 */
import { Method, type MatrixClient } from 'matrix-js-sdk';
import type { RequestOpts, SyncResponse } from './sdk.js';
import type { SyncStateFile } from './sync-state.js';

/**
 * One /sync request.
 * @param since the position to sync from; undefined: the first sync of a new bot.
 * @param timeoutMs the server's long-poll wait; the request gives up 20 s after it.
 */
export function syncOnce(
  client: MatrixClient,
  since: string | undefined,
  filter: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SyncResponse> {
  return client.http.authedRequest<SyncResponse>(
    Method.Get,
    '/sync',
    { filter, timeout: String(timeoutMs), ...(since ? { since } : {}) },
    undefined,
    { localTimeoutMs: timeoutMs + 20_000, ...(signal ? { abortSignal: signal } : {}) } as RequestOpts,
  );
}

/** Stores the sync position; a failure is logged (the batch may then come again after a restart). */
export function saveSince(state: SyncStateFile, since: string, log: (line: string) => void): void {
  try {
    state.save({ ...state.load(), since });
  } catch (err) {
    log(`cannot store the sync position: ${(err as Error).message}`);
  }
}

/** What the loop runs with. */
export interface SyncLoopOptions {
  client: MatrixClient;
  state: SyncStateFile;
  filter: string;
  /** Long-poll timeout of /sync, ms. */
  timeoutMs: number;
  /** First wait after a failed /sync, ms (doubling up to 60 s). */
  retryBaseMs: number;
  /** Handles one batch. @returns why a message could not be taken, or undefined. */
  handle(res: SyncResponse): Promise<string | undefined>;
  /** The access token was refused: the loop ends. */
  fatal(err: Error): void;
  log(line: string): void;
}

/** Syncs from `since` until `signal` aborts or the token is refused (see the file comment). */
export async function syncLoop(o: SyncLoopOptions, since: string, signal: AbortSignal): Promise<void> {
  const first = o.retryBaseMs;
  let backoff = first;
  while (!signal.aborted) {
    try {
      const res = await syncOnce(o.client, since, o.filter, o.timeoutMs, signal);
      backoff = first;
      const notTaken = await o.handle(res);
      // the position moves on only once every message of the batch was taken
      if (notTaken !== undefined) throw new Error(`a message was not taken (${notTaken})`);
      since = res.next_batch;
      saveSince(o.state, since, o.log);
    } catch (err) {
      if (signal.aborted) return;
      const e = err as {
        httpStatus?: number;
        errcode?: string;
        message: string;
        data?: { retry_after_ms?: number };
      };
      if (e.httpStatus === 401 || e.errcode === 'M_UNKNOWN_TOKEN') {
        o.fatal(new Error('the access token was refused (401)'));
        return;
      }
      const wait = e.data?.retry_after_ms ?? backoff;
      o.log(`sync failed (${e.message}); again in ${wait} ms`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, wait);
        signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
      });
      backoff = Math.min(backoff * 2, 60_000);
    }
  }
}
