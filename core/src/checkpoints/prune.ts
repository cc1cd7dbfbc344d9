/**
 * Keeping the checkpoint store bounded (the
 * original's tools/checkpoint_pruning.py `Pruner.trim` and `reclaim`).
 *
 * - Count limit, per project: after a snapshot, when the project's ref holds more than
 *   `checkpoints.max_snapshots` commits (default 50, the original's default config), the oldest
 *   are dropped by rewriting the ref's chain: the newest `max` commits are re-created with the
 *   same tree, author, committer, dates and message (trailers included), the oldest kept one
 *   becoming a root commit. Their hashes therefore change; `TrimResult.renamed` maps old to new.
 *   Other projects' refs are never read or written. The old hashes stay usable: `store/renamed/
 *   <hash16>.json` maps each old hash of a retained checkpoint to its current one
 *   (`checkpointAliases`), so a hash shown earlier ("To undo: /rollback 1a2b3c4d") still resolves.
 * - Garbage collection: a rewrite leaves `<home>/checkpoints/gc-pending`; `maybeGcStore` then runs
 *   `git reflog expire --expire=now --all` and `git gc --prune=now` under the store's GIT_DIR (never
 *   the user's repository) at most once per `CHECKPOINT_GC_INTERVAL_MS`, recording the time in
 *   `<home>/checkpoints/last-gc`. Callers hold the store lock, so no snapshot is half-written
 *   while unreachable objects are deleted.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitEnv, GIT_TIMEOUT_MS, type ProjectPaths, type StorePaths } from './store.js';

/** Snapshots kept per project when the caller names no limit (config `checkpoints.max_snapshots`). */
export const CHECKPOINT_MAX_SNAPSHOTS = 50;
/** Least time between two `git gc` runs of one store, ms (one day). */
export const CHECKPOINT_GC_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** What `trimProjectHistory` did. */
export interface TrimResult {
  /** Commits dropped from the project's history (0: nothing to do). */
  dropped: number;
  /** Old hash → new hash of every retained commit (empty when nothing was dropped). */
  renamed: Map<string, string>;
}

/** Marker files of the gc throttle. */
function gcMarkers(paths: StorePaths): { pending: string; last: string } {
  return { pending: join(paths.base, 'gc-pending'), last: join(paths.base, 'last-gc') };
}

function aliasFile(paths: StorePaths, project: ProjectPaths): string {
  return join(paths.store, 'renamed', `${project.hash}.json`);
}

function readAliases(paths: StorePaths, project: ProjectPaths): Record<string, string> {
  try {
    const v = JSON.parse(readFileSync(aliasFile(paths, project), 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * Current hashes of the project's checkpoints that once had a hash starting with `prefix`
 * (lower-case hex), after history rewrites; `[]` when none.
 */
export function checkpointAliases(paths: StorePaths, project: ProjectPaths, prefix: string): string[] {
  const aliases = readAliases(paths, project);
  return [
    ...new Set(
      Object.keys(aliases)
        .filter((k) => k.startsWith(prefix))
        .map((k) => aliases[k]!),
    ),
  ];
}

/** Records `renamed` (old → new of every retained commit); aliases of dropped commits go. */
function recordAliases(paths: StorePaths, project: ProjectPaths, renamed: Map<string, string>): void {
  const next: Record<string, string> = {};
  for (const [old, cur] of Object.entries(readAliases(paths, project))) {
    const now = renamed.get(cur);
    if (now) next[old] = now; // still retained: follow it; else it was dropped
  }
  for (const [old, cur] of renamed) next[old] = cur;
  mkdirSync(join(paths.store, 'renamed'), { recursive: true });
  writeFileSync(
    aliasFile(paths, project),
    `${JSON.stringify(next)}
`,
  );
}

/** `git cat-file --batch` of `shas`: the raw bodies, in order. @throws Error when one is missing. */
async function readRawCommits(store: string, shas: string[]): Promise<Buffer[]> {
  const { execa } = await import('execa');
  const r = await execa('git', ['cat-file', '--batch'], {
    cwd: store,
    env: gitEnv(store),
    extendEnv: false,
    input: `${shas.join('\n')}\n`,
    encoding: 'buffer',
    reject: false,
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.exitCode !== 0) throw new Error(`git cat-file failed: ${Buffer.from(r.stderr).toString().trim()}`);
  const out = Buffer.from(r.stdout);
  const bodies: Buffer[] = [];
  let pos = 0;
  for (const sha of shas) {
    const eol = out.indexOf(0x0a, pos);
    const header = out.subarray(pos, eol).toString();
    const [got, type, size] = header.split(' ');
    if (got !== sha || type !== 'commit' || size === undefined)
      throw new Error(`checkpoint ${sha} is not a readable commit (${header})`);
    const start = eol + 1;
    bodies.push(out.subarray(start, start + Number(size)));
    pos = start + Number(size) + 1; // the body is followed by a newline
  }
  return bodies;
}

/** The commit `body` with its parents replaced by `parent` (none when undefined). */
function reparent(body: Buffer, parent: string | undefined): Buffer {
  const end = body.indexOf('\n\n');
  const headerEnd = end < 0 ? body.length : end;
  const lines = body.subarray(0, headerEnd).toString('utf8').split('\n');
  const kept = lines.filter((l) => !l.startsWith('parent '));
  if (parent) kept.splice(1, 0, `parent ${parent}`); // right after `tree …`, as git writes it
  return Buffer.concat([Buffer.from(kept.join('\n'), 'utf8'), body.subarray(headerEnd)]);
}

const objectId = (body: Buffer): string =>
  createHash('sha1').update(`commit ${body.length}\0`).update(body).digest('hex');

/**
 * Drops the oldest snapshots of one project so that at most `keep` remain (caller holds the
 * store lock). Writes the re-created commits with one `git hash-object --stdin-paths` and moves
 * the ref with a compare-and-swap `update-ref`, then marks the store for gc.
 * @param keep snapshots to keep, at least 1 (smaller values count as 1).
 * @throws Error when git fails or a rewritten commit's hash is not what git computed; the ref is
 *   then unchanged.
 */
export async function trimProjectHistory(
  paths: StorePaths,
  project: ProjectPaths,
  keep: number,
): Promise<TrimResult> {
  const max = Math.max(1, Math.floor(keep));
  const none: TrimResult = { dropped: 0, renamed: new Map() };
  const count = Number((await git(paths.store, ['rev-list', '--count', project.ref])).trim());
  if (!(count > max)) return none;
  const tip = (await git(paths.store, ['rev-parse', '--verify', `${project.ref}^{commit}`])).trim();
  const retained = (await git(paths.store, ['rev-list', `-n${max}`, tip])).trim().split('\n').reverse();
  const bodies = await readRawCommits(paths.store, retained);
  const tmp = mkdtempSync(join(paths.base, 'prune-'));
  try {
    const renamed = new Map<string, string>();
    const files: string[] = [];
    let parent: string | undefined;
    bodies.forEach((body, i) => {
      const next = reparent(body, parent);
      const file = join(tmp, String(i));
      writeFileSync(file, next);
      files.push(file);
      parent = objectId(next);
      renamed.set(retained[i]!, parent);
    });
    const { execa } = await import('execa');
    const r = await execa('git', ['hash-object', '-t', 'commit', '-w', '--stdin-paths'], {
      cwd: paths.store,
      env: gitEnv(paths.store),
      extendEnv: false,
      input: `${files.join('\n')}\n`,
      reject: false,
      timeout: GIT_TIMEOUT_MS,
    });
    if (r.exitCode !== 0) throw new Error(`git hash-object failed: ${String(r.stderr).trim()}`);
    const written = String(r.stdout).trim().split('\n');
    const expected = [...renamed.values()];
    if (written.join(' ') !== expected.join(' '))
      throw new Error('rewritten checkpoints got unexpected hashes; history left unchanged');
    await git(paths.store, ['update-ref', project.ref, parent!, tip]);
    recordAliases(paths, project, renamed);
    writeFileSync(gcMarkers(paths).pending, `${Date.now()}\n`);
    return { dropped: count - max, renamed };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Retention of `createCheckpoint` and `restoreCheckpoint`. */
export interface RetentionOptions {
  /**
   * Checkpoints kept per project (config `checkpoints.max_snapshots`). `createCheckpoint`
   * defaults to `CHECKPOINT_MAX_SNAPSHOTS` (50); `restoreCheckpoint` prunes only when given.
   */
  maxSnapshots?: number;
}

/**
 * Drops the project's checkpoints beyond `max` (`trimProjectHistory`), then collects garbage when
 * due (`maybeGcStore`). Caller holds the store lock. @throws Error when git fails.
 */
export async function enforceSnapshotLimit(
  paths: StorePaths,
  project: ProjectPaths,
  max: number,
): Promise<TrimResult> {
  const trimmed = await trimProjectHistory(paths, project, max);
  await maybeGcStore(paths);
  return trimmed;
}

/** Options of `maybeGcStore`. */
export interface GcOptions {
  /** Run even when the last gc is recent or no rewrite is pending. */
  force?: boolean;
  /** Current time, ms since the epoch (tests). */
  now?: number;
  /** Least time since the last gc, ms; default `CHECKPOINT_GC_INTERVAL_MS`. */
  intervalMs?: number;
}

/**
 * Deletes unreachable objects of the store when a rewrite left some and the last gc is older
 * than the interval (caller holds the store lock). Returns true when gc ran.
 * @throws Error when git gc fails (the pending marker then stays for the next try).
 */
export async function maybeGcStore(paths: StorePaths, opts: GcOptions = {}): Promise<boolean> {
  const markers = gcMarkers(paths);
  const now = opts.now ?? Date.now();
  if (!opts.force) {
    let pending = false;
    try {
      readFileSync(markers.pending);
      pending = true;
    } catch {
      /* nothing rewritten since the last gc */
    }
    if (!pending) return false;
    let last = 0;
    try {
      last = Number(readFileSync(markers.last, 'utf8').trim()) || 0;
    } catch {
      /* never collected */
    }
    if (now - last < (opts.intervalMs ?? CHECKPOINT_GC_INTERVAL_MS)) return false;
  }
  await git(paths.store, ['reflog', 'expire', '--expire=now', '--all']);
  await git(paths.store, ['gc', '--prune=now', '--quiet'], { timeoutMs: GIT_TIMEOUT_MS * 5 });
  // packing every ref may leave refs/ without sub-folders; git still wants refs/heads in a bare repo
  mkdirSync(join(paths.store, 'refs', 'heads'), { recursive: true });
  writeFileSync(markers.last, `${now}\n`);
  rmSync(markers.pending, { force: true });
  return true;
}
