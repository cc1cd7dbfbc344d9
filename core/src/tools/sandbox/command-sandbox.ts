/**
 * The `CommandSandbox` of one session (types.ts): its lane's policy (policy.ts) applied with
 * bubblewrap (bwrap-args.ts) when the machine can run it (detect.ts), the fallback when it cannot,
 * and the explanation of what a sandboxed run was stopped from doing (classify.ts).
 *
 * What is hidden (`hiddenPaths`): the Hermes root (every profile's home, config, `.env`, state,
 * the daemon's token), a `~/.hermes` that is not the root, and the user's credential folders and
 * files: `~/.ssh`, `~/.gnupg`, `~/.aws`, `~/.config/gcloud`, `~/.azure`, `~/.kube`, `~/.docker`,
 * `~/.netrc`, `~/.git-credentials`, `~/.pgpass`. Only paths that exist are hidden.
 *
 * The session's temp folder is `<os tmp>/hermes-sandbox-<uid>/<session id>` (0700), mounted at
 * /tmp inside the sandbox; it is made on the first sandboxed run, touched at each, and removed by
 * another session's first run once unused for 7 days (`pruneSandboxTemps`).
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HermesConfig } from '../../config/schema.js';
import type { HermesHome } from '../../home/home.js';
import type { CommandSandbox, SandboxWrapOptions } from '../types.js';
import { bwrapArgs, isWithin } from './bwrap-args.js';
import { classifySandboxFailure } from './classify.js';
import { detectSandbox, type SandboxSupport } from './detect.js';
import { resolveSandboxPolicy, type SandboxLane, type SandboxMode, type SandboxPolicy } from './policy.js';

/** Credential folders under the user's home that sandboxed commands never see. */
export const HIDDEN_HOME_DIRS = ['.ssh', '.gnupg', '.aws', '.config/gcloud', '.azure', '.kube', '.docker'];
/** Credential files under the user's home that sandboxed commands never see. */
export const HIDDEN_HOME_FILES = ['.netrc', '.git-credentials', '.pgpass'];

/** The folders and files a sandboxed command of a session under `root` cannot see (existing only). */
export function hiddenPaths(root: string, userHome: string = homedir()): { dirs: string[]; files: string[] } {
  const isDir = (p: string): boolean => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  const isFile = (p: string): boolean => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const candidates = [root, join(userHome, '.hermes'), ...HIDDEN_HOME_DIRS.map((d) => join(userHome, d))];
  const dirs: string[] = [];
  for (const d of candidates) {
    if (!isDir(d) || dirs.includes(d)) continue;
    if (dirs.some((h) => isWithin(h, d))) continue; // already hidden by a folder holding it
    for (let i = dirs.length - 1; i >= 0; i--) if (isWithin(d, dirs[i]!)) dirs.splice(i, 1);
    dirs.push(d);
  }
  const files = HIDDEN_HOME_FILES.map((f) => join(userHome, f)).filter(
    (f) => isFile(f) && !dirs.some((h) => isWithin(h, f)),
  );
  return { dirs, files };
}

/** Options of `createSessionSandbox`. */
export interface SessionSandboxOptions {
  lane: SandboxLane;
  home: HermesHome;
  sessionId: string;
  /**
   * The session's working folder: the writable workspace, wherever a command starts (a `workdir`
   * outside it is read-only). Absent: the `cwd` each `wrap` is given.
   */
  workspace?: string;
  /** The user's home folder (credential folders); default `os.homedir()` (honours `HOME`). */
  userHome?: string;
  /** What the machine supports; default `detectSandbox()` (probed once per process). */
  support?: () => SandboxSupport;
  /**
   * Asks the user whether to run without the sandbox for this session (fallback `ask`); resolves
   * true on yes. Absent: nobody can be asked, the fallback refuses.
   */
  askFallback?: (question: string, signal: AbortSignal) => Promise<boolean>;
}

/** A session's sandbox; `forConfig` gives the `CommandSandbox` of a turn under that config. */
export interface SessionSandbox {
  readonly lane: SandboxLane;
  /** The `CommandSandbox` for tool calls made under `config` (re-resolved per turn). */
  forConfig(config: HermesConfig): SessionCommandSandbox;
}

/** A session's `CommandSandbox` for one config: every optional member present, plus the policy. */
export type SessionCommandSandbox = CommandSandbox &
  Required<Pick<CommandSandbox, 'ready' | 'explain'>> & { readonly policy: SandboxPolicy };

/** The per-session temp folder base: `<os tmp>/hermes-sandbox-<uid>`. */
export function sandboxTempBase(): string {
  return join(tmpdir(), `hermes-sandbox-${process.getuid?.() ?? 'user'}`);
}

/** Session temp folders unused this long are removed when another session makes its own, ms. */
export const SANDBOX_TEMP_MAX_AGE_MS = 7 * 24 * 3_600_000;

function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Removes the session temp folders under `base` not used (their mtime, touched at every
 * sandboxed run) for `SANDBOX_TEMP_MAX_AGE_MS`, except `keep`. Never throws.
 */
export function pruneSandboxTemps(base: string, keep: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(base, name);
    if (dir === keep) continue;
    try {
      const st = statSync(dir);
      if (st.isDirectory() && now - st.mtimeMs > SANDBOX_TEMP_MAX_AGE_MS)
        rmSync(dir, { recursive: true, force: true });
    } catch {
      /* gone or not ours to remove */
    }
  }
}

/** The mode-000 placeholder bound over hidden files (made once). */
function placeholderFile(base: string): string {
  const file = join(base, 'hidden');
  if (!existsSync(file)) {
    closeSync(openSync(file, 'a', 0o000));
    chmodSync(file, 0o000);
  }
  return file;
}

/** The message of a refused run: what needs the sandbox, why it cannot run, and the ways out. */
function unavailableMessage(policy: SandboxPolicy, reason: string | undefined): string {
  return (
    `blocked by the sandbox: this session's commands must run in the sandbox (terminal.sandbox: ${policy.mode} ` +
    `for the ${policy.lane} lane), but it cannot run here — ${reason ?? 'unknown reason'}. Nothing was run. ` +
    'Tell the user; `hermes sandbox check` shows the details. They can install bubblewrap, or set ' +
    `terminal.sandbox for this lane to off, or terminal.sandbox_fallback to ask.`
  );
}

/** Creates the sandbox of one session (see the file comment). */
export function createSessionSandbox(opts: SessionSandboxOptions): SessionSandbox {
  const support = opts.support ?? detectSandbox;
  // the answer of the fallback question, asked at most once per session
  let fallback: Promise<boolean> | undefined;
  let unsandboxed = false;
  let tempMade = false;

  function forConfig(config: HermesConfig): SessionCommandSandbox {
    const policy = resolveSandboxPolicy(config, opts.lane, () => support().available);
    const effective = (): SandboxMode => (policy.mode === 'off' || unsandboxed ? 'off' : policy.mode);
    const userHome = opts.userHome ?? homedir();
    let lastHidden: string[] = [];

    function wrap(argv: readonly string[], w: SandboxWrapOptions): string[] {
      const mode = effective();
      if (mode === 'off') return [...argv];
      const s = support();
      if (!s.available || !s.path) throw new Error(unavailableMessage(policy, s.reason));
      const base = sandboxTempBase();
      const tmpDir = join(base, opts.sessionId.replace(/[^A-Za-z0-9_.-]/g, '_'));
      ensurePrivateDir(tmpDir);
      if (!tempMade) {
        pruneSandboxTemps(base, tmpDir);
        tempMade = true;
      } else {
        const now = new Date();
        utimesSync(tmpDir, now, now); // in use: kept by the pruning of other sessions
      }
      const hidden = hiddenPaths(opts.home.root, userHome);
      lastHidden = [...hidden.dirs, ...hidden.files];
      // the workspace is the session's folder, never one a tool call names (a `workdir` of `~`
      // must not make the home writable)
      const workspace = opts.workspace ?? w.cwd;
      const args = bwrapArgs({
        mode,
        cwd: workspace,
        ...(w.cwd !== workspace ? { chdir: w.cwd } : {}),
        tmpDir,
        network: policy.network,
        hiddenDirs: hidden.dirs,
        hiddenFiles: hidden.files,
        placeholderFile: placeholderFile(base),
        ...(w.readOnlyPaths ? { readOnlyPaths: w.readOnlyPaths } : {}),
        ...(w.detach ? { detach: true } : {}),
      });
      return [s.path, ...args, ...argv];
    }

    async function ready(signal: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }> {
      if (effective() === 'off') return { ok: true };
      const s = support();
      if (s.available) return { ok: true };
      if (policy.fallback === 'ask' && opts.askFallback) {
        const question =
          `The sandbox (terminal.sandbox: ${policy.mode}) cannot run here: ${s.reason ?? 'unknown reason'}. ` +
          "Run this session's commands without the sandbox?";
        fallback ??= opts.askFallback(question, signal).catch(() => false);
        if (await fallback) {
          unsandboxed = true;
          return { ok: true };
        }
      }
      return { ok: false, message: unavailableMessage(policy, s.reason) };
    }

    function explain(output: string, succeeded = false): string | undefined {
      if (effective() === 'off') return undefined;
      return classifySandboxFailure({ output, hidden: lastHidden, networkOff: !policy.network, succeeded });
    }

    return {
      get mode() {
        return effective();
      },
      policy,
      wrap,
      ready,
      explain,
    };
  }

  return { lane: opts.lane, forConfig };
}

/**
 * The sandbox of a profile's MCP stdio servers: the `tui` lane's policy under `config`, since a
 * server is shared by every session of the profile (docs/sandbox.md). Nobody is asked when it
 * cannot run: a server that needs it does not start, naming why.
 */
export function mcpServerSandbox(home: HermesHome, config: HermesConfig): CommandSandbox {
  return createSessionSandbox({ lane: 'tui', home, sessionId: `mcp-${home.profile}` }).forConfig(config);
}
