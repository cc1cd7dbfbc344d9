/**
 * Checkpoints of a working directory: create,
 * list, diff, restore. Storage and git plumbing are in `store.ts`.
 *
 * - A checkpoint is a commit on the project's ref `refs/hermes/<hash16>` whose tree is the
 *   directory's content (respecting its `.gitignore`, the default excludes and a 10 MB per-file
 *   cap). Its message is the reason, then `Hermes-Turn:` / `Hermes-Session:` trailers.
 * - A snapshot identical to the previous one is not stored again (`created: false`, `hash` is the
 *   existing tip). `/`, the user's home directory, the temp folder itself and folders with more
 *   than 50,000 files are never snapshotted.
 * - `restoreCheckpoint` first snapshots the current state (so a restore can be undone by
 *   restoring that snapshot), then rewrites the files that differ and deletes files that did
 *   not exist in the checkpoint. Excluded files (`node_modules/`, `.env` …) are never touched.
 * - Each project keeps at most `maxSnapshots` checkpoints (config `checkpoints.max_snapshots`):
 *   older ones are dropped after a new one is stored and unreachable objects are collected now and
 *   then (`prune.ts`). Retained checkpoints get new hashes when older ones are dropped.
 * - Every operation holds the store lock (`withStoreLock`).
 */
import { copyFileSync, readdirSync, rmdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { prepareExcludes, splitZ, stageAndWriteTree } from './staging.js';
import {
  CHECKPOINT_MAX_SNAPSHOTS,
  checkpointAliases,
  enforceSnapshotLimit,
  type RetentionOptions,
} from './prune.js';
import {
  ensureStore,
  git,
  normalizeWorkdir,
  projectPaths,
  readProjectMeta,
  runGit,
  storePaths,
  touchProjectMeta,
  withStoreLock,
  type ProjectMeta,
  type ProjectPaths,
  type StorePaths,
} from './store.js';

export type { RetentionOptions } from './prune.js';

export { CHECKPOINT_MAX_FILES, CHECKPOINT_MAX_FILE_BYTES } from './staging.js';
/** Default number of checkpoints `listCheckpoints` returns. */
export const CHECKPOINT_LIST_LIMIT = 50;

/** What a checkpoint records besides the files. */
export interface CheckpointLabel {
  /** Which turn took it (free text, e.g. `3`). */
  turn?: string | number;
  /** Session id of that turn. */
  session?: string;
  /** One line: why (e.g. the user's prompt, or `before restoring 1a2b3c4d`). */
  reason: string;
}

/** Result of `createCheckpoint`. */
export interface CreateResult {
  /** True when a new snapshot was stored. */
  created: boolean;
  /** The snapshot representing the current state (new, or the unchanged tip). */
  hash?: string;
  /** Why nothing was stored: `unchanged`, `empty`, `too broad`, `too many files`. */
  skipped?: string;
  /** Older checkpoints dropped to stay within `maxSnapshots` (absent: none). */
  pruned?: number;
}

/** One checkpoint as listed. */
export interface CheckpointInfo {
  hash: string;
  shortHash: string;
  /** ISO 8601 time it was taken. */
  time: string;
  turn?: string;
  session?: string;
  reason: string;
  /**
   * Files that changed after this checkpoint until the next one (for the newest: until now),
   * i.e. what the turn that took it went on to change. Relative to the working directory.
   */
  files: string[];
}

/** Result of `diffCheckpoint`. */
export interface DiffResult {
  hash: string;
  /** `git diff --stat` of the checkpoint against the current files. */
  stat: string;
  /** Unified diff of the checkpoint against the current files (checkpoint = `a/`). */
  diff: string;
  files: string[];
}

/** Result of `restoreCheckpoint`. */
export interface RestoreResult {
  /** The checkpoint restored. */
  restored: string;
  /** Snapshot of the state just before the restore: restore it to undo. */
  undo?: string;
  /** Files written back from the checkpoint. */
  written: string[];
  /** Files deleted because the checkpoint did not have them. */
  deleted: string[];
}

/** Thrown for a refused or impossible checkpoint operation; `message` is for the user. */
export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

/**
 * Why `dir` may not be snapshotted, else undefined: `/`, the user's home directory, and the
 * system temp folder itself (its sub-folders are fine).
 */
export function tooBroadReason(dir: string): string | undefined {
  const abs = normalizeWorkdir(dir);
  if (abs === sep || abs === resolve('/')) return 'the root directory is never snapshotted';
  if (abs === normalizeWorkdir(homedir())) return 'the home directory is never snapshotted';
  if (abs === normalizeWorkdir(tmpdir())) return 'the temp folder is never snapshotted';
  return undefined;
}

async function refTip(paths: StorePaths, project: ProjectPaths): Promise<string | undefined> {
  const r = await runGit(paths.store, ['rev-parse', '--verify', '--quiet', `${project.ref}^{commit}`]);
  return r.ok && r.stdout.trim() ? r.stdout.trim() : undefined;
}

/** Takes a snapshot (caller holds the lock). */
async function snapshot(
  paths: StorePaths,
  project: ProjectPaths,
  label: CheckpointLabel,
): Promise<CreateResult> {
  await ensureStore(paths);
  const oversize = await prepareExcludes(paths, project);
  if (oversize === 'too many') return { created: false, skipped: 'too many files' };
  const parent = await refTip(paths, project);
  const tree = await stageAndWriteTree(paths, project, project.index, oversize);
  if (parent) {
    const parentTree = (await git(paths.store, ['rev-parse', `${parent}^{tree}`])).trim();
    if (parentTree === tree) return { created: false, hash: parent, skipped: 'unchanged' };
  } else {
    const entries = await git(paths.store, ['ls-files', '-z'], {
      workdir: project.workdir,
      index: project.index,
    });
    if (entries === '') return { created: false, skipped: 'empty' };
  }
  const reason = label.reason.replace(/\s+/g, ' ').trim().slice(0, 200) || 'checkpoint';
  const trailers = [
    label.turn !== undefined ? `Hermes-Turn: ${String(label.turn).replace(/\s+/g, ' ')}` : '',
    label.session ? `Hermes-Session: ${label.session.replace(/\s+/g, ' ')}` : '',
  ].filter(Boolean);
  const message = trailers.length ? `${reason}\n\n${trailers.join('\n')}\n` : `${reason}\n`;
  const commit = (
    await git(paths.store, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message])
  ).trim();
  await git(paths.store, ['update-ref', project.ref, commit, ...(parent ? [parent] : [])]);
  touchProjectMeta(project);
  return { created: true, hash: commit };
}

/** The tree of the directory as it is now, without moving the project's ref or index. */
async function currentTree(paths: StorePaths, project: ProjectPaths): Promise<string | undefined> {
  const oversize = await prepareExcludes(paths, project);
  if (oversize === 'too many') return undefined;
  const tmp = `${project.index}.tmp-${process.pid}-${Date.now()}`;
  try {
    try {
      copyFileSync(project.index, tmp); // keeps stat data: only changed files are re-hashed
    } catch {
      /* no index yet */
    }
    return await stageAndWriteTree(paths, project, tmp, oversize);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Snapshots `cwd` into the home's shadow store.
 * @param home whose `checkpoints/` holds the store.
 * @param cwd the working directory (absolute or relative to the process's cwd).
 * @param opts.maxSnapshots checkpoints kept for this directory (default 50); older ones are dropped.
 * @param opts.signal ends the wait for the store lock (LockWaitAbortedError), e.g. the turn's interrupt.
 * @returns `created: false` with `skipped` when nothing was stored (see `CreateResult`); `hash`
 *   is the new checkpoint's hash after any pruning.
 * @throws Error when git is missing or a git step fails (callers in the agent log and go on).
 */
export async function createCheckpoint(
  home: HermesHome,
  cwd: string,
  label: CheckpointLabel,
  opts: RetentionOptions & { signal?: AbortSignal } = {},
): Promise<CreateResult> {
  if (tooBroadReason(cwd)) return { created: false, skipped: 'too broad' };
  const paths = storePaths(home);
  const project = projectPaths(paths, cwd);
  if (!statSync(project.workdir).isDirectory())
    throw new CheckpointError(`${project.workdir} is not a directory`);
  return withStoreLock(
    paths,
    async () => {
      const r = await snapshot(paths, project, label);
      if (!r.created) return r;
      const { dropped, renamed } = await enforceSnapshotLimit(
        paths,
        project,
        opts.maxSnapshots ?? CHECKPOINT_MAX_SNAPSHOTS,
      );
      if (dropped === 0) return r;
      return { ...r, hash: renamed.get(r.hash!) ?? r.hash, pruned: dropped };
    },
    opts.signal,
  );
}

function parseLog(out: string): Omit<CheckpointInfo, 'files'>[] {
  return out
    .split('\x1e')
    .map((rec) => rec.trim())
    .filter(Boolean)
    .map((rec) => {
      const [hash = '', shortHash = '', time = '', reason = '', turn = '', session = ''] = rec.split('\x1f');
      return {
        hash,
        shortHash,
        time,
        reason,
        ...(turn.trim() ? { turn: turn.trim() } : {}),
        ...(session.trim() ? { session: session.trim() } : {}),
      };
    });
}

async function logEntries(paths: StorePaths, project: ProjectPaths, limit: number) {
  const fmt =
    '%H%x1f%h%x1f%aI%x1f%s%x1f%(trailers:key=Hermes-Turn,valueonly)%x1f%(trailers:key=Hermes-Session,valueonly)%x1e';
  const r = await runGit(paths.store, ['log', `-n${limit}`, `--format=${fmt}`, project.ref]);
  return r.ok ? parseLog(r.stdout) : [];
}

/**
 * Lists the checkpoints of `cwd`, newest first, each with the files that changed after it.
 * @param opts.limit at most this many (default 50).
 * @returns `[]` when the directory has none (or the store does not exist yet).
 */
export async function listCheckpoints(
  home: HermesHome,
  cwd: string,
  opts: { limit?: number } = {},
): Promise<CheckpointInfo[]> {
  const paths = storePaths(home);
  const project = projectPaths(paths, cwd);
  if (!readProjectMeta(project)) return [];
  return withStoreLock(paths, async () => {
    const entries = await logEntries(paths, project, opts.limit ?? CHECKPOINT_LIST_LIMIT);
    if (entries.length === 0) return [];
    const now = await currentTree(paths, project);
    const out: CheckpointInfo[] = [];
    for (let i = 0; i < entries.length; i++) {
      const next = i === 0 ? now : entries[i - 1]!.hash;
      const files = next
        ? splitZ(
            await git(paths.store, ['diff', '--name-only', '-z', '--no-renames', entries[i]!.hash, next]),
          )
        : [];
      out.push({ ...entries[i]!, files });
    }
    return out;
  });
}

/** Projects that have checkpoints in this home (from `projects/*.json`), most recently touched first. */
export function listCheckpointProjects(home: HermesHome): ProjectMeta[] {
  const dir = join(storePaths(home).store, 'projects');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: ProjectMeta[] = [];
  for (const n of names) {
    const meta = readProjectMeta({ meta: join(dir, n) } as ProjectPaths);
    if (meta) out.push(meta);
  }
  return out.sort((a, b) => b.last_touch - a.last_touch);
}

/**
 * Finds a checkpoint of `cwd` from what a user typed: a list number (`1` = newest) or a commit
 * hash prefix (4–40 hex digits), also a hash it had before pruning re-created it.
 * @throws CheckpointError when there is no such checkpoint of this directory.
 */
export async function resolveCheckpoint(home: HermesHome, cwd: string, token: string): Promise<string> {
  const paths = storePaths(home);
  const project = projectPaths(paths, cwd);
  const t = token.trim();
  const entries = readProjectMeta(project) ? await logEntries(paths, project, 1000) : [];
  if (entries.length === 0) throw new CheckpointError(`No checkpoints for ${project.workdir}.`);
  if (/^\d{1,3}$/.test(t)) {
    const n = Number(t);
    const e = entries[n - 1];
    if (!e || n < 1) throw new CheckpointError(`No checkpoint #${t}: there are ${entries.length}.`);
    return e.hash;
  }
  if (!/^[0-9a-f]{4,40}$/i.test(t))
    throw new CheckpointError(`"${t}" is neither a checkpoint number nor a commit hash.`);
  let matches = entries.filter((e) => e.hash.startsWith(t.toLowerCase()));
  if (matches.length === 0) {
    const current = new Set(checkpointAliases(paths, project, t.toLowerCase())); // pruning re-created it
    matches = entries.filter((e) => current.has(e.hash));
  }
  if (matches.length === 0) throw new CheckpointError(`No checkpoint ${t} for ${project.workdir}.`);
  if (matches.length > 1)
    throw new CheckpointError(`"${t}" matches ${matches.length} checkpoints; give more digits.`);
  return matches[0]!.hash;
}

/**
 * The changes from checkpoint `token` (number or hash, see `resolveCheckpoint`) to the current
 * files of `cwd`.
 * @throws CheckpointError for an unknown checkpoint.
 */
export async function diffCheckpoint(home: HermesHome, cwd: string, token: string): Promise<DiffResult> {
  const hash = await resolveCheckpoint(home, cwd, token);
  const paths = storePaths(home);
  const project = projectPaths(paths, cwd);
  return withStoreLock(paths, async () => {
    const now = await currentTree(paths, project);
    if (!now) throw new CheckpointError(`${project.workdir} has too many files to compare.`);
    const stat = await git(paths.store, ['diff', '--stat', '--no-color', hash, now]);
    const diff = await git(paths.store, ['diff', '--no-color', '--no-ext-diff', hash, now]);
    const files = splitZ(await git(paths.store, ['diff', '--name-only', '-z', '--no-renames', hash, now]));
    return { hash, stat, diff, files };
  });
}

function checkRelative(workdir: string, file: string): string {
  if (file.trim() === '' || isAbsolute(file))
    throw new CheckpointError(`"${file}": give a path relative to ${workdir}`);
  const abs = resolve(workdir, file);
  const rel = relative(workdir, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new CheckpointError(`"${file}" is outside ${workdir}`);
  return rel.split(sep).join('/');
}

function removeEmptyParents(workdir: string, file: string): void {
  let dir = dirname(file);
  while (dir.startsWith(workdir + sep)) {
    try {
      rmdirSync(dir); // fails (and stops) when not empty
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

/**
 * Restores `cwd` (or one file of it) to checkpoint `token` (number or hash). The current state is
 * snapshotted first (`undo`). Files changed since the checkpoint are written back; files the
 * checkpoint did not have are deleted (only files the store tracks: excluded ones are never touched).
 * @param opts.file restore only this path (relative to `cwd`).
 * @param opts.maxSnapshots when given, checkpoints beyond it are dropped after the restore (the
 *   undo snapshot may push the count over); `restored` and `undo` then carry the new hashes, and
 *   `restored` may name a checkpoint that was dropped.
 * @throws CheckpointError for an unknown checkpoint or a path outside `cwd`; Error when git fails.
 */
export async function restoreCheckpoint(
  home: HermesHome,
  cwd: string,
  token: string,
  opts: { file?: string; session?: string } & RetentionOptions = {},
): Promise<RestoreResult> {
  const hash = await resolveCheckpoint(home, cwd, token);
  const paths = storePaths(home);
  const project = projectPaths(paths, cwd);
  const only = opts.file ? checkRelative(project.workdir, opts.file) : undefined;
  return withStoreLock(paths, async () => {
    const pre = await snapshot(paths, project, {
      reason: `before restoring ${hash.slice(0, 8)}`,
      turn: 'restore',
      ...(opts.session ? { session: opts.session } : {}),
    });
    const undo = pre.hash ?? (await refTip(paths, project));
    const current = undo ?? hash;
    const scope = only ? ['--', only] : [];
    const changed = splitZ(
      await git(paths.store, ['diff', '--name-status', '-z', '--no-renames', hash, current, ...scope]),
    );
    const written: string[] = [];
    const deleted: string[] = [];
    for (let i = 0; i + 1 < changed.length; i += 2) {
      const status = changed[i]!;
      const rel = changed[i + 1]!;
      if (status === 'A') deleted.push(rel);
      else written.push(rel);
    }
    for (const rel of deleted) {
      const abs = join(project.workdir, rel);
      try {
        unlinkSync(abs);
        removeEmptyParents(project.workdir, abs);
      } catch {
        /* already gone */
      }
    }
    if (written.length > 0) {
      for (let i = 0; i < written.length; i += 200) {
        await git(paths.store, ['checkout', hash, '--', ...written.slice(i, i + 200)], {
          workdir: project.workdir,
          index: project.index,
        });
      }
    }
    // only now may the undo snapshot's count make the restored checkpoint go (the original's order)
    const renamed =
      opts.maxSnapshots !== undefined
        ? (await enforceSnapshotLimit(paths, project, opts.maxSnapshots)).renamed
        : new Map<string, string>();
    const restored = renamed.get(hash) ?? hash;
    const undoHash = undo ? (renamed.get(undo) ?? undo) : undefined;
    return { restored, ...(undoHash ? { undo: undoHash } : {}), written, deleted };
  });
}
