/**
 * Server requests of one session across clients: every open
 * approval and clarify request is sent to every attached client that declared the capability,
 * and to clients that attach later; everyone gets `request.resolved` when it settles.
 *
 * The request itself — its deadline, its answer rule, first answer wins — is owned by
 * `PendingRequest` (core/src/approvals/pending.ts); an approval's comes from the guard, which
 * opened it. This file only fans it out and routes answers to it: a reply to the server request
 * (`answerReply`, or `refuse` for a JSON-RPC error reply) and the `approval.answer` /
 * `clarify.answer` methods (`answer`). A client that closes its connection without answering has
 * not answered: the others still can. An unusable answer settles the request fail closed, and
 * the session's clients get an `error` event (`kind: "request"`) saying why, before
 * `request.resolved` (docs/protocol.md "Server requests").
 */
import {
  RequestBook,
  type BookAnswerOutcome,
  type PendingRequest,
  type RequestKind,
  type Settlement,
  type ApprovalAnswer,
  type ApprovalRequest,
} from '@hermes/core/approvals';
import type { OpenRequest, ServerRequestMethod } from '@hermes/core/protocol';
import type { ClarifyCallback } from '@hermes/core/tools';
import { RpcFailureError } from '../rpc/errors.js';
import type { Connection } from '../rpc/types.js';

const METHOD: Record<RequestKind, ServerRequestMethod> = {
  approval: 'approval.request',
  clarify: 'clarify.request',
};

/** What resolving a request tells the session (for its `request.resolved` event). */
export type ResolvedListener = (
  requestId: string,
  kind: RequestKind,
  answer: string | null,
  by: string,
) => void;

/** Told when a client's answer was refused (then the request is settled fail-closed). */
export type InvalidAnswerListener = (message: string) => void;

/**
 * How `request.resolved` and stored outcomes name a client's answer: `client:<instance_id>` when
 * the connection sent a stable instance id at `initialize` (the same across its reconnects and
 * `/profile` switches), else `connection:<id>`.
 */
export function answererOf(conn: Pick<Connection, 'id' | 'instanceId'>): string {
  return conn.instanceId ? `client:${conn.instanceId}` : `connection:${conn.id}`;
}

interface Shown {
  request: PendingRequest;
  open: OpenRequest;
  /** Per-connection abort of the outstanding server request. */
  sent: Map<Connection, AbortController>;
}

/** The open server requests of one session. */
export class OpenRequests {
  private readonly shown = new Map<string, Shown>();
  private readonly book: RequestBook;

  constructor(
    /** The session's current id (it changes when compression continues in a child session). */
    private readonly sessionId: () => string,
    private readonly clients: () => Iterable<Connection>,
    private readonly onResolved: ResolvedListener,
    private readonly now: () => number = Date.now,
    private readonly onInvalidAnswer: InvalidAnswerListener = () => {},
    /** Told after a request was filed and sent (the status feed; must not throw). */
    private readonly onShown: (open: OpenRequest) => void = () => {},
  ) {
    this.book = new RequestBook({ onSettled: (r, s) => this.settled(r, s) });
  }

  /** The still-open requests, oldest first (for snapshots). */
  list(): OpenRequest[] {
    return [...this.shown.values()].map((s) => s.open);
  }

  /**
   * Shows a request to the clients and resolves with its settlement.
   * @param request the guard's request (it owns the deadline and the answer rule).
   * @param params the server request params without `session_id`/`request_id`/`kind`/`expires_at`.
   */
  present<K extends RequestKind>(
    request: PendingRequest<K>,
    params: Record<string, unknown>,
  ): Promise<Settlement<K>> {
    this.show(request, params);
    this.book.add(request);
    return request.settled;
  }

  /**
   * Opens a request here and shows it (clarify questions, and approvals asked without the
   * guard's request).
   * @param timeoutMs no answer within it → the fail-closed answer by `timeout`.
   * @param signal aborting it withdraws the question (by `interrupt`).
   */
  open<K extends RequestKind>(
    kind: K,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Settlement<K>> {
    const choices = Array.isArray(params.choices) ? (params.choices as string[]) : undefined;
    const request = this.book.open({
      kind,
      timeoutMs,
      now: this.now,
      ...(choices ? { choices } : {}),
      ...(signal ? { signal } : {}),
    });
    this.show(request, params);
    return request.settled;
  }

  /**
   * The agent's approval callback: shows the guard's request (it owns the deadline,
   * `approvals.timeout`, and the answer rule), or without one (a caller other than the guard)
   * opens it here with `timeoutMs`. Resolves with the settlement; its `by` goes into the tool
   * call's stored outcome (history shows who answered).
   */
  async askApproval(
    req: ApprovalRequest,
    signal: AbortSignal,
    pending: PendingRequest<'approval'> | undefined,
    timeoutMs: number,
  ): Promise<ApprovalAnswer> {
    const params = {
      command: req.command,
      description: req.description,
      choices: [...req.choices],
      // what session/always would store (the card shows it); absent from a request without one
      ...(req.allows ? { allows: [...req.allows] } : {}),
      // a file edit (approvals.edits: ask): the diff card shows it
      ...(req.edit ? { edit: { ...req.edit } } : {}),
    };
    const s = pending
      ? await this.present(pending, params)
      : await this.open('approval', params, timeoutMs, signal);
    return { choice: s.value, by: s.by, ...(s.reason ? { reason: s.reason } : {}) };
  }

  /** The agent's clarify callback: a question opened here; no answer in `timeoutMs` cancels it. */
  async askClarify(
    q: Parameters<ClarifyCallback>[0],
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<string> {
    const params = { question: q.question, ...(q.choices ? { choices: q.choices } : {}) };
    const s = await this.open('clarify', params, timeoutMs, signal);
    if (s.value === null) throw new Error('The user did not answer the question (cancelled or timed out).');
    return s.value;
  }

  /**
   * An answer through `approval.answer` / `clarify.answer` (see `RequestBook.answer`).
   * @param by the answerer's label (`answererOf`).
   */
  answer(
    kind: RequestKind,
    requestId: string,
    raw: unknown,
    by: string,
    reason?: unknown,
  ): BookAnswerOutcome {
    return this.book.answer(requestId, kind, raw, by, reason);
  }

  /** Sends every open request this connection has not been sent yet (used on attach). */
  sendOpenTo(conn: Connection): void {
    this.sendTo(conn);
  }

  /** Forgets a connection's outstanding requests (on detach/close). */
  dropConnection(conn: Connection): void {
    for (const s of this.shown.values()) {
      s.sent.get(conn)?.abort();
      s.sent.delete(conn);
    }
  }

  /** Settles every open request with its fail-closed answer (interrupt, unload). */
  cancelAll(by: string): void {
    this.book.withdrawAll(by);
  }

  /** Files a still-open request for snapshots and sends it to every client that can answer. */
  private show(request: PendingRequest, params: Record<string, unknown>): void {
    if (request.settlement) return; // withdrawn before it could be shown
    const open: OpenRequest = {
      request_id: request.id,
      kind: request.kind,
      params: {
        ...params,
        session_id: this.sessionId(),
        request_id: request.id,
        kind: request.kind,
        expires_at: request.expiresAt,
      },
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    };
    this.shown.set(request.id, { request, open, sent: new Map() });
    for (const conn of this.clients()) this.sendTo(conn);
    this.onShown(open);
  }

  private settled(request: PendingRequest, s: Settlement): void {
    const shown = this.shown.get(request.id);
    if (!shown) return; // settled before it was shown: nobody saw it
    this.shown.delete(request.id);
    for (const ctl of shown.sent.values()) ctl.abort();
    // an unusable answer denies; every client learns why, before `request.resolved`
    if (s.how === 'refused' && s.message) this.onInvalidAnswer(s.message);
    this.onResolved(request.id, request.kind, s.value, s.by);
  }

  private sendTo(conn: Connection): void {
    for (const s of this.shown.values()) {
      const { request, open } = s;
      if (conn.closed || s.sent.has(conn) || request.settlement) continue;
      if (request.kind === 'approval' && !conn.capabilities.approvals) continue;
      if (request.kind === 'clarify' && !conn.capabilities.clarify) continue;
      const ctl = new AbortController();
      s.sent.set(conn, ctl);
      const by = answererOf(conn);
      conn
        .request(METHOD[request.kind], open.params as never, ctl.signal)
        .then((result) => void request.answerReply(result, by))
        .catch((err: unknown) => {
          s.sent.delete(conn);
          // a JSON-RPC error reply is an answer, and not a usable one
          if (err instanceof RpcFailureError) request.refuse(by, `${err.message} [${err.code}]`);
          // else the client closed or the request was withdrawn: others may still answer
        });
    }
  }
}
