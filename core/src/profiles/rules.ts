/**
 * What `create --clone`, `create --clone-all` and `export` take from a home, and what they never
 * take. Names are relative to the home's folder,
 * `/`-separated.
 */

/** Files copied by `--clone` when present (the original's `_CLONE_CONFIG_FILES` + `_CLONE_SUBDIR_FILES`). */
export const CLONE_FILES: readonly string[] = [
  'config.yaml',
  '.env',
  'SOUL.md',
  'memories/MEMORY.md',
  'memories/USER.md',
];

/** Folders copied whole by `--clone`: the installed skills. */
export const CLONE_DIRS: readonly string[] = ['skills'];

/**
 * History, never copied by `--clone-all` from any source (the original's
 * `_CLONE_ALL_HISTORY_EXCLUDE_ROOT`, plus `logs` and the TUI's typed-prompt history).
 * `profile.yaml` describes the source, not the clone, so it is not copied either.
 */
export const CLONE_ALL_HISTORY_EXCLUDE: ReadonlySet<string> = new Set([
  'state.db',
  'state.db-wal',
  'state.db-shm',
  'sessions',
  'backups',
  'state-snapshots',
  'checkpoints',
  'logs',
  'processes', // background process logs (core/src/processes/)
  'media', // images attached to stored messages (core/src/images/)
  'input_history.jsonl',
  'profile.yaml',
]);

/**
 * Infrastructure at the root, skipped when the source is `default` (the original's
 * `_CLONE_ALL_DEFAULT_EXCLUDE_ROOT`) together with the root-only runtime files
 * (sticky selection, daemon discovery, lock and shutdown marker, the record of running tool
 * processes in `run/`).
 */
export const ROOT_INFRA_EXCLUDE: ReadonlySet<string> = new Set([
  'hermes-agent',
  '.worktrees',
  'profiles',
  'bin',
  'node_modules',
  'active_profile',
  'tui-gateway.json',
  'tui-gateway.lock',
  '.clean_shutdown',
  'run',
]);

/** Runtime state and caches written by processes, never copied or exported at any depth. */
const RUNTIME_NAMES: ReadonlySet<string> = new Set([
  'gateway.pid',
  'gateway_state.json',
  'processes.json',
  'tool-processes.json',
  'auth.lock',
  '.update_check',
  '.config_cache.json', // core/src/config/config-cache.ts: keyed by this home's config.yaml inode
]);

/**
 * True for pid, lock, socket and temp files (and proper-lockfile's `*.lock` folders), at any
 * depth: pid, lock and discovery files are never cloned or exported.
 */
export function isRuntimeName(name: string): boolean {
  return RUNTIME_NAMES.has(name) || /\.(pid|lock|sock|tmp)$/.test(name);
}

/**
 * Top-level names never exported (the original's `_DEFAULT_EXPORT_EXCLUDE_ROOT`), plus the
 * session index and the TUI prompt history: they point into `state.db`, which is not exported.
 */
export const EXPORT_EXCLUDE_TOP: ReadonlySet<string> = new Set([
  ...ROOT_INFRA_EXCLUDE,
  'state.db',
  'state.db-shm',
  'state.db-wal',
  'hermes_state.db',
  'response_store.db',
  'response_store.db-shm',
  'response_store.db-wal',
  'image_cache',
  'audio_cache',
  'document_cache',
  'browser_screenshots',
  'checkpoints',
  'sandboxes',
  'logs',
  'processes',
  'sessions',
  'media', // images of stored messages: they belong to state.db
  'input_history.jsonl',
]);

/** Secrets never exported at any depth (an export never contains .env or auth.json). */
export const EXPORT_EXCLUDE_ANYWHERE: ReadonlySet<string> = new Set([
  '.env',
  'auth.json',
  'state.db',
  'state.db-wal',
  'state.db-shm',
]);
