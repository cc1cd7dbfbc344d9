/**
 * Path handling shared by the file tools (`read_file`, `write_file`, `patch`, `search_files`).
 *
 * Relative paths resolve against the session's working directory (`ctx.cwd`), `~` against the
 * user's home. Writes into the Hermes root (every profile's config.yaml, .env, state.db, cron
 * jobs …) are refused except its workspace/ and skills/ folders, and reading keys (.env,
 * auth.json, the discovery file) or another profile's files is refused: a model that could edit or read them could switch
 * the guard off or leak keys. A project's secret-bearing environment files (`.env`, `.env.local`,
 * `.envrc` …, not `.env.example`) are not read either: their values would go to the model. The `touch-hermes-home` and `write-agent-config-files`
 * dangerous patterns cover the terminal side. System and credential paths outside the root
 * (~/.ssh, shell start-up files, /etc …) are refused by `sensitive-paths.ts`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isInside, resolveRealPath } from '../util/paths.js';
import { secretEnvReadReason, sensitiveWriteReason } from './sensitive-paths.js';
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
    if (!isInside(root, t)) continue;
    if (WRITABLE_HOME_DIRS.some((d) => isInside(real(join(ctx.home.dir, d)), t))) return undefined;
    return `${abs} is inside Hermes's own home (${ctx.home.root}: settings, keys, sessions, jobs); the agent may not edit it. Ask the user to change it (hermes config set …).`;
  }
  return undefined;
}

/**
 * Why `abs` belongs to another profile, or undefined when it does not. Profiles never see each
 * other's data: a named profile may not reach the root
 * home (the default profile's config, memories, sessions, state.db, logs, the discovery file) nor
 * other `profiles/<name>` folders; the default profile may not reach `profiles/*`. Checked on the
 * path as written and on its real path (a symlink into another profile counts).
 */
export function foreignProfileReason(ctx: Pick<ToolContext, 'home'>, abs: string): string | undefined {
  const own = [ctx.home.dir, real(ctx.home.dir)];
  const roots = [ctx.home.root, real(ctx.home.root)];
  const profiles = roots.map((r) => join(r, 'profiles'));
  const isDefault = own.some((d) => roots.includes(d));
  for (const t of [resolve(abs), real(abs)]) {
    if (!roots.some((r) => isInside(r, t))) continue;
    if (isDefault) {
      const profilesEntry = profiles.some((p) => isInside(p, t) && t !== p);
      if (!profilesEntry) continue;
    } else if (own.some((d) => isInside(d, t))) {
      continue;
    }
    return `${abs} belongs to another Hermes profile (profiles never see each other's data); the agent may not read it.`;
  }
  return undefined;
}

/**
 * True when the folder `dir` may hold another profile's files: it is inside the Hermes root or
 * contains it. Lets a search skip `foreignProfileReason` per result when it cannot matter.
 */
export function mayHoldForeignProfiles(ctx: ToolContext, dir: string): boolean {
  const roots = [ctx.home.root, real(ctx.home.root)];
  const dirs = [resolve(dir), real(dir)];
  return roots.some((r) => dirs.some((d) => isInside(r, d) || isInside(d, r)));
}

/**
 * Why reading `abs` is refused, or undefined when allowed: another profile's files
 * (`foreignProfileReason`), the `.env` (keys) and `auth.json` files of any profile under the
 * Hermes root, the daemon's discovery file (its token), and secret-bearing environment files in
 * any folder (`.env`, `.env.local`, `.envrc` …; not `.env.example`: `secretEnvReadReason`).
 */
export function protectedReadReason(ctx: Pick<ToolContext, 'home'>, abs: string): string | undefined {
  const foreign = foreignProfileReason(ctx, abs);
  if (foreign) return foreign;
  const target = real(abs);
  const root = real(ctx.home.root);
  if (isInside(root, target) || isInside(ctx.home.root, resolve(abs))) {
    const name = target.split('/').pop() ?? '';
    if (name === '.env' || name === 'auth.json' || name === 'tui-gateway.json' || name.endsWith('.env')) {
      return `${abs} holds Hermes's keys or tokens; the agent may not read it.`;
    }
  }
  return secretEnvReadReason(abs);
}
