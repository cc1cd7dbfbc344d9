/**
 * `hermes sessions delete` refuses a session some process holds live (user-trial finding 1): the
 * daemon and `hermes chat`/`hermes cron` hold `<home>/sessions/locks/<id>.lock` while a session is
 * loaded (core/src/state/session-lock.ts; the mechanism `profile delete` uses, profiles/busy.ts).
 * A session the daemon merely keeps loaded — no turn running, no client attached (a finished
 * `hermes chat -q`, a TUI that detached) — is ended there and deleted without `--force`. With
 * `--force`, a session held by the daemon is ended there first whatever it does (`session.close`:
 * a running turn is interrupted, attached clients get an error on their next prompt); a session
 * another process runs cannot be forced.
 */
import { heldSessions } from '@hermes/core/profiles';
import type { SessionRecord } from '@hermes/core/state';
import { CliExit, type CliContext } from '../context.js';
import { connectIfRunning } from '../daemon-connection.js';

/** The owner name the daemon writes into the lock's owner note. */
const DAEMON_OWNER = 'tui-gateway';

/** The held lock of this session, if a live process holds it. */
function holderOf(ctx: CliContext, id: string): { owner: string; pid?: number } | undefined {
  const held = heldSessions(ctx.home).find((h) => h.sessionId === id);
  if (!held) return undefined;
  return held.holder ? { owner: held.holder.owner, pid: held.holder.pid } : { owner: 'another process' };
}

/**
 * Returns when the session may be deleted: nobody holds it, or (`force`) the daemon ended it.
 * @throws CliExit(1) naming the holder and what to do.
 */
export async function ensureNotLive(ctx: CliContext, s: SessionRecord, force: boolean): Promise<void> {
  const holder = holderOf(ctx, s.id);
  if (!holder) return;
  const pid =
    holder.pid !== undefined && !holder.owner.includes(`pid ${holder.pid}`) ? ` (pid ${holder.pid})` : '';
  if (holder.owner !== DAEMON_OWNER) {
    throw new CliExit(
      1,
      `session ${s.id} is in use by ${holder.owner}${pid}; wait until it finishes, then delete it (--force cannot end it)`,
    );
  }
  const client = await connectIfRunning(ctx, 'hermes-sessions');
  try {
    if (!force) {
      const listed = client
        ? (await client.request('session.list', { limit: 1000 })).sessions.find((x) => x.id === s.id)
        : undefined;
      const n = listed?.clients ?? 0;
      // loaded but idle and unwatched: nothing to interrupt, nobody to surprise
      const idle = listed !== undefined && listed.busy !== true && n === 0;
      if (!idle) {
        const clients = listed
          ? n
            ? `, ${n} client${n === 1 ? '' : 's'} attached`
            : ', a turn running'
          : '';
        throw new CliExit(
          1,
          `session ${s.id} is live in the daemon (tui-gateway${pid}${clients}); not deleted. ` +
            `--force ends it in the daemon first, then deletes it (an attached TUI is told it is gone at its next message)`,
        );
      }
    }
    if (!client) throw new CliExit(1, `session ${s.id} is held by the daemon${pid}, which does not answer`);
    await client.request('session.close', { session_id: s.id });
  } finally {
    await client?.close();
  }
  if (holderOf(ctx, s.id)) throw new CliExit(1, `the daemon still holds session ${s.id}; not deleted`);
}
