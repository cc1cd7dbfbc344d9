/**
 * Server requests of one session across clients (DESIGN §5 "Server requests", issue 3 "Approvals
 * across clients"): sent to every attached client that declared the capability, and to clients
 * that attach later; the first answer wins; everyone then gets `request.resolved`; no answer
 * before the deadline → the fail-closed default (deny / cancelled). Interrupt resolves them too.
 *
 * Decision (docs/protocol.md "Server requests"): a client that answers with a JSON-RPC error or
 * with an answer that is not allowed (an approval `choice` that was not among the offered
 * `choices` — exact, lower-case, no spaces — or a result of the wrong shape) has answered: the
 * request is settled at once with the fail-closed answer (deny / cancelled), like an explicit
 * deny, and the session's clients get an `error` event (`kind: "request"`) naming the request,
 * what was wrong and the allowed values. It is not kept open for a better answer: a client that
 * sent garbage would otherwise leave the command waiting for the whole `approvals.timeout`.
 * A client that closes its connection without answering has not answered: others still can.
 */
import { randomBytes } from 'node:crypto';
import type { OpenRequest, ServerRequestMethod } from '@hermes/core/protocol';
import { RpcFailureError } from '../rpc/errors.js';
import type { Connection } from '../rpc/types.js';

type Kind = 'approval' | 'clarify';
const METHOD: Record<Kind, ServerRequestMethod> = {
  approval: 'approval.request',
  clarify: 'clarify.request',
};

interface Pending {
  open: OpenRequest;
  /** Per-connection abort of the outstanding server request. */
  sent: Map<Connection, AbortController>;
  settle: (answer: unknown, by: string) => void;
  timer: NodeJS.Timeout;
}

/** What resolving a request tells the session (for its `request.resolved` event). */
export type ResolvedListener = (requestId: string, answer: string | null, by: string) => void;

/** Told when a client's answer was refused (then the request is settled fail-closed). */
export type InvalidAnswerListener = (message: string) => void;

/** The open server requests of one session. */
export class OpenRequests {
  private readonly pending = new Map<string, Pending>();

  constructor(
    /** The session's current id (it changes when compression continues in a child session). */
    private readonly sessionId: () => string,
    private readonly clients: () => Iterable<Connection>,
    private readonly onResolved: ResolvedListener,
    private readonly now: () => number = Date.now,
    private readonly onInvalidAnswer: InvalidAnswerListener = () => {},
  ) {}

  /** The still-open requests, oldest first (for snapshots). */
  list(): OpenRequest[] {
    return [...this.pending.values()].map((p) => p.open);
  }

  /**
   * Opens a request and waits for the first answer.
   * @param params the server request params without `session_id`/`request_id`/`expires_at`.
   * @param timeoutMs after this, resolves with `fallback` (by `timeout`).
   * @param signal the asker withdrew the question: resolves with `fallback`, by `abortedBy()`.
   * @param abortedBy names why `signal` fired (default `interrupt`); the agent's approval guard
   *   also withdraws a question when its own `approvals.timeout` runs out (then: `timeout`).
   * @returns the winning answer (`choice` for approvals, `answer` for clarify) or `fallback`.
   */
  ask(
    kind: Kind,
    params: Record<string, unknown>,
    timeoutMs: number,
    fallback: string | null,
    signal?: AbortSignal,
    abortedBy: () => string = () => 'interrupt',
  ): Promise<string | null> {
    return this.askWho(kind, params, timeoutMs, fallback, signal, abortedBy).then((r) => r.answer);
  }

  /** `ask`, resolving also with who answered (the `by` of `request.resolved`). */
  askWho(
    kind: Kind,
    params: Record<string, unknown>,
    timeoutMs: number,
    fallback: string | null,
    signal?: AbortSignal,
    abortedBy: () => string = () => 'interrupt',
  ): Promise<{ answer: string | null; by: string }> {
    const requestId = `${kind}-${randomBytes(6).toString('hex')}`;
    const created = this.now();
    const open: OpenRequest = {
      request_id: requestId,
      kind,
      params: {
        ...params,
        session_id: this.sessionId(),
        request_id: requestId,
        expires_at: created + timeoutMs,
      },
      created_at: created,
      expires_at: created + timeoutMs,
    };
    return new Promise<{ answer: string | null; by: string }>((resolve) => {
      const settle = (answer: unknown, by: string): void => {
        const p = this.pending.get(requestId);
        if (!p) return; // already settled: a late answer is ignored
        this.pending.delete(requestId);
        clearTimeout(p.timer);
        signal?.removeEventListener('abort', onAbort);
        for (const ctl of p.sent.values()) ctl.abort();
        const value = answer === undefined ? fallback : (answer as string | null);
        this.onResolved(requestId, value, by);
        resolve({ answer: value, by });
      };
      const onAbort = (): void => settle(fallback, abortedBy());
      const timer = setTimeout(() => settle(fallback, 'timeout'), timeoutMs);
      timer.unref?.();
      this.pending.set(requestId, { open, sent: new Map(), settle, timer });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      for (const conn of this.clients()) this.sendTo(conn);
    });
  }

  /** Sends every open request this connection has not been sent yet (used on attach). */
  sendOpenTo(conn: Connection): void {
    for (const p of this.pending.values()) if (!p.sent.has(conn)) this.sendTo(conn, p);
  }

  /** Forgets a connection's outstanding requests (on detach/close). */
  dropConnection(conn: Connection): void {
    for (const p of this.pending.values()) {
      p.sent.get(conn)?.abort();
      p.sent.delete(conn);
    }
  }

  /** Settles every open request with its fallback (shutdown). */
  cancelAll(by: string): void {
    for (const p of [...this.pending.values()]) p.settle(undefined, by);
  }

  /** Settles `p` fail-closed because `conn` answered something unusable, and says so. */
  private refuse(p: Pending, conn: Connection, what: string): void {
    if (!this.pending.has(p.open.request_id)) return; // settled meanwhile: nothing to refuse
    const kind = p.open.kind;
    const allowed =
      kind === 'approval'
        ? `allowed: ${((p.open.params.choices as string[] | undefined) ?? []).map((c) => `"${c}"`).join(', ')}`
        : 'allowed: {"answer": <text>} or {"answer": null} to cancel';
    const outcome = kind === 'approval' ? 'the command was denied' : 'the question was cancelled';
    this.onInvalidAnswer(
      `${METHOD[kind]} ${p.open.request_id}: connection ${conn.id} gave no usable answer (${what}; ` +
        `${allowed}): ${outcome}`,
    );
    p.settle(undefined, `connection:${conn.id}`);
  }

  private sendTo(conn: Connection, only?: Pending): void {
    const targets = only ? [only] : [...this.pending.values()];
    for (const p of targets) {
      const kind = p.open.kind;
      if (conn.closed || p.sent.has(conn)) continue;
      if (kind === 'approval' && !conn.capabilities.approvals) continue;
      if (kind === 'clarify' && !conn.capabilities.clarify) continue;
      const ctl = new AbortController();
      p.sent.set(conn, ctl);
      conn
        .request(METHOD[kind], p.open.params as never, ctl.signal)
        .then((result) => {
          const r = result as { choice?: string; answer?: string | null };
          if (kind === 'clarify') return p.settle(r.answer, `connection:${conn.id}`);
          const offered = (p.open.params.choices as string[] | undefined) ?? [];
          if (typeof r.choice === 'string' && offered.includes(r.choice))
            return p.settle(r.choice, `connection:${conn.id}`);
          this.refuse(p, conn, `the choice ${JSON.stringify(r.choice)} was not offered`);
        })
        .catch((err: unknown) => {
          p.sent.delete(conn);
          // a JSON-RPC error or a result of the wrong shape is an answer, and not a usable one
          if (err instanceof RpcFailureError) this.refuse(p, conn, `${err.message} [${err.code}]`);
          // else the client closed or the request was withdrawn: others may still answer
        });
    }
  }
}
