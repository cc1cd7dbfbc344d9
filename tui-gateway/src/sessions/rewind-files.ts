/**
 * The file half of `/rewind … files`: the session folder goes back to the checkpoint taken
 * before the first file change of the rewound turn (or of the first later turn that changed
 * files), through the same checkpoint store as `/rollback`. The restore snapshots the current
 * state first, so `/rollback <hash>` undoes it. Loaded with `import()` when asked for.
 */
import { join } from 'node:path';
import {
  checkpointDirFor,
  formatRestore,
  listCheckpoints,
  restoreCheckpoint,
  CHECKPOINT_LIST_LIMIT,
} from '@hermes/core/checkpoints';
import type { HermesHome } from '@hermes/core/home';

/** What the file restore did (the wire's `RewoundFiles`). */
export interface RewindFilesOutcome {
  restored: string | null;
  written: number;
  deleted: number;
  message: string;
}

/**
 * Restores the session folder to the oldest checkpoint of `sessionIds` taken at or after
 * `sinceMs` (checkpoint times have whole seconds).
 * @param sessionIds the session and the ids it had before context compression (checkpoints keep
 *   the id the agent started with).
 * @returns what was done; `restored: null` with the reason when no such checkpoint exists.
 * @throws Error when git fails.
 */
export async function restoreFilesSince(
  home: HermesHome,
  cwd: string,
  sessionIds: readonly string[],
  sinceMs: number,
  maxSnapshots?: number,
): Promise<RewindFilesOutcome> {
  const dir = checkpointDirFor(join(cwd, '.'), cwd);
  const since = Math.floor(sinceMs / 1000) * 1000;
  const list = await listCheckpoints(home, dir, { limit: CHECKPOINT_LIST_LIMIT });
  // newest first: the last match is the oldest checkpoint of the rewound turns
  const match = list.filter(
    (c) => c.session !== undefined && sessionIds.includes(c.session) && Date.parse(c.time) >= since,
  );
  const oldest = match.at(-1);
  if (!oldest) {
    return {
      restored: null,
      written: 0,
      deleted: 0,
      message: `No file checkpoint of ${dir} was taken since that message: files left as they are.`,
    };
  }
  const r = await restoreCheckpoint(home, dir, oldest.hash, {
    session: sessionIds[0]!,
    ...(maxSnapshots !== undefined ? { maxSnapshots } : {}),
  });
  return {
    restored: oldest.shortHash,
    written: r.written.length,
    deleted: r.deleted.length,
    message: formatRestore(dir, r),
  };
}
