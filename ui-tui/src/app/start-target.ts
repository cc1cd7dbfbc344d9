/**
 * Which session a TUI opens at start (`hermes tui --continue | --new | --session X`), resolved
 * against the daemon: `continue` takes the daemon's pick (the last interactive session, this
 * folder's first), `session` an id or a title (an id older than the listing's window too).
 */
import { RpcCallError, type DaemonClientLike } from '@hermes/client';

/** Which session to open at start. */
export type StartTarget = { mode: 'continue' } | { mode: 'new' } | { mode: 'session'; session: string };

/** The daemon's "no such session" error code. */
const SESSION_NOT_FOUND = -32001;

/**
 * The id of the session `target` names; `new` (and `continue` with nothing to continue) creates
 * one in `cwd`. `notice` says when the continued session belongs to another folder.
 * @throws Error naming the reference when `session` names no session of this profile.
 */
export async function resolveStartTarget(
  client: DaemonClientLike,
  cwd: string,
  target: StartTarget,
  notice: (text: string) => void,
): Promise<string> {
  if (target.mode === 'new') {
    return (await client.request('session.create', { cwd })).session.id;
  }
  if (target.mode === 'continue') {
    // the daemon applies the continue rule: the last interactive session, this folder's first
    const [pick] = (await client.request('session.list', { continue_from: cwd })).sessions;
    if (pick) {
      if (pick.cwd && pick.cwd !== cwd) {
        const name = pick.title ? `“${pick.title}”` : pick.id;
        notice(
          `Continuing ${name}, whose folder is ${pick.cwd} (no session of this folder); /new starts one here.`,
        );
      }
      return pick.id;
    }
    return (await client.request('session.create', { cwd })).session.id;
  }
  const ref = target.session.trim();
  const sessions = (await client.request('session.list', { limit: 1000 })).sessions;
  const found = sessions.find((s) => s.id === ref) ?? sessions.find((s) => s.title === ref);
  if (found) return found.id;
  // Not in the listing (older than its window): try it as an id.
  try {
    await client.request('session.history', { session_id: ref, limit: 1 });
    return ref;
  } catch (err) {
    if (err instanceof RpcCallError && err.code === SESSION_NOT_FOUND) {
      throw new Error(`No session with id or title "${ref}" in this profile.`, { cause: err });
    }
    throw err;
  }
}
