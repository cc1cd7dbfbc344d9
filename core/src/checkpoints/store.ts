/**
 * The shared shadow git store behind checkpoints (the
 * original's tools/checkpoint_manager.py, v2 layout).
 *
 * One store per home, objects shared by every project:
 * ```
 * <home>/checkpoints/
 *   store/                      bare repository: HEAD, config, objects/ (shared, deduplicated)
 *     refs/hermes/<hash16>      one ref per project (its newest snapshot)
 *     indexes/<hash16>          one git index per project
 *     projects/<hash16>.json    one metadata file per project: {workdir, created_at, last_touch}
 *     excludes/<hash16>         per-project excludes (oversize files), rewritten at each snapshot
 *     renamed/<hash16>.json     old → current hash of checkpoints re-created by pruning (prune.ts)
 *     info/exclude              default excludes (dependencies, build output, caches, secrets)
 *   store.lock/                 cross-process lock (proper-lockfile + owner.json, store-lock.ts)
 *   gc-pending                  a history rewrite left unreachable objects (prune.ts)
 *   last-gc                     ms since the epoch of the last `git gc` (throttle, prune.ts)
 * ```
 * `<hash16>` is the first 16 hex digits of sha256(absolute real path of the working directory).
 *
 * Every git call runs with `GIT_DIR` = the store, `GIT_WORK_TREE` = the project and
 * `GIT_INDEX_FILE` = the project's index, with the user's global/system git config ignored, so
 * nothing is written into the user's directory or their own repository (`git status` there is
 * untouched) and no signing hook or credential prompt can fire.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { join, resolve } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { acquireStoreLock, untilAborted } from './store-lock.js';

/** Patterns never snapshotted (written to the store's `info/exclude`; the original's list). */
export const DEFAULT_EXCLUDES = [
  'node_modules/',
  'dist/',
  'build/',
  'target/',
  'out/',
  '.next/',
  '.nuxt/',
  '__pycache__/',
  '*.pyc',
  '*.pyo',
  '.cache/',
  '.pytest_cache/',
  '.mypy_cache/',
  '.ruff_cache/',
  'coverage/',
  '.coverage',
  '.venv/',
  'venv/',
  'env/',
  '.git/',
  '.hg/',
  '.svn/',
  '.worktrees/',
  '*.so',
  '*.dylib',
  '*.dll',
  '*.o',
  '*.a',
  '*.jar',
  '*.class',
  '*.exe',
  '*.obj',
  '*.mp4',
  '*.mov',
  '*.mkv',
  '*.webm',
  '*.zip',
  '*.tar',
  '*.tar.gz',
  '*.tgz',
  '*.7z',
  '*.rar',
  '*.iso',
  '.env',
  '.env.*',
  '.DS_Store',
  'Thumbs.db',
  '*.log',
];

/** Folder names skipped while counting files (the directory entries of `DEFAULT_EXCLUDES`). */
export const EXCLUDED_DIR_NAMES = new Set(
  DEFAULT_EXCLUDES.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)),
);

/** Timeout of one git call, ms. */
export const GIT_TIMEOUT_MS = 60_000;

/** Paths of the store of one home. */
export interface StorePaths {
  /** `<home>/checkpoints` */
  base: string;
  /** `<home>/checkpoints/store` (the bare repository, GIT_DIR). */
  store: string;
  /** `<home>/checkpoints/store.lock` */
  lock: string;
}

/** Where the store of `home` lives. */
export function storePaths(home: HermesHome): StorePaths {
  const base = home.checkpointsDir;
  return { base, store: join(base, 'store'), lock: join(base, 'store.lock') };
}

/** Canonical absolute path of a working directory (symlinks resolved when it exists). */
export function normalizeWorkdir(dir: string): string {
  const abs = resolve(dir);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/** The project key: sha256(normalized absolute path), first 16 hex digits. */
export function projectHash(workdir: string): string {
  return createHash('sha256').update(normalizeWorkdir(workdir)).digest('hex').slice(0, 16);
}

/** Paths of one project inside the store. */
export interface ProjectPaths {
  workdir: string;
  hash: string;
  ref: string;
  index: string;
  meta: string;
  excludes: string;
}

/** The ref, index, metadata and excludes files of the project at `workdir`. */
export function projectPaths(paths: StorePaths, workdir: string): ProjectPaths {
  const dir = normalizeWorkdir(workdir);
  const hash = projectHash(dir);
  return {
    workdir: dir,
    hash,
    ref: `refs/hermes/${hash}`,
    index: join(paths.store, 'indexes', hash),
    meta: join(paths.store, 'projects', `${hash}.json`),
    excludes: join(paths.store, 'excludes', hash),
  };
}

/** What one git call returned. */
export interface GitResult {
  ok: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a shadow git call: this process's environment without any inherited
 * `GIT_*` variable, plus `GIT_DIR`/`GIT_WORK_TREE`/`GIT_INDEX_FILE`, a fixed author, literal
 * pathspecs, and the user's global and system config disabled.
 */
export function gitEnv(store: string, workdir?: string, index?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_')) env[k] = v;
  env.GIT_DIR = store;
  if (workdir) env.GIT_WORK_TREE = workdir;
  if (index) env.GIT_INDEX_FILE = index;
  env.GIT_CONFIG_GLOBAL = devNull;
  env.GIT_CONFIG_SYSTEM = devNull;
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_LITERAL_PATHSPECS = '1'; // file names are never globs
  env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = 'Hermes Checkpoint';
  env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = 'hermes@local';
  return env;
}

/** Options of one git call. */
export interface GitCallOptions {
  workdir?: string;
  index?: string;
  /** Extra environment (e.g. a temporary `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Runs `git <args>` against the store. Never rejects for a failing git (see `ok`/`code`);
 * rejects only when git cannot be started at all (not installed).
 */
export async function runGit(store: string, args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
  const { execa } = await import('execa'); // loaded on first use: start-up speed
  const r = await execa('git', args, {
    cwd: opts.workdir ?? store,
    env: { ...gitEnv(store, opts.workdir, opts.index), ...opts.env },
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    stripFinalNewline: true,
    timeout: opts.timeoutMs ?? GIT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.failed && r.exitCode === undefined) {
    const why = r.timedOut ? `timed out after ${opts.timeoutMs ?? GIT_TIMEOUT_MS} ms` : r.shortMessage;
    return { ok: false, code: -1, stdout: '', stderr: `git ${args[0]}: ${why}` };
  }
  return {
    ok: r.exitCode === 0,
    code: r.exitCode ?? -1,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
  };
}

/** Like `runGit` but throws `Error("git <cmd> failed: <stderr>")` when git exits non-zero. */
export async function git(store: string, args: string[], opts: GitCallOptions = {}): Promise<string> {
  const r = await runGit(store, args, opts);
  if (!r.ok) throw new Error(`git ${args[0]} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout;
}

/**
 * Creates the bare store when missing (idempotent): `git init --bare`, a local config (no gc,
 * no signing), `info/exclude` with `DEFAULT_EXCLUDES`, and the per-project folders.
 * @throws Error when git is missing or `init` fails.
 */
export async function ensureStore(paths: StorePaths): Promise<void> {
  const { store } = paths;
  for (const d of ['indexes', 'projects', 'excludes']) mkdirSync(join(store, d), { recursive: true });
  if (!existsSync(join(store, 'HEAD'))) {
    await git(store, ['init', '--bare', '--quiet', store]);
    for (const [k, v] of [
      ['gc.auto', '0'],
      ['commit.gpgsign', 'false'],
      ['core.autocrlf', 'false'],
      ['core.quotepath', 'false'],
    ] as const)
      await git(store, ['config', k, v]);
  }
  const exclude = join(store, 'info', 'exclude');
  const wanted = `${DEFAULT_EXCLUDES.join('\n')}\n`;
  let current = '';
  try {
    current = readFileSync(exclude, 'utf8');
  } catch {
    /* missing */
  }
  if (current !== wanted) {
    mkdirSync(join(store, 'info'), { recursive: true });
    writeFileSync(exclude, wanted);
  }
}

/** A project's metadata file. */
export interface ProjectMeta {
  workdir: string;
  /** ms since the epoch */
  created_at: number;
  /** ms since the epoch of the latest snapshot */
  last_touch: number;
}

/** Reads `projects/<hash>.json`; undefined when missing or unreadable. */
export function readProjectMeta(project: ProjectPaths): ProjectMeta | undefined {
  try {
    const v = JSON.parse(readFileSync(project.meta, 'utf8')) as ProjectMeta;
    return typeof v.workdir === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Creates or refreshes `projects/<hash>.json` (keeps `created_at`). */
export function touchProjectMeta(project: ProjectPaths, now = Date.now()): void {
  const prev = readProjectMeta(project);
  const meta: ProjectMeta = {
    workdir: project.workdir,
    created_at: prev?.created_at ?? now,
    last_touch: now,
  };
  writeFileSync(project.meta, `${JSON.stringify(meta)}\n`);
}

/**
 * Runs `fn` holding the store's lock: in this process (a promise chain per store, so two
 * sessions of the daemon never interleave) and across processes (store-lock.ts on `store.lock`,
 * so `hermes checkpoints restore` never races the daemon; a dead holder's lock is taken over at
 * once). Both waits end with LockWaitAbortedError when `signal` aborts.
 */
export async function withStoreLock<T>(
  paths: StorePaths,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const prev = chains.get(paths.store) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const chained = prev.then(() => mine);
  chains.set(paths.store, chained);
  try {
    await untilAborted(prev, signal, 'another checkpoint of this store');
    mkdirSync(paths.base, { recursive: true });
    const release = await acquireStoreLock(paths.base, paths.lock, signal);
    try {
      return await fn();
    } finally {
      await release().catch(() => undefined);
    }
  } finally {
    done();
    if (chains.get(paths.store) === chained) chains.delete(paths.store);
  }
}

const chains = new Map<string, Promise<void>>();
