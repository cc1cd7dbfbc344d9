/**
 * `@` references in the daemon: `files.complete` (fuzzy paths under the session's folder from a
 * cached, gitignore-aware index that never makes the caller wait for a listing) and the
 * resolving of `prompt.submit` attachments into the prompt's text (core/src/references/).
 */
import { RpcErrorCode, type PromptAttachment } from '@hermes/core/protocol';
import { AttachmentError, FileIndex, resolveAttachments, withAttachments } from '@hermes/core/references';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import type { LiveSession } from './live-session.js';
import type { SessionRegistry } from './session-registry.js';

/** The folder references of `live` resolve in: its working folder, else the daemon's. */
export function sessionFolder(live: LiveSession): string {
  return live.info().cwd ?? process.cwd();
}

/** Registers `files.complete`; returns the index (one per daemon, keyed by folder). */
export function registerReferenceHandlers(
  rpc: HandlerRegistry,
  sessions: SessionRegistry,
  index: FileIndex = new FileIndex(),
): FileIndex {
  rpc.register('files.complete', async (p, conn) => {
    const live = sessions.get(conn.profile, p.session_id);
    return index.complete(sessionFolder(live), p.query, p.limit ?? 20);
  });
  return index;
}

/**
 * The prompt's text with its attachments resolved and added (`text` itself without any).
 * @throws RpcMethodError (-32602) naming the first reference that cannot be attached.
 */
export async function attachReferences(
  sessions: SessionRegistry,
  conn: Connection,
  live: LiveSession,
  text: string,
  attachments: readonly PromptAttachment[] | undefined,
): Promise<string> {
  if (!attachments?.length) return text;
  const profile = sessions.profile(conn.profile);
  try {
    const resolved = await resolveAttachments(attachments, {
      cwd: sessionFolder(live),
      home: profile.home,
      config: profile.config,
      signal: AbortSignal.timeout(30_000),
    });
    return withAttachments(text, resolved);
  } catch (err) {
    if (err instanceof AttachmentError)
      throw new RpcMethodError(RpcErrorCode.InvalidParams, `cannot attach ${err.message}`);
    throw err;
  }
}

const submitChains = new WeakMap<LiveSession, Promise<unknown>>();

/**
 * Runs `work` (resolve a prompt's references, then submit it) after the previous submit of the
 * same session settled: prompts keep the order they were sent in even when an earlier one waits
 * for a page or a large diff.
 */
export function inSubmitOrder<T>(live: LiveSession, work: () => Promise<T>): Promise<T> {
  const previous = submitChains.get(live) ?? Promise.resolve();
  const run = previous.then(work, work);
  submitChains.set(
    live,
    run.catch(() => undefined),
  );
  return run;
}
