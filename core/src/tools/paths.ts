/**
 * Path handling shared by the file tools (`read_file`, `write_file`, `patch`, `search_files`).
 *
 * Relative paths resolve against the session's working directory (`ctx.cwd`), `~` against the
 * user's home. Writes into the profile's own `config.yaml` and `.env` are refused: they hold the
 * approval settings and the keys, and a model that could edit them could switch the guard off
 * (DESIGN §6: "the model can never bypass or see the guard"). The `write-hermes-config`
 * dangerous pattern covers the same files on the terminal side.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
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

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/**
 * Why a write to `abs` is refused, or undefined when it is allowed. Refuses the profile's
 * `config.yaml` and `.env` (also through a symlink).
 */
export function protectedWriteReason(ctx: ToolContext, abs: string): string | undefined {
  const target = real(abs);
  for (const file of [ctx.home.configFile, ctx.home.envFile]) {
    if (target === real(file) || resolve(abs) === resolve(file)) {
      return `${abs} is Hermes's own settings file; the agent may not edit it. Ask the user to change it (hermes config set …).`;
    }
  }
  return undefined;
}
