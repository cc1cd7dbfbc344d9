/**
 * One prompt sent through the daemon and, when asked, followed until its turn ends: the session
 * is attached first (no event of the turn is missed), the prompt submitted, and the events of the
 * session read until the turn of that prompt ends, asks for an approval, or the time is up. The
 * turn is never interrupted here: it goes on in the daemon whatever the caller does next.
 */
import type { WireEvent } from '@hermes/core/protocol';
import type { AskedApproval, DaemonLink } from './daemon-link.js';

/** How following a turn ended. */
export type TurnOutcome =
  /** The turn ended: `status` as in `turn.end` (`complete`, `interrupted`, `error` …). */
  | { kind: 'ended'; status: string; reply: string; error?: string }
  /** The turn waits for an answer to this approval. */
  | { kind: 'approval'; approval: AskedApproval; reply: string }
  /** `timeoutMs` passed first; `reply` is the text streamed so far. */
  | { kind: 'timeout'; reply: string }
  /** The connection to the daemon dropped. */
  | { kind: 'disconnected'; reply: string };

/** What `sendPrompt` returns. */
export interface SentPrompt {
  /** The session's id (a compressed session continues under a new id: that one). */
  sessionId: string;
  promptId: string;
  /** `queued`: behind the running turn of the session. */
  status: 'started' | 'queued';
  /** Absent without `wait`. */
  outcome?: TurnOutcome;
}

/**
 * Submits `text` to `sessionId`; with `wait`, follows the turn for at most `timeoutMs`.
 * @throws RpcCallError from `session.attach` / `prompt.submit` (unknown session, shutting down).
 */
export async function sendPrompt(
  link: DaemonLink,
  sessionId: string,
  text: string,
  opts: { wait: boolean; timeoutMs: number },
): Promise<SentPrompt> {
  const c = await link.client();
  if (!opts.wait) {
    const r = await c.request('prompt.submit', { session_id: sessionId, text });
    return { sessionId, promptId: r.prompt_id, status: r.status };
  }
  const held = await link.hold(sessionId);
  const ids = new Set([sessionId]);
  let current = sessionId;
  let promptId: string | undefined;
  let mine = false;
  let reply = '';
  let streamed = '';
  let lastError: string | undefined;
  let finish!: (o: TurnOutcome) => void;
  const done = new Promise<TurnOutcome>((resolve) => (finish = resolve));
  const early: WireEvent[] = [];

  const handle = (ev: WireEvent): void => {
    if (!ids.has(ev.session_id)) return;
    if (ev.type === 'session.compressed' && typeof ev.payload.session_id === 'string') {
      ids.add(ev.payload.session_id);
      current = ev.payload.session_id;
      return;
    }
    if (ev.type === 'turn.start' && ev.payload.prompt_id === promptId) mine = true;
    if (!mine) return;
    if (ev.type === 'message.start') streamed = '';
    else if (ev.type === 'message.delta') streamed += ev.payload.text;
    else if (ev.type === 'message.complete') {
      streamed = '';
      if (ev.payload.text) reply = ev.payload.text;
      if (ev.payload.error) lastError = ev.payload.error;
    } else if (ev.type === 'error' && ev.payload.kind !== 'notice') lastError = ev.payload.message;
    else if (ev.type === 'turn.end' && ev.payload.prompt_id === promptId)
      finish({
        kind: 'ended',
        status: ev.payload.status,
        reply,
        ...(lastError && ev.payload.status !== 'complete' ? { error: lastError } : {}),
      });
  };
  const offEvents = link.onEvent((ev) => (promptId === undefined ? early.push(ev) : handle(ev)));
  // an approval asked in our turn: the caller answers it (approval_answer) or leaves it
  const asked = (p: AskedApproval): void => {
    if (mine && ids.has(p.session_id)) finish({ kind: 'approval', approval: p, reply: reply || streamed });
  };
  const earlyAsks: AskedApproval[] = [];
  const offApprovals = link.onApproval((p) => (promptId === undefined ? earlyAsks.push(p) : asked(p)));
  const timer = setTimeout(() => finish({ kind: 'timeout', reply: streamed || reply }), opts.timeoutMs);
  void c.closed.then(() => finish({ kind: 'disconnected', reply: streamed || reply }));
  try {
    const r = await c.request('prompt.submit', { session_id: sessionId, text });
    promptId = r.prompt_id;
    for (const ev of early.splice(0)) handle(ev);
    for (const p of earlyAsks.splice(0)) asked(p);
    const outcome = await done;
    return { sessionId: current, promptId, status: r.status, outcome };
  } finally {
    clearTimeout(timer);
    offEvents();
    offApprovals();
    await held.release();
  }
}
