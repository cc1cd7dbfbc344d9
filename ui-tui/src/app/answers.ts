/**
 * The TUI's answers to approval and clarify requests. Every answer goes to the daemon as an
 * ordinary request, `approval.answer` / `clarify.answer`, whatever showed the card — a server
 * request, the attach snapshot, a replay, or a card kept across a `/profile` round trip — so an
 * answer never depends on a server request still being pending on this connection. A server
 * request that showed the card is held until then and gets no reply (the daemon drops it once
 * the request is settled).
 *
 * No answer vanishes: the card goes at once, and the transcript then says what happened —
 * `request.resolved` ("✓ Approved once (answered here)"), or for an answer that came too late
 * (`-32003`: another window, the timeout or an interrupt settled it first) the same line worded
 * for whoever won ("answered in another window", "no answer in time"); any other failure is an
 * error line. An answer given while disconnected is kept and sent after the re-attach. A daemon
 * without `approval.answer` (-32601, an older one) gets the answer as the reply to its server
 * request instead, now or when it re-sends the request.
 */
import type { ServerRequestMethod, ServerRequestResult } from '@hermes/core/protocol';
import { DropServerRequest, NotConnectedError, RpcCallError } from '@hermes/client';
import type { DaemonClientLike } from '@hermes/client';
import type { SessionAction } from '../state/session-reducer.js';

/** An answer as the user gave it. */
export type Answer = { kind: 'approval'; choice: string } | { kind: 'clarify'; answer: string | null };

/** What the answers need of the controller. */
export interface AnswersHost {
  readonly client: DaemonClientLike;
  /** The attached session (null when none). */
  sessionId(): string | null;
  dispatch(action: SessionAction): void;
  notice(text: string, tone: 'info' | 'warn' | 'error'): void;
}

/** `-32003`: the request was settled before this answer (or is unknown to the daemon). */
const REQUEST_RESOLVED = -32003;
const METHOD_NOT_FOUND = -32601;
/** Answers remembered for server requests an older daemon re-sends after a reconnect. */
const ANSWERS_KEPT = 50;

interface Held {
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
}

/** The server-request reply of an answer (for a daemon without `approval.answer`). */
function replyOf(a: Answer): { choice: string } | { answer: string | null } {
  return a.kind === 'approval' ? { choice: a.choice } : { answer: a.answer };
}

/** Answers of one TUI. */
export class RequestAnswers {
  /** Server requests that showed a card, held until it is answered or resolved elsewhere. */
  private readonly held = new Map<string, Held>();
  /** Answers given here, by request id (a daemon without `approval.answer` re-sends requests). */
  private readonly given = new Map<string, Answer>();
  /** Answers given while disconnected, sent after the next attach of their session. */
  private unsent: Array<{ requestId: string; sessionId: string; answer: Answer }> = [];
  /** The daemon has no `approval.answer`: answers travel as server-request replies. */
  private legacy = false;

  constructor(private readonly host: AnswersHost) {}

  /**
   * Holds a server request whose card is shown: resolves with the reply only for a daemon
   * without `approval.answer`; otherwise it rejects with `DropServerRequest` (no reply) once
   * the card is answered or resolved elsewhere.
   */
  hold<M extends ServerRequestMethod>(requestId: string): Promise<ServerRequestResult<M>> {
    this.held.get(requestId)?.reject(new DropServerRequest());
    return new Promise((resolve, reject) =>
      this.held.set(requestId, { resolve: resolve as (r: unknown) => void, reject }),
    );
  }

  /**
   * A server request for a card already answered here (re-sent after a reconnect): the reply
   * for a daemon without `approval.answer`, else `DropServerRequest` (the answer went by request).
   * Undefined when this client has not answered it.
   */
  replyFor(requestId: string): ServerRequestResult<ServerRequestMethod> | DropServerRequest | undefined {
    const a = this.given.get(requestId);
    if (!a) return undefined;
    return this.legacy ? (replyOf(a) as ServerRequestResult<ServerRequestMethod>) : new DropServerRequest();
  }

  /** The user answered: the card goes, the daemon is told, and what happened is shown. */
  answer(requestId: string, a: Answer): void {
    this.given.set(requestId, a);
    if (this.given.size > ANSWERS_KEPT) this.given.delete(this.given.keys().next().value!);
    this.host.dispatch({ type: 'request.answered', requestId });
    const sessionId = this.host.sessionId();
    if (!sessionId) return this.drop(requestId);
    void this.send(requestId, sessionId, a);
  }

  /** `request.resolved` arrived: a held server request gets no reply. */
  resolved(requestId: string): void {
    this.drop(requestId);
  }

  /** Sends the answers given while disconnected (after an attach of their session). */
  async flush(): Promise<void> {
    const sessionId = this.host.sessionId();
    if (this.unsent.length === 0 || !sessionId || this.host.client.state !== 'connected') return;
    const pending = this.unsent;
    this.unsent = [];
    for (const u of pending) {
      if (u.sessionId !== sessionId) {
        this.host.notice(
          `Your answer to a request of session ${u.sessionId} was not sent: that session is no longer open here.`,
          'warn',
        );
        continue;
      }
      this.host.dispatch({ type: 'request.answered', requestId: u.requestId }); // the snapshot re-listed it
      await this.send(u.requestId, u.sessionId, u.answer);
    }
  }

  /** Drops every held server request (another session or profile; dispose). */
  dropAll(): void {
    for (const id of [...this.held.keys()]) this.drop(id);
  }

  private async send(requestId: string, sessionId: string, a: Answer): Promise<void> {
    if (this.legacy) return this.reply(requestId, a);
    const { client } = this.host;
    try {
      if (a.kind === 'approval') {
        await client.request('approval.answer', {
          session_id: sessionId,
          request_id: requestId,
          choice: a.choice,
        });
      } else {
        await client.request('clarify.answer', {
          session_id: sessionId,
          request_id: requestId,
          answer: a.answer,
        });
      }
      this.drop(requestId); // `request.resolved` says it here
    } catch (err) {
      this.failed(requestId, sessionId, a, err);
    }
  }

  private failed(requestId: string, sessionId: string, a: Answer, err: unknown): void {
    if (err instanceof NotConnectedError) {
      this.unsent.push({ requestId, sessionId, answer: a });
      this.host.notice('Not connected: your answer will be sent after reconnecting.', 'warn');
      return;
    }
    if (err instanceof RpcCallError && err.code === METHOD_NOT_FOUND) {
      this.legacy = true; // an older daemon: the server request's reply carries it
      return this.reply(requestId, a);
    }
    this.drop(requestId);
    if (err instanceof RpcCallError && err.code === REQUEST_RESOLVED) {
      const data = (err.data ?? {}) as { by?: unknown; choice?: unknown };
      if (typeof data.by === 'string') {
        this.host.dispatch({
          type: 'request.settled',
          requestId,
          kind: a.kind,
          choice: data.choice,
          by: data.by,
        });
      } else {
        this.host.notice('That request is no longer open: your answer was not used.', 'warn');
      }
      return;
    }
    const what = a.kind === 'approval' ? 'approval' : 'answer';
    this.host.notice(
      `Your ${what} was not accepted: ${err instanceof Error ? err.message : String(err)}`,
      'error',
    );
  }

  /** Answers through the held server request (a daemon without `approval.answer`). */
  private reply(requestId: string, a: Answer): void {
    const h = this.held.get(requestId);
    this.held.delete(requestId);
    h?.resolve(replyOf(a)); // none held: the daemon re-sends it on re-attach, `replyFor` answers
  }

  private drop(requestId: string): void {
    const h = this.held.get(requestId);
    this.held.delete(requestId);
    h?.reject(new DropServerRequest());
  }
}
