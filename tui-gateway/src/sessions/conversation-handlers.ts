/**
 * RPC handlers of conversation control: `session.undo`, `session.retry`, `session.rewind`,
 * `session.fork` and `session.steer`.
 *
 * Going back cuts the stored transcript of the live session (its current id: after context
 * compression, the continuation) from a user message on, gives the agent the history that is left
 * (nothing removed reaches the model again), and tells every attached client with
 * `session.rewound` so each reloads its transcript. Only while the session is idle: a running
 * turn (or `/compact`, or a queue being run) refuses with `SessionBusy` — interrupt it first.
 * Prompts submitted during the edit queue and run after it.
 */
import { previewText, type MessageRecord } from '@hermes/core/state';
import { SUMMARY_PREFIX } from '@hermes/core/agent';
import { RpcErrorCode, type MethodResult } from '@hermes/core/protocol';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import { connectionLabel } from './config-set-handler.js';
import { SessionBusyError, type LiveSession, type SessionAgent } from './live-session.js';
import type { SessionRegistry } from './session-registry.js';

type Reason = 'undo' | 'retry' | 'rewind';

/** A user message the conversation can go back to: a prompt (not guidance, not a summary). */
export function isRewindTarget(m: MessageRecord): boolean {
  return m.role === 'user' && m.status !== 'guidance' && !(m.content ?? '').startsWith(SUMMARY_PREFIX);
}

/** Runs `edit` with the live session idle; a busy session is refused with `SessionBusy`. */
async function whileIdle<T>(
  live: LiveSession,
  what: string,
  edit: (agent: SessionAgent | undefined) => T | Promise<T>,
): Promise<T> {
  try {
    return await live.whileIdle(what, edit);
  } catch (err) {
    if (err instanceof SessionBusyError) throw new RpcMethodError(RpcErrorCode.SessionBusy, err.message);
    throw err;
  }
}

type ChainRecord = { parent_session_id: string | null; end_reason?: string | null };

/**
 * The ids this session had: its own and those of the sessions it continues after compression.
 * @param record the session's own record (the caller has read it).
 */
function compressionChain(
  db: { getSession(id: string): ChainRecord | undefined },
  id: string,
  record: ChainRecord | undefined,
): string[] {
  const ids = [id];
  for (let cur = record; cur?.parent_session_id && ids.length < 20;) {
    const parent = db.getSession(cur.parent_session_id);
    if (!parent || parent.end_reason !== 'compressed') break;
    ids.push(cur.parent_session_id);
    cur = parent;
  }
  return ids;
}

async function goBack(
  sessions: SessionRegistry,
  conn: Connection,
  sessionId: string,
  reason: Reason,
  pick: (records: MessageRecord[]) => MessageRecord | undefined,
  files = false,
): Promise<MethodResult<'session.rewind'>> {
  const live = sessions.get(conn.profile, sessionId);
  const profile = sessions.profile(conn.profile);
  return whileIdle(live, `/${reason}`, async (agent) => {
    if (profile.writer.pending > 0)
      throw new RpcMethodError(
        RpcErrorCode.SessionBusy,
        'the transcript is still being stored (state.db is locked by another process); try again shortly',
      );
    const records = profile.db.getMessages(live.id);
    const target = pick(records);
    if (!target) {
      const none =
        reason === 'rewind'
          ? 'no such user message in this session (after a context compression only the messages since are kept here)'
          : 'nothing to go back to: this session has no prompt yet';
      throw new RpcMethodError(RpcErrorCode.InvalidParams, none);
    }
    let filesOutcome: MethodResult<'session.rewind'>['files'];
    if (files) {
      const record = profile.db.getSession(live.id);
      const { restoreFilesSince } = await import('./rewind-files.js');
      try {
        filesOutcome = await restoreFilesSince(
          profile.home,
          record?.cwd ?? process.cwd(),
          compressionChain(profile.db, live.id, record),
          target.timestamp,
          profile.config.checkpoints?.max_snapshots,
        );
      } catch (err) {
        filesOutcome = {
          restored: null,
          written: 0,
          deleted: 0,
          message: `Files not restored: ${(err as Error).message}`,
        };
      }
    }
    const removed = profile.db.transcript.truncateFrom(live.id, target.id);
    agent?.replaceHistory?.(records.filter((r) => r.id < target.id));
    const text = target.content ?? '';
    live.emit('session.rewound', {
      reason,
      message_id: target.id,
      removed,
      text,
      by: connectionLabel(conn),
      ...(filesOutcome ? { files: filesOutcome.message } : {}),
    });
    live.emit('session.info', { session: live.info() });
    return { removed, message_id: target.id, text, ...(filesOutcome ? { files: filesOutcome } : {}) };
  });
}

const lastPrompt = (records: MessageRecord[]): MessageRecord | undefined => records.findLast(isRewindTarget);

/** Registers the conversation methods on the daemon's dispatcher. */
export function registerConversationHandlers(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('session.undo', async (p, conn) => goBack(sessions, conn, p.session_id, 'undo', lastPrompt));

  rpc.register('session.retry', async (p, conn) => {
    const r = await goBack(sessions, conn, p.session_id, 'retry', lastPrompt);
    const live = sessions.get(conn.profile, p.session_id);
    const { prompt_id } = live.submit(r.text, connectionLabel(conn));
    return { ...r, prompt_id };
  });

  rpc.register('session.rewind', async (p, conn) =>
    goBack(
      sessions,
      conn,
      p.session_id,
      'rewind',
      (records) => records.find((m) => m.id === p.message_id && isRewindTarget(m)),
      p.files ?? false,
    ),
  );

  rpc.register('session.fork', async (p, conn) => {
    const live = sessions.get(conn.profile, p.session_id);
    const profile = sessions.profile(conn.profile);
    return whileIdle<MethodResult<'session.fork'>>(live, '/fork', () => {
      let text: string | undefined;
      if (p.message_id !== undefined) {
        const m = profile.db.getMessage(p.message_id);
        if (!m || m.session_id !== live.id || !isRewindTarget(m))
          throw new RpcMethodError(RpcErrorCode.InvalidParams, 'no such user message in this session');
        text = m.content ?? '';
      }
      const record = profile.db.getSession(live.id);
      const first = profile.db.firstPrompts([live.id]).get(live.id);
      const base = p.title ?? `${record?.title ?? (first ? previewText(first, 60) : live.id)} (fork)`;
      const fork = profile.db.transcript.fork(live.id, {
        ...(p.message_id !== undefined ? { beforeId: p.message_id } : {}),
        title: base.slice(0, 200),
      });
      return {
        session: sessions.describe(profile, fork),
        parent_session_id: live.id,
        ...(text !== undefined ? { text } : {}),
      };
    });
  });

  rpc.register('session.steer', async (p, conn) => {
    if (sessions.isDraining)
      throw new RpcMethodError(
        RpcErrorCode.ShuttingDown,
        'the daemon is shutting down; try again after it restarts',
      );
    return sessions.get(conn.profile, p.session_id).steer(p.text, connectionLabel(conn));
  });
}
