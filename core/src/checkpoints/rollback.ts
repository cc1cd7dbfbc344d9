/**
 * Text commands over checkpoints, shared by the daemon's `/rollback` (slash.exec) and
 * `hermes checkpoints`.
 *
 * `/rollback` syntax (`args` is what follows the command name):
 * - `` (empty) or `list` — the checkpoints of the working directory, newest first, numbered;
 * - `diff N` — what changed since checkpoint N (a number from the list or a hash);
 * - `N [file]` or `restore N [file]` — restore the directory (or one file) to checkpoint N; the
 *   state before the restore is snapshotted first and the answer says how to undo.
 */
import type { HermesHome } from '../home/home.js';
import { capHeadTail } from '../util/head-tail.js';
import {
  CheckpointError,
  diffCheckpoint,
  listCheckpoints,
  restoreCheckpoint,
  type CheckpointInfo,
  type RestoreResult,
} from './checkpoints.js';
import { normalizeWorkdir } from './store.js';

/** Cap on a diff shown by `/rollback diff`, chars. */
export const ROLLBACK_MAX_DIFF_CHARS = 20_000;

/** How hints name the commands: `/rollback …` in a chat, `hermes checkpoints …` in a shell. */
export type RollbackStyle = 'slash' | 'cli';

function help(style: RollbackStyle): string {
  return style === 'cli'
    ? `  hermes checkpoints list                     list checkpoints
  hermes checkpoints diff <N>                 changes since checkpoint N
  hermes checkpoints restore <N> [file]       restore checkpoint N (or one file of it)`
    : `  /rollback                 list checkpoints
  /rollback diff <N>        changes since checkpoint N
  /rollback <N> [file]      restore checkpoint N (or one file of it)`;
}

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function filesText(files: string[]): string {
  if (files.length === 0) return 'no files changed after it';
  const shown = files.slice(0, 4).join(', ');
  return `${files.length} file${files.length === 1 ? '' : 's'} changed after it: ${shown}${files.length > 4 ? ', …' : ''}`;
}

/** The numbered list `/rollback` shows (time, turn, reason, files changed). */
export function formatCheckpointList(
  dir: string,
  list: CheckpointInfo[],
  style: RollbackStyle = 'slash',
): string {
  if (list.length === 0) return `No checkpoints for ${dir}.`;
  const lines = list.map((c, i) => {
    const turn = c.turn ? ` · turn ${c.turn}` : '';
    return `  ${String(i + 1).padStart(2)}. ${c.shortHash}  ${localTime(c.time)}${turn} · ${c.reason}\n      ${filesText(c.files)}`;
  });
  return `Checkpoints for ${dir} (newest first):\n${lines.join('\n')}\n\n${help(style)}`;
}

/** The answer to a restore: what was written and deleted, and how to undo. */
export function formatRestore(dir: string, r: RestoreResult, style: RollbackStyle = 'slash'): string {
  const parts = [`Restored ${dir} to ${r.restored.slice(0, 8)}.`];
  if (r.written.length) parts.push(`Written back: ${r.written.join(', ')}`);
  if (r.deleted.length) parts.push(`Deleted (not in the checkpoint): ${r.deleted.join(', ')}`);
  if (!r.written.length && !r.deleted.length) parts.push('Nothing differed.');
  if (r.undo)
    parts.push(
      `To undo: ${style === 'cli' ? 'hermes checkpoints restore' : '/rollback'} ${r.undo.slice(0, 8)}`,
    );
  return parts.join('\n');
}

/**
 * Runs a `/rollback` command for the session's working directory and returns the text to show.
 * Never throws for user errors (unknown checkpoint, bad path): the text says what is wrong.
 * @param home the session's profile home (whose store holds the checkpoints).
 * @param cwd the session's working directory.
 * @param args everything after `/rollback`.
 * @param opts.session recorded on the undo snapshot.
 * @param opts.style how hints name the commands (default `slash`).
 * @param opts.maxSnapshots the profile's `checkpoints.max_snapshots`: a restore's undo snapshot
 *   then never leaves more than that many checkpoints (absent: no pruning on restore).
 * @throws Error only when git itself fails (missing, broken store).
 */
export async function runRollbackCommand(
  home: HermesHome,
  cwd: string,
  args: string,
  opts: { session?: string; style?: RollbackStyle; maxSnapshots?: number } = {},
): Promise<string> {
  const style = opts.style ?? 'slash';
  const dir = normalizeWorkdir(cwd);
  const words = args.trim().split(/\s+/).filter(Boolean);
  const verb = (words[0] ?? 'list').toLowerCase();
  try {
    if (verb === 'list' || verb === 'ls')
      return formatCheckpointList(dir, await listCheckpoints(home, dir), style);
    if (verb === 'help') return help(style);
    if (verb === 'diff') {
      if (!words[1]) return `Which checkpoint?\n${help(style)}`;
      const d = await diffCheckpoint(home, dir, words[1]);
      if (d.files.length === 0) return `No changes since ${d.hash.slice(0, 8)}.`;
      return `Changes since ${d.hash.slice(0, 8)} (checkpoint = a/, now = b/):\n${d.stat}\n\n${capHeadTail(d.diff, ROLLBACK_MAX_DIFF_CHARS).text}`;
    }
    const rest = verb === 'restore' ? words.slice(1) : words;
    if (!rest[0]) return `Which checkpoint?\n${help(style)}`;
    const file = rest.slice(1).join(' ') || undefined;
    const r = await restoreCheckpoint(home, dir, rest[0], {
      ...(file ? { file } : {}),
      ...(opts.session ? { session: opts.session } : {}),
      ...(opts.maxSnapshots !== undefined ? { maxSnapshots: opts.maxSnapshots } : {}),
    });
    return formatRestore(dir, r, style);
  } catch (err) {
    if (err instanceof CheckpointError) return err.message;
    throw err;
  }
}
