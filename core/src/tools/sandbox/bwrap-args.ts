/**
 * The bubblewrap argv of one sandboxed run. Pure: takes the plan (folders, what to hide, network)
 * and returns the arguments placed before the command; mounts are applied by bwrap in order.
 *
 * 1. `--ro-bind / /`: the whole file system, read-only.
 * 2. `--dev /dev` (a private /dev: null, zero, random, urandom, tty, pts, shm), `--proc /proc`.
 * 3. `--bind <tmpDir> /tmp` and `TMPDIR=/tmp`: the session's own temp folder; the host's /tmp is
 *    not reachable. Caches go there too (`npm_config_cache=/tmp/.npm`, `XDG_CACHE_HOME=/tmp/.cache`:
 *    npm, pip and most tools), since the home is read-only.
 * 4. `--bind <cwd> <cwd>`: the workspace, writable.
 * 5. Each hidden folder becomes an empty tmpfs of mode 000 (000 for a folder not holding the
 *    workspace, 0111 — traverse only — for one that does); each hidden file a read-only bind of a
 *    mode-000 placeholder. `--cap-drop ALL` makes these unreadable even for root.
 * 6. When the workspace lies inside a hidden folder (a profile's `workspace/` under the Hermes
 *    root), it is bound writable again on top.
 * 7. `readOnlyPaths` are bound read-only on top (execute_code's script folder under the host's /tmp).
 * 8. Namespaces: `--unshare-all` (user, ipc, pid, uts, cgroup, net) with `--share-net` when the
 *    network is on; `--die-with-parent` (the command dies with the daemon) unless the run is
 *    detached. No `--new-session`: the command stays in the caller's process group, so killing
 *    the group (timeout, interrupt) kills bwrap, and with it the whole pid namespace.
 */
import { isAbsolute, relative } from 'node:path';

/** The two confining modes (`off` never reaches bwrap). */
export type ConfiningMode = 'workspace' | 'strict';

/** Everything one bwrap argv depends on. All paths absolute. */
export interface BwrapPlan {
  mode: ConfiningMode;
  /** The workspace: the one writable folder (besides /tmp), and where the command starts. */
  cwd: string;
  /** Where the command starts when not in `cwd` (a `workdir` elsewhere: read-only there). */
  chdir?: string;
  /** The session's temp folder on the host, mounted at /tmp. */
  tmpDir: string;
  /** Network reachable; ignored (off) in `strict`. */
  network: boolean;
  /** Existing folders to hide. */
  hiddenDirs: readonly string[];
  /** Existing files to hide. */
  hiddenFiles: readonly string[];
  /** A mode-000 empty file on the host, bound over each hidden file. */
  placeholderFile: string;
  /** Host paths bound read-only at the same place after everything else (a script's folder). */
  readOnlyPaths?: readonly string[];
  /** True: leave out `--die-with-parent` (a process meant to outlive its caller). */
  detach?: boolean;
}

/** True when `inner` is `outer` or lies inside it. */
export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The bwrap arguments (without `bwrap` itself and without the command) for `plan`. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--bind', plan.tmpDir, '/tmp', '--setenv', 'TMPDIR', '/tmp');
  // package managers write caches under the (read-only) home: give them the session's temp
  args.push('--setenv', 'npm_config_cache', '/tmp/.npm', '--setenv', 'XDG_CACHE_HOME', '/tmp/.cache');
  args.push('--bind', plan.cwd, plan.cwd);
  let rebind = false;
  for (const dir of plan.hiddenDirs) {
    const holdsCwd = isWithin(dir, plan.cwd);
    // a hidden folder that is the workspace (or inside it, e.g. `~/.ssh` in a home-wide workspace
    // is not this case) keeps its folder; one holding the workspace lets it be reached
    if (holdsCwd && dir === plan.cwd) continue;
    rebind ||= holdsCwd;
    args.push('--perms', holdsCwd ? '0111' : '0000', '--tmpfs', dir);
  }
  for (const file of plan.hiddenFiles) {
    if (isWithin(plan.cwd, file)) continue; // files inside the workspace stay the workspace's
    args.push('--ro-bind', plan.placeholderFile, file);
  }
  if (rebind) args.push('--bind', plan.cwd, plan.cwd);
  for (const p of plan.readOnlyPaths ?? []) args.push('--ro-bind', p, p);
  args.push('--unshare-all');
  if (plan.network && plan.mode !== 'strict') args.push('--share-net');
  if (!plan.detach) args.push('--die-with-parent');
  args.push('--cap-drop', 'ALL', '--chdir', plan.chdir ?? plan.cwd, '--');
  return args;
}
