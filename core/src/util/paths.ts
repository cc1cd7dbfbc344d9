/**
 * Real paths and containment, for every check that decides by where a path leads: the file
 * tools' write deny-list and Hermes-home guard, the terminal's path-aware dangerous patterns,
 * `search_files`' profile filter and cron's `file:` delivery.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The real absolute path of `p` even when it does not exist: symlinks in every existing part are
 * resolved (a dangling final symlink is followed by hand, up to 40 hops), missing parts are
 * appended as written.
 */
export function resolveRealPath(p: string): string {
  let cur = resolve(p);
  const missing: string[] = [];
  for (let hops = 0; hops < 40;) {
    try {
      return join(realpathSync(cur), ...missing);
    } catch {
      /* does not exist (or a dangling link): look closer */
    }
    try {
      if (lstatSync(cur).isSymbolicLink()) {
        cur = resolve(dirname(cur), readlinkSync(cur));
        hops++;
        continue;
      }
    } catch {
      /* not there at all */
    }
    const parent = dirname(cur);
    if (parent === cur) break;
    missing.unshift(basename(cur));
    cur = parent;
  }
  return join(cur, ...missing);
}

/**
 * `p` as written and its real path (`resolveRealPath`), the latter only when it differs: a path
 * check must match either (macOS `/etc` → `/private/etc`, a symlinked home).
 */
export function pathForms(p: string): string[] {
  const real = resolveRealPath(p);
  return real === p ? [p] : [p, real];
}

/** True when `child` is `parent` itself or lies below it (both absolute; no symlinks resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
