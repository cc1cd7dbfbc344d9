/**
 * Whether the sandbox can run on this machine: `bwrap` (bubblewrap) found on PATH and able to
 * start a confined process here. Probed once per process and cached (`detectSandbox`); the probe
 * runs `bwrap --ro-bind / / --unshare-all --die-with-parent --cap-drop ALL true`, which fails
 * where user namespaces are disabled or a container forbids mounts — the stderr line of bwrap is
 * kept as the reason.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** What `detectSandbox` found. */
export interface SandboxSupport {
  /** True when bwrap ran a confined `true` here. */
  available: boolean;
  /** Absolute path of the bwrap found on PATH; absent when none. */
  path?: string;
  /** `bubblewrap 0.8.0` as bwrap prints it; absent when it could not be asked. */
  version?: string;
  /**
   * What the kernel says about unprivileged user namespaces (`enabled`, `disabled
   * (kernel.unprivileged_userns_clone = 0)`, `max_user_namespaces = 0` …), or `unknown`.
   */
  userNamespaces: string;
  /** Why the sandbox cannot run (a sentence naming the fix); absent when `available`. */
  reason?: string;
}

/** The argv of the probe: the smallest confinement the sandbox relies on. */
export const PROBE_ARGS = [
  '--ro-bind',
  '/',
  '/',
  '--unshare-all',
  '--die-with-parent',
  '--cap-drop',
  'ALL',
  'true',
];

/** First executable named `name` on `pathVar` (`PATH`), or undefined. */
export function findOnPath(name: string, pathVar: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

function readSysctl(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The kernel's user-namespace settings as one phrase (see `SandboxSupport.userNamespaces`). */
export function userNamespaceState(): string {
  const clone = readSysctl('/proc/sys/kernel/unprivileged_userns_clone');
  if (clone === '0') return 'disabled (kernel.unprivileged_userns_clone = 0)';
  const max = readSysctl('/proc/sys/user/max_user_namespaces');
  if (max === '0') return 'disabled (user.max_user_namespaces = 0)';
  const apparmor = readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns');
  if (apparmor === '1') return 'restricted by AppArmor (kernel.apparmor_restrict_unprivileged_userns = 1)';
  if (max !== undefined || clone !== undefined) return 'enabled';
  return 'unknown';
}

/**
 * Probes bwrap at `path` (or the one on PATH) without caching; see the file comment.
 * @param opts.pathVar the PATH searched (tests pass an empty one to see "not installed").
 */
export function probeSandbox(opts: { path?: string; pathVar?: string } = {}): SandboxSupport {
  const userNamespaces = userNamespaceState();
  const path = opts.path ?? findOnPath('bwrap', opts.pathVar);
  if (!path) {
    return {
      available: false,
      userNamespaces,
      reason:
        'bwrap (bubblewrap) is not installed: install it (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)',
    };
  }
  const v = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  const version = v.status === 0 ? v.stdout.trim() : undefined;
  const run = spawnSync(path, PROBE_ARGS, { encoding: 'utf8', timeout: 10_000 });
  const base = { path, userNamespaces, ...(version ? { version } : {}) };
  if (run.status === 0) return { available: true, ...base };
  const said = (run.stderr ?? '').trim().split('\n').pop() || (run.error?.message ?? `exit ${run.status}`);
  const hint =
    userNamespaces.startsWith('enabled') || userNamespaces === 'unknown'
      ? ''
      : ` — user namespaces are ${userNamespaces}`;
  return { available: false, ...base, reason: `bwrap cannot start a sandbox here: ${said}${hint}` };
}

let cached: SandboxSupport | undefined;

/** `probeSandbox()` once per process; later calls return the same answer. */
export function detectSandbox(): SandboxSupport {
  cached ??= probeSandbox();
  return cached;
}

/** Forgets the cached probe (tests; after installing bwrap). */
export function resetSandboxDetection(): void {
  cached = undefined;
}
