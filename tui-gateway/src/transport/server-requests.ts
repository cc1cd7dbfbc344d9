/**
 * Pending server requests of one connection (daemon → client
 * JSON-RPC requests with ids `srq-…`). Answers are matched by id and handed on as the client sent
 * them: whether a `result` is usable is decided by the request's owner (`answerReply` in core's
 * approvals/pending.ts), the one place answers are checked. Everything pending is rejected when
 * the connection closes, and one request when its AbortSignal fires.
 */
import {
  SERVER_REQUEST_ID_PREFIX,
  type RpcError,
  type RpcId,
  type ServerRequestMethod,
} from '@hermes/core/protocol';
import { RpcFailureError } from '../rpc/errors.js';

let counter = 0;

/** Next server request id, unique in this process: `srq-1`, `srq-2`, … */
export function nextServerRequestId(): string {
  counter += 1;
  return `${SERVER_REQUEST_ID_PREFIX}${counter}`;
}

interface Pending {
  method: ServerRequestMethod;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  cleanup: () => void;
}

/** The requests one connection sent and not yet got answers for. */
export class PendingServerRequests {
  private readonly pending = new Map<string, Pending>();
  private closedError: Error | undefined;

  /** @param label names the connection in error messages, e.g. `connection c-1`. */
  constructor(private readonly label: string) {}

  /** Requests still waiting. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Registers a request about to be sent.
   * @returns the promise of its result, unchecked. Rejects with RpcFailureError when the client
   *   answers an error, with an Error when the connection closes first, and with the signal's
   *   reason (or an AbortError) when `signal` aborts.
   */
  add(id: string, method: ServerRequestMethod, signal?: AbortSignal): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    if (signal?.aborted) return Promise.reject(abortReason(signal, method, id));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (this.pending.delete(id)) reject(abortReason(signal!, method, id));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
    });
  }

  /**
   * Settles the request an answer refers to.
   * @returns false when no request with that id is pending (late, duplicate or unknown answer).
   */
  settle(id: RpcId, result: unknown, error?: RpcError): boolean {
    if (typeof id !== 'string') return false;
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.cleanup();
    if (error) entry.reject(new RpcFailureError(error.code, error.message, error.data));
    else entry.resolve(result);
    return true;
  }

  /** Forgets a request whose frame could not be sent, rejecting it with `err`. */
  fail(id: string, err: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.cleanup();
    entry.reject(err);
  }

  /** Rejects everything pending and every later `add` (connection closed). */
  closeAll(reason: string): void {
    this.closedError ??= new Error(`${this.label} closed: ${reason}`);
    for (const [id, entry] of this.pending) {
      entry.cleanup();
      entry.reject(new Error(`${this.label} closed before answering ${entry.method} ${id}: ${reason}`));
    }
    this.pending.clear();
  }
}

function abortReason(signal: AbortSignal, method: string, id: string): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const err = new Error(`${method} ${id} aborted`);
  err.name = 'AbortError';
  return err;
}
