/**
 * The `terminal` tool: runs a shell command (the original's tools/terminal_tool.py).
 *
 * - The command first goes through the approval guard (`ctx.checkCommand`); a denial becomes an
 *   error result carrying the guard's message, and nothing runs.
 * - It runs as `<shell> -c <command>` (bash when installed, else `$SHELL`, else `/bin/sh`) in
 *   `workdir` (relative to the session's cwd) or the session's cwd, with stdin closed.
 * - The child's environment is this process's environment without credential variables
 *   (`OPENAI_API_KEY`, `GITHUB_TOKEN` … see child-env.ts), plus only the variables named in
 *   `terminal.env_passthrough` (from the profile's `.env`, else this environment).
 * - stdout and stderr are collected interleaved, ANSI escapes stripped, and capped at 50,000
 *   chars keeping the first 40% and the last 60% (the end usually holds the error).
 * - The child is the leader of its own process group. On timeout (`timeout` seconds, default
 *   `terminal.timeout`, at most 3,600) or interrupt (`ctx.signal`) the whole group gets SIGTERM
 *   and, 500 ms later, SIGKILL. When the shell exits, anything it left running in its group is
 *   killed too, so background jobs (`sleep 100 &`) never outlive the call or hold it open; the
 *   result then says how many were stopped and how to run a process in the background.
 * - `background: true` starts the command detached through `ctx.processes` (the daemon's
 *   background processes, ../processes/) and returns at once with its id and log file;
 *   `notify_on_complete: true` has the session told when it ends.
 * - While it runs, the process is recorded under `<root>/run/` and watched (process-registry.ts):
 *   it never outlives this process — the watchdog ends its group when this process dies, a daemon
 *   started after a crash stops one its predecessor left running, a clean stop ends it.
 * - With a session sandbox (`ctx.sandbox`, sandbox/), the shell runs inside it (bubblewrap; the
 *   group kill reaches bwrap, whose pid namespace dies with it). A run the sandbox stopped (a
 *   write outside the workspace, a hidden path, the network when off) is reported as "blocked by
 *   the sandbox: <what>" with `blocked: {reason: 'sandbox'}`; the model may ask to run it again
 *   with `outside_sandbox: true`, which the user must approve (`ctx.checkOutsideSandbox`).
 */
import { existsSync, statSync } from 'node:fs';
import stripAnsi from 'strip-ansi';
import { HeadTailBuffer } from '../util/head-tail.js';
import { buildChildEnv } from './child-env.js';
import { blockedResult, toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import { resolveToolPath } from './paths.js';
import { groupMembers, killGroup, recordToolProcess, type ToolProcessTag } from './process-registry.js';
import type { CommandSandbox, ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Cap on the output returned to the model, chars. */
export const TERMINAL_MAX_OUTPUT_CHARS = 50_000;
/** Largest `timeout` a call may ask for, seconds. */
export const TERMINAL_MAX_TIMEOUT_SEC = 3_600;
/** Time between SIGTERM and SIGKILL when stopping a command, ms. */
export const KILL_GRACE_MS = 500;

/**
 * The shell commands run in: `/bin/bash` (or `/usr/bin/bash`) when present, since models write
 * bash; else `$SHELL` when it is an absolute path that exists; else `/bin/sh`.
 */
export function resolveShell(env: NodeJS.ProcessEnv = process.env): string {
  for (const candidate of ['/bin/bash', '/usr/bin/bash']) if (existsSync(candidate)) return candidate;
  const sh = env.SHELL;
  if (sh && sh.startsWith('/') && existsSync(sh)) return sh;
  return '/bin/sh';
}

/** The child's environment (credential variables removed): see child-env.ts. */
export { buildChildEnv } from './child-env.js';

/** What happened to one run. */
export interface CommandOutcome {
  /** Interleaved stdout+stderr, capped, ANSI stripped. */
  output: string;
  /** Exit code, or null when killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  durationMs: number;
  /** Processes still running in the command's group when its shell exited (then killed). */
  strayJobs: number;
}

/** The last line a sandboxed run prints: the number of processes its command left running. */
const SANDBOX_JOBS = /\n?\[hermes-sandbox-jobs:(-?\d+)\]\n?$/;

/**
 * Runs `$0 -c "$1"` (the shell and the command) inside the sandbox, then counts the processes of
 * the pid namespace other than bwrap's init (pid 1) and this wrapper, prints
 * `[hermes-sandbox-jobs:N]` to stderr and exits with the shell's status.
 */
const SANDBOX_JOBS_WRAPPER =
  '"$0" -c "$1"; rc=$?; n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; ' +
  "printf '\\n[hermes-sandbox-jobs:%d]\\n' $((n - 2)) >&2; exit $rc";

/** Options of `runShellCommand`. */
export interface RunCommandOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  shell?: string;
  maxOutputChars?: number;
  /** Called with the latest output line, at most twice a second. */
  onProgress?: (line: string) => void;
  /** Records the process while it runs (process-registry.ts), so a later daemon can reap it. */
  track?: ToolProcessTag;
  /** Runs the shell inside this sandbox (`wrap`); absent or `off`: on the bare host. */
  sandbox?: CommandSandbox;
}

/**
 * Runs `command` through the shell in its own process group and waits for it (see the file
 * comment for the kill rules). Never rejects for a failing command; rejects only when the shell
 * itself cannot be started.
 */
export async function runShellCommand(command: string, opts: RunCommandOptions): Promise<CommandOutcome> {
  const started = Date.now();
  const buffer = new HeadTailBuffer(opts.maxOutputChars ?? TERMINAL_MAX_OUTPUT_CHARS, { headRatio: 0.4 });
  const { execa } = await import('execa'); // loaded on first use: start-up speed
  const shell = opts.shell ?? resolveShell(opts.env);
  const sandboxed = opts.sandbox !== undefined && opts.sandbox.mode !== 'off';
  // in the sandbox, jobs left running die with its pid namespace before the group can be counted
  // here: a wrapper inside counts them and prints the count last (`SANDBOX_JOBS`)
  const shellArgv = sandboxed
    ? ['/bin/sh', '-c', SANDBOX_JOBS_WRAPPER, shell, command]
    : [shell, '-c', command];
  const argv = sandboxed ? opts.sandbox!.wrap(shellArgv, { cwd: opts.cwd }) : shellArgv;
  const child = execa(argv[0]!, argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    detached: true,
    stdin: 'ignore',
    all: true,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
  });
  const pid = child.pid;
  const release = pid !== undefined && opts.track ? recordToolProcess(opts.track, pid, command) : undefined;
  let timedOut = false;
  let interrupted = false;
  let exited = false;
  let strayJobs = 0;
  let exit: { code: number | null; signal: string | null } = { code: null, signal: null };
  const timers: NodeJS.Timeout[] = [];

  const stop = (): void => {
    if (pid === undefined || exited) return;
    killGroup(pid, 'SIGTERM');
    const t = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    t.unref();
    timers.push(t);
  };
  const onAbort = (): void => {
    interrupted = true;
    stop();
  };
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  timers.push(
    setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs),
  );

  let lastProgress = 0;
  child.all?.setEncoding('utf8');
  child.all?.on('data', (chunk: string) => {
    buffer.push(chunk);
    if (opts.onProgress && Date.now() - lastProgress >= 500) {
      const line = chunk.trimEnd().split('\n').pop()?.trim();
      if (line && !line.startsWith('[hermes-sandbox-jobs:')) {
        lastProgress = Date.now();
        opts.onProgress(stripAnsi(line).slice(0, 200));
      }
    }
  });

  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      exit = { code, signal };
      // Kill what the shell left running in its group (it would hold the pipes open), counted
      // first so the model learns that its `cmd &` did not survive.
      if (pid !== undefined) {
        strayJobs = groupMembers(pid).length;
        killGroup(pid, 'SIGKILL');
      }
      resolve();
    });
  });

  try {
    const result = await Promise.race([
      child,
      // A grandchild that left the group may still hold the pipes: stop waiting 1 s after exit.
      exitedPromise.then(
        () =>
          new Promise<undefined>((resolve) => {
            const t = setTimeout(() => {
              child.all?.destroy();
              resolve(undefined);
            }, 1000);
            t.unref();
            timers.push(t);
          }),
      ),
    ]);
    if (!exited && result?.failed && result.exitCode === undefined && result.signal === undefined) {
      throw new Error(result.shortMessage);
    }
  } finally {
    for (const t of timers) clearTimeout(t);
    opts.signal.removeEventListener('abort', onAbort);
    release?.();
  }
  let output = stripAnsi(buffer.toString());
  if (sandboxed) {
    const m = SANDBOX_JOBS.exec(output);
    if (m) {
      strayJobs = Math.max(0, Number(m[1]));
      output = output.slice(0, m.index);
    }
  }
  return {
    output,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    interrupted,
    durationMs: Date.now() - started,
    strayJobs,
  };
}

function workdirOf(ctx: ToolContext, workdir: string | undefined): string {
  const dir = workdir && workdir.trim() !== '' ? resolveToolPath(ctx.cwd, workdir) : ctx.cwd;
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    /* missing */
  }
  if (!isDir) throw new Error(`workdir ${dir} does not exist or is not a directory`);
  return dir;
}

function status(o: CommandOutcome, timeoutSec: number): string {
  if (o.interrupted) return '[interrupted: the command and its child processes were killed]';
  if (o.timedOut) return `[timed out after ${timeoutSec} s: the command and its child processes were killed]`;
  if (o.exitCode === null) return `[killed by signal ${o.signal ?? 'unknown'}]`;
  return `[exit code: ${o.exitCode}]`;
}

const parameters = (z: Zod) =>
  z.object({
    command: nonEmpty(z).describe('The shell command to run.'),
    timeout: z
      .int()
      .min(1)
      .describe(
        `Seconds before the command is killed (default from config, 180; max ${TERMINAL_MAX_TIMEOUT_SEC}).`,
      )
      .optional(),
    workdir: z
      .string()
      .describe("Directory to run in (absolute, or relative to the session's working directory).")
      .optional(),
    background: z
      .boolean()
      .describe(
        'Start the command as a background process and return at once with its id (servers, watchers, long builds). ' +
          'It keeps running after this call and this turn; use the process tool to poll its output, wait, write to stdin or kill it. ' +
          'Do not add `&`; `timeout` does not apply.',
      )
      .optional(),
    notify_on_complete: z
      .boolean()
      .describe(
        'With background: you get a message in this session when the process ends (exit status and last output). ' +
          'Use it for bounded tasks (builds, tests); long-lived servers do not need it.',
      )
      .optional(),
    outside_sandbox: z
      .boolean()
      .describe(
        'Run this command outside the sandbox. Only after a run was "blocked by the sandbox" and the ' +
          'command really needs more access; the user must approve it, and may refuse.',
      )
      .optional(),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const { command } = args;
  const timeoutSec = Math.min(args.timeout ?? ctx.config.terminal.timeout, TERMINAL_MAX_TIMEOUT_SEC);
  let cwd: string;
  try {
    cwd = workdirOf(ctx, args.workdir);
  } catch (err) {
    return toolError('terminal', (err as Error).message);
  }

  const verdict = await ctx.checkCommand(command, cwd);
  if (!verdict.allowed) return blockedResult(verdict);
  const sandbox = await sandboxFor(ctx, command, cwd, args.outside_sandbox === true);
  if ('refused' in sandbox) return sandbox.refused;
  await ctx.beforeFileChange?.(cwd, { command });
  if (args.background)
    return startBackground(ctx, command, cwd, args.notify_on_complete ?? false, sandbox.use);

  const outcome = await runShellCommand(command, {
    cwd,
    env: buildChildEnv(ctx.config, ctx.secrets, process.env),
    timeoutMs: timeoutSec * 1000,
    signal: ctx.signal,
    onProgress: (line) => ctx.progress(line),
    track: { root: ctx.home.root, session: ctx.sessionId, profile: ctx.home.profile },
    ...(sandbox.use ? { sandbox: sandbox.use } : {}),
  });
  const body = outcome.output.trim() === '' ? '(no output)' : outcome.output.replace(/\s+$/, '');
  const footer = status(outcome, timeoutSec);
  // a run that exited 0 is judged by its programs' error lines only (`grep EROFS` prints data)
  const ended = !outcome.interrupted && !outcome.timedOut;
  const stopped =
    sandbox.use && ended ? sandbox.use.explain?.(outcome.output, outcome.exitCode === 0) : undefined;
  if (stopped) return sandboxBlocked(body, footer, stopped);
  const ok = outcome.exitCode === 0 && !outcome.timedOut && !outcome.interrupted;
  const summary = outcome.interrupted
    ? 'interrupted'
    : outcome.timedOut
      ? `timed out after ${timeoutSec} s`
      : `exit ${outcome.exitCode ?? outcome.signal}`;
  const stray =
    outcome.strayJobs > 0 && !outcome.timedOut && !outcome.interrupted
      ? `\n[note: ${outcome.strayJobs} process(es) started in the background (with & or nohup) were still running when the command ended and were stopped; to keep a process running use terminal with background: true]`
      : '';
  return { ok, content: `${body}\n${footer}${stray}`, summary };
}

/**
 * `background: true`: starts the command through the daemon's background processes, in `sandbox`
 * (the session's, settled by `sandboxFor`; absent: on the bare host).
 */
function startBackground(
  ctx: ToolContext,
  command: string,
  cwd: string,
  notify: boolean,
  sandbox: CommandSandbox | undefined,
): ToolResult {
  if (!ctx.processes)
    return toolError(
      'terminal',
      'background processes are available only in sessions run by the Hermes daemon',
    );
  try {
    const e = ctx.processes.start({
      session: ctx.sessionId,
      command,
      cwd,
      env: buildChildEnv(ctx.config, ctx.secrets, process.env),
      shell: resolveShell(),
      ...(sandbox ? { sandbox } : {}),
      notify,
    });
    const hint = notify
      ? 'You will get a message in this session when it ends.'
      : 'You are not told when it ends: poll it with the process tool (or start it with notify_on_complete: true).';
    return {
      ok: true,
      content:
        `Started background process ${e.id} (pid ${e.pid}) in ${cwd}; output goes to ${e.log}. ` +
        `Read it with process(action: "poll", id: "${e.id}"); stop it with process(action: "kill", id: "${e.id}"). ${hint}`,
      summary: `background ${e.id}`,
    };
  } catch (err) {
    return toolError('terminal', `cannot start the background process: ${(err as Error).message}`);
  }
}

/** The sandbox a run uses (`use`; none: the bare host), or the result refusing it. */
type SandboxChoice = { use: CommandSandbox | undefined } | { refused: ToolResult };

/**
 * Settles where the command runs: in `ctx.sandbox` (after `ready`: its fallback when it cannot run
 * here), or — with `outside_sandbox` and the user's approval — on the bare host.
 */
async function sandboxFor(
  ctx: ToolContext,
  command: string,
  cwd: string,
  outside: boolean,
): Promise<SandboxChoice> {
  const sandbox = ctx.sandbox;
  if (!sandbox || sandbox.mode === 'off') return { use: undefined };
  if (outside) {
    const v = ctx.checkOutsideSandbox
      ? await ctx.checkOutsideSandbox(command, cwd)
      : ({
          allowed: false,
          reason: 'no_frontend',
          message: 'BLOCKED: nobody can approve running a command outside the sandbox here.',
        } as const);
    return v.allowed ? { use: undefined } : { refused: blockedResult(v) };
  }
  const ready = (await sandbox.ready?.(ctx.signal)) ?? { ok: true };
  if (!ready.ok) {
    return {
      refused: {
        ok: false,
        content: ready.message,
        summary: 'blocked by the sandbox: it cannot run here',
        blocked: { reason: 'sandbox' },
      },
    };
  }
  // a `yes` to the fallback question turns the session's sandbox off
  const mode: string = sandbox.mode;
  return { use: mode === 'off' ? undefined : sandbox };
}

/** The result of a run the sandbox stopped (see the file comment). */
function sandboxBlocked(body: string, footer: string, what: string): ToolResult {
  return {
    ok: false,
    content:
      `${body}\n${footer}\n[blocked by the sandbox: ${what}. The command ran in the sandbox, which keeps everything ` +
      'outside the working folder read-only and hides credentials and Hermes files. Work inside the working ' +
      'folder instead; if the command truly needs more, call terminal again with outside_sandbox: true — the ' +
      'user is asked and may refuse.]',
    summary: `blocked by the sandbox: ${what}`.slice(0, 200),
    blocked: { reason: 'sandbox' },
  };
}

/** The `terminal` tool definition. Parameters follow the original: command, timeout, workdir. */
export const terminalTool: ToolDefinition = defineTool({
  name: 'terminal',
  description:
    "Run a shell command (bash) on the user's machine and return its combined stdout/stderr and exit code. " +
    'Use it for builds, tests, git, package managers and other programs. Prefer read_file, write_file, patch ' +
    'and search_files for reading, editing and searching files. The command runs non-interactively (stdin is ' +
    'closed): pass flags such as -y and avoid pagers and editors. Each call starts a fresh shell in workdir, ' +
    'so `cd` does not carry over. Long output keeps its beginning and end. Dangerous commands (recursive ' +
    "deletes, force pushes, …) need the user's approval and may be blocked; if blocked, do not retry. " +
    'Processes left running with `&` or nohup are stopped when the command ends: for servers, ' +
    'watchers and long builds pass background: true (then manage it with the process tool). ' +
    'Commands may run in a sandbox (the working folder writable, the rest read-only, credentials hidden); ' +
    'a run it stopped says "blocked by the sandbox".',
  parameters,
  readOnly: false,
  toolsets: ['terminal'],
  inScripts: true,
  verb: ['Ran', 'Running'],
  summarize: (args) => String(args.command ?? '').slice(0, 200),
  run,
});
