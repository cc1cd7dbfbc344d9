/**
 * After a restart, every message the previous daemon left open in the delivery ledger gets its
 * outcome (the replies it left unconfirmed are the ledger's own work: `DeliveryLedger.start`).
 * Per session, in the order the messages arrived:
 *
 * - its prompt still waits in the session's queue (held by the shutdown or the crash): taken
 *   out and submitted again, so it runs — in order with the others — and its reply is sent;
 * - its turn had started: the stored transcript decides. A turn that finished (its final reply is
 *   stored, the daemon died before sending it) has that reply sent. A turn the crash cut before
 *   any tool ran is run again (nothing happened that could happen twice; its user message then
 *   appears twice in the transcript). A turn cut after a tool ran is not repeated — the tool's
 *   effects may already have happened: the sender gets a visible error asking to send it again;
 * - it was accepted but never became a prompt: it is admitted again, as if it had just arrived
 *   (when the row lacks the message, a visible error asks to send it again).
 */
import type { MessageRecord } from '../state/types.js';
import type { SendOptions } from './adapter.js';
import type { DeliveryRecord } from './delivery-ledger.js';
import type { MessagePipeline } from './pipeline.js';
import { promptImagesOf } from './pipeline-spool.js';
import { finishTurn, startTurn, type TurnRequest } from './pipeline-turn.js';
import { sourceFromJson } from './source.js';

/** Sent when a restart cut a turn that had run tools (or whose transcript cannot be read). */
export const CUT_AFTER_TOOLS_NOTICE =
  'Sorry, the agent restarted while it was working on your message and could not safely start ' +
  'it again (it may already have run tools). Send the message again if you still want it done.';

/** Sent when a restart came before the message became a prompt. */
export const NOT_STARTED_NOTICE =
  'Sorry, the agent restarted before it could start on your message. Please send it again.';

/** What the transcript says about a turn the previous daemon did not finish recording. */
export type StoredTurn =
  | { kind: 'complete'; status: string; text: string }
  | { kind: 'cut'; toolsRan: boolean }
  /** The transcript does not show the prompt where expected (moved by context compression). */
  | { kind: 'unknown' };

/**
 * Reads one turn from the messages stored after its start.
 * @param messages the session's messages with ids above the turn's `after_message_id`, oldest first.
 * @param promptText the prompt as submitted (the turn's user message).
 */
export function readStoredTurn(messages: readonly MessageRecord[], promptText: string): StoredTurn {
  const start = messages.findIndex((m) => m.role === 'user');
  if (start < 0) return { kind: 'cut', toolsRan: false }; // the user message was never stored
  if (messages[start]!.content !== promptText) return { kind: 'unknown' };
  let end = messages.findIndex((m, i) => i > start && m.role === 'user');
  if (end < 0) end = messages.length;
  const turn = messages.slice(start + 1, end).filter((m) => m.role !== 'system');
  const toolsRan = turn.some((m) => m.role === 'tool');
  const last = turn[turn.length - 1];
  if (
    last?.role === 'assistant' &&
    !last.tool_calls &&
    (last.status === 'complete' || last.status === 'max_turns')
  )
    return { kind: 'complete', status: last.status, text: last.content ?? '' };
  return { kind: 'cut', toolsRan };
}

function sendOptionsOf(row: DeliveryRecord): SendOptions {
  try {
    return row.send_opts ? (JSON.parse(row.send_opts) as SendOptions) : {};
  } catch {
    return {};
  }
}

/**
 * Gives every open message of the platform its outcome (see the module doc). Prompts are
 * submitted synchronously before the first await, so they queue ahead of messages arriving
 * meanwhile; a reply that needs no turn (a stored one, a notice) waits for the replies of the
 * session's earlier messages, so each chat still gets its replies in message order.
 * @returns how many messages were recovered; resolves when their outcomes are decided.
 */
export async function recoverMessages(p: MessagePipeline): Promise<number> {
  const transcript = p.opts.transcript;
  if (!p.durable || !transcript) return 0;
  // a message accepted since the start (an adapter may deliver one before its connect returns)
  // is this daemon's own work, not the previous one's: admitting it again would answer it twice
  const rows = p.ledger.unfinished().filter((r) => !p.acceptedInThisLife(r.id));
  // the spools of messages no longer open (their outcome was decided while a drop failed)
  p.spool?.sweep(new Set(rows.map((r) => r.id)));
  if (rows.length === 0) return 0;
  p.opts.log(`recovering ${rows.length} message(s) left open by the previous daemon`);
  const cfg = p.platformConfig();
  // this platform's prompts still in a session's queue, taken out once per session
  const queued = new Map<string, string>();
  const takenFrom = new Set<string>();
  const take = (sessionId: string): void => {
    if (takenFrom.has(sessionId)) return;
    takenFrom.add(sessionId);
    const origins = new Set(rows.filter((r) => r.session_id === sessionId).map((r) => r.id));
    try {
      for (const t of p.opts.backend.takeQueued?.(sessionId, origins) ?? []) queued.set(t.origin, t.text);
    } catch (err) {
      p.opts.log(`cannot read the queue of ${sessionId}: ${(err as Error).message}`);
    }
  };
  // one chain per chat conversation (session key): its messages settle in order
  const chains = new Map<string, Promise<unknown>>();
  for (const row of rows) {
    const lane = row.session_key ?? row.session_id ?? row.chat_id;
    const before = chains.get(lane) ?? Promise.resolve();
    let done: Promise<unknown>;
    if (!row.session_id || !row.prompt_text) {
      // accepted, not yet a prompt: admitted again now (it takes its place in the chat's lane)
      const readmitted = p.readmit(row);
      done = Promise.all([
        before,
        readmitted.then((ok) =>
          ok ? undefined : before.then(() => p.ledger.deliver(row.id, NOT_STARTED_NOTICE, 'error')),
        ),
      ]);
    } else {
      const sessionId = row.session_id;
      take(sessionId);
      const direct = row.state === 'running' ? storedOutcome(p, row, sessionId) : undefined;
      // run again with the images its first run had (kept in the spool)
      const { images, lostText } = direct ? { images: [], lostText: '' } : promptImagesOf(p, row);
      const userText = queued.get(row.id) ?? row.prompt_text;
      const req: TurnRequest = {
        id: row.id,
        sessionId,
        key: row.session_key ?? '',
        chatId: row.chat_id,
        send: sendOptionsOf(row),
        userText: lostText ? `${userText}\n\n${lostText}` : userText,
        cfg,
        ...(images.length ? { images } : {}),
        ...askerOf(row),
      };
      done = direct ? before.then(() => direct()) : Promise.all([before, startTurn(p, req)]); // submitted now
    }
    chains.set(
      lane,
      done.catch((err: Error) => p.opts.log(`recovering ${row.id} failed: ${err.message}`)),
    );
  }
  const work = [...chains.values()];
  await Promise.all(work);
  return rows.length;
}

/**
 * For a turn that had started: how to settle it without running it again (its stored reply, or
 * the notice that it was not repeated), or undefined when it is run again.
 */
function storedOutcome(
  p: MessagePipeline,
  row: DeliveryRecord,
  sessionId: string,
): (() => Promise<void>) | undefined {
  const stored = readStoredTurn(
    p.opts.transcript!.getMessages(sessionId, { after: row.after_message_id ?? 0, limit: 2_000 }),
    row.prompt_text ?? '',
  );
  if (stored.kind === 'complete') {
    const req = { id: row.id, sessionId, cfg: p.platformConfig() };
    return () => finishTurn(p, req, { status: stored.status, text: stored.text });
  }
  if (stored.kind === 'unknown' || stored.toolsRan)
    return () => p.ledger.deliver(row.id, CUT_AFTER_TOOLS_NOTICE, 'error');
  return undefined;
}

/** The sender recorded with a ledger row's message (who may answer its approvals), when known. */
function askerOf(row: DeliveryRecord): { askerId?: string } {
  try {
    const source = sourceFromJson((JSON.parse(row.inbound ?? 'null') as { source?: unknown } | null)?.source);
    const id = source?.userIdAlt || source?.userId;
    return id ? { askerId: id } : {};
  } catch {
    return {};
  }
}
