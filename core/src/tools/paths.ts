/**
 * Path handling shared by the file tools (`read_file`, `write_file`, `patch`, `search_files`).
 *
 * Relative paths resolve against the session's working directory (`ctx.cwd`), `~` against the
 * user's home. Writes into the Hermes root (every profile's config.yaml, .env, state.db, cron
 * jobs …) are refused except its workspace/ and skills/ folders, and reading keys (.env,
 * auth.json, the discovery file) is refused: a model that could edit or read them could switch
 * the guard off or leak keys (DESIGN §6). The `touch-hermes-home` and `write-agent-config-files`
 * dangerous patterns cover the terminal side. System and credential paths outside the root
 * (~/.ssh, shell start-up files, /etc …) are refused by `sensitive-paths.ts`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { resolveRealPath, sensitiveWriteReason } from './sensitive-paths.js';
import type { ToolContext } from './types.js';

/** Expands `~` / `~/…` and resolves `p` against `cwd`. Returns an absolute path. */
export function resolveToolPath(cwd: string, p: string): string {
  let path = p.trim();
  if (path === '~') path = homedir();
  else if (path.startsWith('~/')) path = join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** `abs` relative to `cwd` when inside it (`src/a.ts`), else absolute. For display. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
}

/** The real path, also of a file not created yet (see `resolveRealPath`). */
const real = resolveRealPath;

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Folders of a home the file tools may write in (the rest of the Hermes root is its own state). */
const WRITABLE_HOME_DIRS = ['workspace', 'skills'];

/**
 * Why a write to `abs` is refused, or undefined when it is allowed. Refuses everything inside
 * the Hermes root (every profile: config.yaml, .env, state.db, cron/jobs.json, pairing, the
 * discovery file …) except the home's `workspace/` and `skills/` folders, also through a symlink:
 * a model that could edit them could switch the guard off, schedule itself or read keys. Refuses
 * system and credential paths anywhere (`sensitiveWriteReason`: ~/.ssh, shell rc files, /etc …).
 */
export function protectedWriteReason(ctx: ToolContext, abs: string): string | undefined {
  const sensitive = sensitiveWriteReason(abs);
  if (sensitive) return sensitive;
  const target = real(abs);
  const root = real(ctx.home.root);
  for (const t of [target, resolve(abs)]) {
    if (!inside(root, t)) continue;
    if (WRITABLE_HOME_DIRS.some((d) => inside(real(join(ctx.home.dir, d)), t))) return undefined;
    return `${abs} is inside Hermes's own home (${ctx.home.root}: settings, keys, sessions, jobs); the agent may not edit it. Ask the user to change it (hermes config set …).`;
  }
  return undefined;
}

/**
 * Why reading `abs` is refused, or undefined when allowed: the `.env` (keys) and `auth.json`
 * files of any profile under the Hermes root, and the daemon's discovery file (its token).
 */
export function protectedReadReason(ctx: ToolContext, abs: string): string | undefined {
  const target = real(abs);
  const root = real(ctx.home.root);
  if (!inside(root, target) && !inside(ctx.home.root, resolve(abs))) return undefined;
  const name = target.split('/').pop() ?? '';
  if (name === '.env' || name === 'auth.json' || name === 'tui-gateway.json' || name.endsWith('.env')) {
    return `${abs} holds Hermes's keys or tokens; the agent may not read it.`;
  }
  return undefined;
}
