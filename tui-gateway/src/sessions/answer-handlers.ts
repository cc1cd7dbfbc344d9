/**
 * `approval.answer` and `clarify.answer`: a client answers an open request with an ordinary
 * request, whatever showed it the question — a server request, a snapshot's `open_requests`, a
 * replay, a card kept across a re-attach or a `/profile` round trip (new connection id). Any
 * connection attached to the session may answer; the session is looked up in the connection's
 * profile. The request's owner (core/src/approvals/pending.ts) decides, the same way as for a
 * reply to the server request:
 * - first and usable → `{resolved: true, by, choice | answer}`;
 * - settled before (another client, the timeout, an interrupt) or unknown → `-32003` with
 *   `data: {by, choice}` (both null when the daemon does not know the id);
 * - unusable (a choice that was not offered) → the request is denied (clarify: cancelled) by
 *   this answer, the clients get the `error` event (`kind: "request"`) and `request.resolved`,
 *   and the caller `-32602` with the same message (it names the allowed values) and
 *   `data: {by, choice}` (the fail-closed value it was settled with).
 */
import type { BookAnswerOutcome, RequestKind } from '@hermes/core/approvals';
import { RpcErrorCode, type MethodResult } from '@hermes/core/protocol';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import { answererOf } from './open-requests.js';
import type { SessionRegistry } from './session-registry.js';

/** Registers `approval.answer` and `clarify.answer`. */
export function registerAnswerHandlers(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('approval.answer', async (p, conn) => {
    const r = answer(sessions, conn, 'approval', p.session_id, p.request_id, p.choice, p.reason);
    return {
      resolved: true as const,
      by: r.by,
      choice: r.value as MethodResult<'approval.answer'>['choice'],
    };
  });
  rpc.register('clarify.answer', async (p, conn) => {
    const r = answer(sessions, conn, 'clarify', p.session_id, p.request_id, p.answer);
    return { resolved: true as const, by: r.by, answer: r.value as string | null };
  });
}

/** Applies one answer; returns the accepted settlement or throws the error the caller gets. */
function answer(
  sessions: SessionRegistry,
  conn: Connection,
  kind: RequestKind,
  sessionId: string,
  requestId: string,
  raw: unknown,
  reason?: unknown,
): { value: unknown; by: string } {
  const live = sessions.peek(conn.profile, sessionId);
  if (!live || !live.clients.has(conn)) {
    throw new RpcMethodError(
      RpcErrorCode.InvalidParams,
      `session_id: this connection is not attached to session "${sessionId}" in profile ${conn.profile}; ` +
        'session.attach it first',
      { session_id: sessionId },
    );
  }
  const outcome: BookAnswerOutcome = live.answer(kind, requestId, raw, answererOf(conn), reason);
  const what = `${kind} request "${requestId}"`;
  switch (outcome.status) {
    case 'accepted':
      return outcome.settlement;
    case 'resolved': {
      const s = outcome.settlement;
      const how =
        s.how === 'timeout'
          ? 'it timed out'
          : s.how === 'withdrawn'
            ? `it was withdrawn (${s.by})`
            : `it was answered first by ${s.by}`;
      throw new RpcMethodError(
        RpcErrorCode.RequestResolved,
        `${what} is already resolved: ${how}, with ${JSON.stringify(s.value)}`,
        { by: s.by, choice: s.value },
      );
    }
    case 'unknown':
      throw new RpcMethodError(
        RpcErrorCode.RequestResolved,
        `${what} is not open in session ${live.id} (never asked, or resolved long ago)`,
        { by: null, choice: null },
      );
    case 'wrong_kind':
      throw new RpcMethodError(
        RpcErrorCode.InvalidParams,
        `request_id: "${requestId}" is a ${outcome.kind} request; answer it with ${outcome.kind}.answer`,
        { kind: outcome.kind },
      );
    case 'refused': {
      const s = outcome.settlement;
      throw new RpcMethodError(RpcErrorCode.InvalidParams, s.message ?? `${what}: unusable answer`, {
        by: s.by,
        choice: s.value,
      });
    }
  }
}
