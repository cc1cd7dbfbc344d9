/**
 * A live session's file tools served by an attached editor (`capabilities.files`, e.g. `hermes
 * acp` for the editor that started it): `file.read` / `file.write` server requests to one such
 * client — the one attached last — with a short deadline. Any failure (no such client, an error
 * answer, a malformed result, the deadline) resolves undefined / false, so the tool uses the disk:
 * an editor can make the agent see its unsaved buffers, never make a file operation fail.
 */
import type { EditorFiles } from '@hermes/core/tools';
import { FileReadResult } from '@hermes/core/protocol';
import type { Connection } from '../rpc/types.js';

/** How long a file request waits for the editor, ms. */
export const CLIENT_FILE_TIMEOUT_MS = 5_000;

/**
 * The `EditorFiles` of a session.
 * @param clients the session's attached connections, in attach order.
 * @param sessionId the session's current id (it changes after context compression).
 */
export function clientFiles(
  clients: () => Iterable<Connection>,
  sessionId: () => string,
  log: (line: string) => void,
  timeoutMs = CLIENT_FILE_TIMEOUT_MS,
): EditorFiles {
  const pick = (): Connection | undefined => {
    let chosen: Connection | undefined;
    for (const c of clients()) if (!c.closed && c.capabilities.files) chosen = c;
    return chosen;
  };
  const failed = (what: string, path: string, err: unknown): void =>
    log(
      `session ${sessionId()}: the editor could not ${what} ${path} (${(err as Error).message}); using the disk`,
    );
  return {
    async read(path) {
      const c = pick();
      if (!c) return undefined;
      try {
        const r = FileReadResult.safeParse(
          await c.request('file.read', { session_id: sessionId(), path }, AbortSignal.timeout(timeoutMs)),
        );
        return r.success ? r.data.content : undefined;
      } catch (err) {
        failed('read', path, err);
        return undefined;
      }
    },
    async write(path, content) {
      const c = pick();
      if (!c) return false;
      try {
        await c.request(
          'file.write',
          { session_id: sessionId(), path, content },
          AbortSignal.timeout(timeoutMs),
        );
        return true;
      } catch (err) {
        failed('write', path, err);
        return false;
      }
    },
  };
}
