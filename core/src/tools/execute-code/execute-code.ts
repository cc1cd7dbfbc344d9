/**
 * The `execute_code` tool: programmatic tool calling (the original's
 * tools/code_execution_tool.py).
 *
 * The model writes a script (JavaScript run by this Node, or Python when `python3` is on PATH)
 * that calls tools as functions; the calls come back to this process over a Unix-socket JSON-lines
 * RPC (`rpc-server.ts`, stubs in `stubs.ts`) and run with the session's own `ToolContext`, so a
 * dangerous `terminal` command inside still asks for approval and file edits still take the
 * turn's checkpoint. Only the script's stdout returns to the model (stderr too when the script
 * fails).
 *
 * The script itself can read, write and delete files and start programs directly, bypassing
 * those checks, so running it is an approval-gated action (`ctx.checkScript`, the guard's
 * `execute-code` pseudo-pattern: once/session/always/deny; `approvals.mode: off` skips it;
 * headless and cron contexts deny). Its environment carries no credential variables
 * (`buildChildEnv`, child-env.ts) and its output gets the registry's secret redaction.
 *
 * Limits, each reported in the result with a line starting `[execute_code: …]` when hit:
 * - time: `code_execution.timeout` seconds (default 300); then the script's process group is
 *   killed (SIGTERM, SIGKILL 500 ms later) and tool calls in flight are interrupted;
 * - tool calls: `code_execution.max_tool_calls` (default 50); further calls fail inside the script
 *   (the function throws) and are not run;
 * - stdout: 50,000 chars (start and end kept); stderr: 10,000 chars (shown only on failure).
 * Interrupting the turn kills the script the same way.
 *
 * With a session sandbox (`ctx.sandbox`, ../sandbox/) the script runs inside it like a terminal
 * command (its folder of stubs and the RPC socket bound read-only); a script the sandbox stopped
 * ends with `[execute_code: blocked by the sandbox: …]` and `blocked: {reason: 'sandbox'}`.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HeadTailBuffer } from '../../util/head-tail.js';
import { blockedResult, toolError } from '../args.js';
import { scriptTools } from '../catalog.js';
import { buildChildEnv } from '../child-env.js';
import { defineTool, nonEmpty } from '../define.js';
import { killGroup, recordToolProcess } from '../process-registry.js';
import { KILL_GRACE_MS } from '../terminal.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../types.js';
import { startRpcServer } from './rpc-server.js';
import { javascriptStub, pythonBootstrap, pythonStub, type StubTool } from './stubs.js';

/** Cap on the stdout returned, chars. */
export const EXEC_MAX_STDOUT_CHARS = 50_000;
/** Cap on the stderr shown when the script fails, chars. */
export const EXEC_MAX_STDERR_CHARS = 10_000;

/** The languages a script may be written in. */
export type ScriptLanguage = 'javascript' | 'python';

let pythonPath: string | null | undefined;

/** Absolute path of `python3` on PATH, or null when there is none (looked up once). */
export function findPython(): string | null {
  if (pythonPath !== undefined) return pythonPath;
  pythonPath = null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'python3'))) {
      pythonPath = join(dir, 'python3');
      break;
    }
  }
  return pythonPath;
}

/** Options of `runScript`. */
export interface RunScriptOptions {
  code: string;
  language: ScriptLanguage;
  ctx: ToolContext;
  /** Tools the script may call (already filtered to those marked `inScripts`). */
  tools: ToolDefinition[];
  /** Runs one tool call (the registry's `runTool`). */
  runTool: (tool: ToolDefinition, rawArgsJson: string, ctx: ToolContext) => Promise<ToolResult>;
  timeoutMs: number;
  maxToolCalls: number;
  maxStdoutChars?: number;
  maxStderrChars?: number;
}

function stubTools(tools: ToolDefinition[]): StubTool[] {
  return tools.map((t) => {
    const props = Object.keys((t.parameters.properties ?? {}) as Record<string, unknown>);
    const required = (t.parameters.required ?? []) as string[];
    const params = [...required, ...props.filter((p) => !required.includes(p))];
    return { name: t.name, params, doc: `${t.name}(${params.join(', ')}): ${t.description.split('. ')[0]}.` };
  });
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * Runs one script to completion (or a limit) and builds the tool result. Never rejects for a
 * failing script; rejects only when the socket or the interpreter cannot be started.
 */
export async function runScript(o: RunScriptOptions): Promise<ToolResult> {
  const { ctx } = o;
  const maxOut = o.maxStdoutChars ?? EXEC_MAX_STDOUT_CHARS;
  const maxErr = o.maxStderrChars ?? EXEC_MAX_STDERR_CHARS;
  const byName = new Map(o.tools.map((t) => [t.name, t]));
  const stop = new AbortController();
  const callCtx: ToolContext = { ...ctx, signal: AbortSignal.any([ctx.signal, stop.signal]) };

  const rpc = await startRpcServer({
    allowed: new Set(byName.keys()),
    maxCalls: o.maxToolCalls,
    dispatch: async (name, args) => {
      const r = await o.runTool(byName.get(name)!, JSON.stringify(args), callCtx);
      return { ok: r.ok, content: r.content };
    },
    onCall: (n, name, args) => {
      const tool = byName.get(name);
      let what = '';
      try {
        what = tool?.summarize?.(args) ?? '';
      } catch {
        /* summary only */
      }
      ctx.progress(`tool call ${n}: ${name}${what ? ` ${what.slice(0, 120)}` : ''}`);
    },
  });

  try {
    const stubs = stubTools(o.tools);
    let command: string;
    let args: string[];
    const env: Record<string, string> = {
      ...buildChildEnv(ctx.config, ctx.secrets, process.env),
      HERMES_RPC_SOCKET: rpc.socketPath,
      HERMES_RPC_TOKEN: rpc.token,
    };
    if (o.language === 'python') {
      const py = findPython();
      if (!py)
        return toolError('execute_code', 'python3 is not installed here; write the script in JavaScript');
      writeFileSync(join(rpc.dir, 'hermes_tools.py'), pythonStub(stubs), { mode: 0o600 });
      const script = join(rpc.dir, 'script.py');
      writeFileSync(script, o.code, { mode: 0o600 });
      command = py;
      args = ['-c', pythonBootstrap(script)];
      env.PYTHONPATH = env.PYTHONPATH ? `${rpc.dir}${delimiter}${env.PYTHONPATH}` : rpc.dir;
      env.PYTHONUNBUFFERED = '1';
      env.PYTHONIOENCODING = 'utf-8';
      env.PYTHONDONTWRITEBYTECODE = '1';
    } else {
      const stub = join(rpc.dir, 'hermes_tools.mjs');
      writeFileSync(stub, javascriptStub(stubs), { mode: 0o600 });
      const script = join(rpc.dir, 'script.mjs');
      writeFileSync(script, o.code, { mode: 0o600 });
      command = process.execPath;
      args = ['--import', pathToFileURL(stub).href, script];
    }

    const stdout = new HeadTailBuffer(maxOut, { headRatio: 0.4 });
    const stderr = new HeadTailBuffer(maxErr, { headRatio: 0.2 });
    const started = Date.now();
    // under the session's sandbox (the script's folder with its stubs and socket reachable)
    const sandbox = ctx.sandbox && ctx.sandbox.mode !== 'off' ? ctx.sandbox : undefined;
    const argv = sandbox
      ? sandbox.wrap([command, ...args], { cwd: ctx.cwd, readOnlyPaths: [rpc.dir] })
      : [command, ...args];
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: ctx.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // recorded while it runs, so a daemon started after a crash can stop it (process-registry.ts)
    const release =
      child.pid !== undefined
        ? recordToolProcess(
            { root: ctx.home.root, session: ctx.sessionId, profile: ctx.home.profile },
            child.pid,
            `execute_code (${o.language})`,
          )
        : undefined;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => stdout.push(c));
    child.stderr.on('data', (c: string) => stderr.push(c));

    let timedOut = false;
    let interrupted = false;
    let exited = false;
    const timers: NodeJS.Timeout[] = [];
    const kill = (): void => {
      stop.abort();
      if (child.pid === undefined || exited) return;
      killGroup(child.pid, 'SIGTERM');
      const t = setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      t.unref();
      timers.push(t);
    };
    const onAbort = (): void => {
      interrupted = true;
      kill();
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        kill();
      }, o.timeoutMs),
    );

    const exit = await new Promise<{ code: number | null; signal: string | null; error?: Error }>(
      (resolve) => {
        child.once('error', (error) => resolve({ code: null, signal: null, error }));
        child.once('exit', (code, signal) => {
          exited = true;
          if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL'); // leftovers of the script
          // A grandchild that left the group may hold the pipes: stop waiting 1 s after exit.
          const grace = setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
          }, 1_000);
          child.once('close', () => {
            clearTimeout(grace);
            resolve({ code, signal });
          });
        });
      },
    );
    release?.();
    ctx.signal.removeEventListener('abort', onAbort);
    for (const t of timers) clearTimeout(t);
    stop.abort(); // nothing may keep running for a finished script
    if (exit.error) throw exit.error;

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const out = stdout.toString();
    const notices: string[] = [];
    if (stdout.totalChars > maxOut)
      notices.push(
        `[execute_code: stdout exceeded the ${fmt(maxOut)}-char limit (${fmt(stdout.totalChars)} chars); its start and end are shown. Print less (counts, summaries) or write large output to a file.]`,
      );
    if (rpc.limitHit)
      notices.push(
        `[execute_code: tool call limit reached: the script asked for more than ${o.maxToolCalls} tool calls (code_execution.max_tool_calls); the extra calls were refused and not run.]`,
      );
    if (timedOut)
      notices.push(
        `[execute_code: timed out after ${fmt(o.timeoutMs / 1000)} s (code_execution.timeout); the script was killed. Its output so far is above.]`,
      );
    if (interrupted) notices.push('[execute_code: interrupted by the user; the script was killed.]');
    const failed = exit.code !== 0 || timedOut || interrupted;
    const status = timedOut ? 'timed out' : interrupted ? 'interrupted' : `exit ${exit.code ?? exit.signal}`;
    const summary = `${status} · ${rpc.calls} tool call${rpc.calls === 1 ? '' : 's'} · ${seconds} s`;
    if (!failed && notices.length === 0) return { ok: true, content: out || '(no output)', summary };
    const sections: string[] = [];
    if (out !== '') sections.push(out.replace(/\n$/, ''));
    if (failed && !timedOut && !interrupted) {
      const err = stderr.toString().trimEnd();
      if (err) {
        const cut =
          stderr.totalChars > maxErr ? `, over the ${fmt(maxErr)}-char limit: start and end shown` : '';
        sections.push(`--- stderr${cut} ---\n${err}`);
      }
      notices.push(
        `[execute_code: the script exited with ${exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal}`}.]`,
      );
    }
    const stopped = failed && !interrupted ? sandbox?.explain?.(`${out}\n${stderr.toString()}`) : undefined;
    if (stopped) {
      notices.push(
        `[execute_code: blocked by the sandbox: ${stopped}. Work inside the working folder; terminal with outside_sandbox: true asks the user for more.]`,
      );
    }
    sections.push(...notices);
    return {
      ok: !failed,
      content: sections.join('\n'),
      summary: stopped ? `blocked by the sandbox: ${stopped}`.slice(0, 200) : summary,
      ...(stopped ? { blocked: { reason: 'sandbox' } } : {}),
    };
  } finally {
    await rpc.close();
  }
}

/** Options of `createExecuteCodeTool`. */
export interface ExecuteCodeToolOptions {
  /** The session's tools (default: the built-in tools); only those marked `inScripts` are offered. */
  tools?: () => ToolDefinition[] | Promise<ToolDefinition[]>;
}

/**
 * Builds the `execute_code` tool. The built-in instance (`executeCodeTool`) offers the built-in
 * tools; a session with another tool set can build its own.
 */
export function createExecuteCodeTool(opts: ExecuteCodeToolOptions = {}): ToolDefinition {
  const hasPython = findPython() !== null;
  return defineTool({
    name: 'execute_code',
    description:
      'Run a script that calls tools as functions, to chain many tool calls in one step (loops, filtering, ' +
      'aggregation) and return only what you print. Languages: "javascript" (default; an ES module run by ' +
      'Node.js 20, top-level await allowed, Node built-ins importable, no npm packages) or "python" (python3, ' +
      `standard library only${hasPython ? '' : '; NOT installed on this machine'}). Tool functions are already ` +
      'defined (no import needed): read_file, write_file, patch, search_files, terminal (and web_search, ' +
      'web_extract when those tools exist). Call them with one object of arguments, e.g. JavaScript ' +
      '`const text = await read_file({path: \'a.txt\'})` or Python `text = read_file(path="a.txt")`, or with ' +
      "positional arguments in schema order (`await terminal('ls')`). Each returns the tool's text result " +
      '(read_file lines look like "     1|text"); a failed call throws (HermesToolError / ToolError) with ' +
      'that text. JavaScript functions are async: await them. Only stdout comes back to you (stderr too if ' +
      `the script fails). Limits: code_execution.timeout seconds (default 300), code_execution.max_tool_calls ` +
      `(default 50), ${fmt(EXEC_MAX_STDOUT_CHARS)} chars of stdout. The user may have to approve the script ` +
      'before it runs (if denied, do not retry it another way); dangerous terminal commands inside still need approval. ' +
      'Use plain tool calls for one or two steps; use this for many.',
    parameters: (z) =>
      z.object({
        code: nonEmpty(z).describe('The complete script.'),
        language: z
          .enum(['javascript', 'python'])
          .describe('Script language (default javascript).')
          .optional(),
      }),
    readOnly: false,
    forSubagents: false,
    verb: ['Ran code', 'Running code'],
    maxResultChars: EXEC_MAX_STDOUT_CHARS + EXEC_MAX_STDERR_CHARS + 2_000,
    summarize: (args) =>
      `${String(args.language ?? 'javascript')}: ${String(args.code ?? '')
        .split('\n')[0]!
        .slice(0, 100)}`,
    async run(args, ctx): Promise<ToolResult> {
      const { code, language = 'javascript' } = args;
      // arbitrary code: its own file and process calls pass no other check, so the whole script
      // needs approval first (the guard's `checkScript`; fails closed headless and in cron)
      const verdict = await ctx.checkScript({ code, language });
      if (!verdict.allowed) return blockedResult(verdict);
      const ready = (await ctx.sandbox?.ready?.(ctx.signal)) ?? { ok: true };
      if (!ready.ok) {
        return {
          ok: false,
          content: ready.message,
          summary: 'blocked by the sandbox: it cannot run here',
          blocked: { reason: 'sandbox' },
        };
      }
      const registry = await import('../registry.js');
      const all = opts.tools ? await opts.tools() : registry.builtinTools();
      const usable = registry.availableTools(all, { config: ctx.config, secrets: ctx.secrets });
      const tools = scriptTools(usable);
      return runScript({
        code,
        language,
        ctx,
        tools,
        runTool: registry.runTool,
        timeoutMs: ctx.config.code_execution.timeout * 1000,
        maxToolCalls: ctx.config.code_execution.max_tool_calls,
      });
    },
  });
}

/** The built-in `execute_code` tool (offers the built-in tools to scripts). */
export const executeCodeTool: ToolDefinition = createExecuteCodeTool();
