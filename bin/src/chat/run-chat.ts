/**
 * The in-process chat frontend of `hermes chat`: one turn (`-q`, with piped stdin added to the
 * prompt) streamed to stdout, or a simple line-by-line chat. Exit codes: 0 success, 1 error
 * (message on stderr), 130 interrupted by Ctrl+C (the partial turn is persisted), 141 when the
 * reader of stdout went away (`| head`: the turn is stopped, as by Ctrl+C).
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { DaemonClient } from '@hermes/client';
import {
  openAgentSession,
  type OpenedSession,
  type SessionSelector,
  type TurnResult,
} from '@hermes/core/agent';
import type { AgentEvent } from '@hermes/core/protocol';
import type { ApprovalCallback } from '@hermes/core/approvals';
import { acquireSessionLock, type SessionLock } from '@hermes/core/state';
import type { McpManager } from '@hermes/core/mcp';
import type { StoredImage } from '@hermes/core/images';
import {
  type ConfigWarning,
  loadConfigCached,
  type HermesConfig,
  loadSecrets,
  type Secrets,
} from '@hermes/core/config';
import { builtinTools } from '@hermes/core/tools';
import type { CliContext } from '../context.js';
import { askApprovalOnTerminal } from './ask-approval.js';
import { watchClosedOutput, type ClosedOutput } from './closed-output.js';
import { oneShotPrompt } from './stdin-prompt.js';
import { createTextRenderer } from './text-renderer.js';
import { chatLineCommand, chatLineForeignCommand, commandsFor } from '@hermes/core/constants';
import { hermesCommand, withCommandForm } from '../command-form.js';
import { inert } from '../terminal-text.js';

/** Parsed options of `hermes chat`. */
export interface ChatOptions {
  query?: string;
  session?: string;
  continue: boolean;
  json: boolean;
  yolo: boolean;
  model?: string;
  /** Image files attached to the `-q` prompt (`--image`, repeatable). */
  images?: string[];
}

/** Exit code for a turn stopped by Ctrl+C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/**
 * Runs `hermes chat`; resolves with the process exit code. The prompt of a one-shot (`-q`) is
 * its text plus piped stdin (stdin-prompt.ts), checked before any session is created. A
 * one-shot goes through the running daemon when there is one (unless `--yolo` or `-m`, which
 * apply to this process only);
 * otherwise the turn runs here, holding the session's one-writer lock. config.yaml is read once
 * here (through the config cache: an unchanged file is not parsed again by the same build); its
 * warnings (unknown keys, old allowlist entries that no longer approve anything) are printed to
 * stderr once, whichever way the turn runs.
 * @throws ConfigError for a broken config.yaml.
 */
export async function runChat(ctx: CliContext, opts: ChatOptions): Promise<number> {
  const output = watchClosedOutput(); // before the first write: `| head` may close stdout any time
  const { config, warnings } = await loadConfigCached(ctx.home, ctx.build);
  printConfigWarnings(warnings);
  if (opts.query !== undefined) opts = { ...opts, query: await oneShotPrompt(opts.query, process.stdin) };
  if (output.closed) return output.exitCode;
  if (opts.query !== undefined && !opts.yolo && !opts.model) {
    const client = await connectRunningDaemon(ctx);
    if (client) {
      const { runChatViaDaemon } = await import('./run-chat-daemon.js');
      return runChatViaDaemon(ctx, client, opts, output);
    }
  }
  return runChatInProcess(ctx, opts, config, output);
}

/** Config warnings, one line each on stderr (stdout belongs to the reply / JSON events). */
function printConfigWarnings(warnings: readonly ConfigWarning[]): void {
  for (const w of warnings) process.stderr.write(`hermes: warning: ${w.message}\n`);
}

/** A client of the daemon serving this root, or undefined when none runs. */
async function connectRunningDaemon(ctx: CliContext): Promise<DaemonClient | undefined> {
  if (!existsSync(ctx.home.discoveryFile)) return undefined;
  const { connect, DaemonConnectError } = await import('@hermes/client');
  try {
    return await connect(
      { root: ctx.home.root },
      {
        name: 'hermes-chat',
        version: ctx.version,
        capabilities: { approvals: true },
        profile: ctx.home.profile,
        connectTimeoutMs: 5_000,
      },
    );
  } catch (err) {
    if (err instanceof DaemonConnectError && (err.reason === 'not_running' || err.reason === 'stale'))
      return undefined;
    // a damaged discovery file names no daemon to reach: run in this process, as the TUI and
    // `hermes gateway status` treat it as stale (a new daemon rewrites it)
    if (err instanceof DaemonConnectError && err.reason === 'invalid_discovery') {
      process.stderr.write(`hermes: warning: ${err.message}; running without the daemon\n`);
      return undefined;
    }
    throw err;
  }
}

async function runChatInProcess(
  ctx: CliContext,
  opts: ChatOptions,
  config: HermesConfig,
  output: ClosedOutput,
): Promise<number> {
  // images are checked before any session is created: a bad one changes nothing
  const images = await chatImages(ctx, opts, config);
  const select: SessionSelector = opts.session
    ? { kind: 'id', id: opts.session }
    : opts.continue
      ? { kind: 'continue' }
      : { kind: 'new' };
  const interactive = opts.query === undefined;
  const rl = interactive
    ? createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY })
    : undefined;
  const render = opts.json ? jsonRenderer() : createTextRenderer(process.stdout, process.stderr);
  let sessionId = '';
  const onEvent = (e: AgentEvent): void => render(e, sessionId);
  // an approval question reads its own lines (ask-approval.ts); while it is asked, lines are its
  let asking = 0;
  const onApproval: ApprovalCallback | undefined =
    rl && process.stdin.isTTY
      ? async (req, signal) => {
          asking++;
          try {
            return await askApprovalOnTerminal(req, { rl, input: process.stdin, signal });
          } finally {
            asking--;
          }
        }
      : undefined;
  // A line entered while no prompt reads (during a turn, or piped in ahead) is the user's next
  // message, never lost: it runs after the turn, in order, as a prompt typed then would.
  const typedAhead: string[] = [];
  rl?.on('line', (l) => {
    if (asking === 0) typedAhead.push(l);
  });

  // config was read once by runChat and is handed to the session (no second parse of config.yaml)
  const secrets = loadSecrets(ctx.home);
  const mcp = await startMcp(ctx, config, secrets);
  const opened = openAgentSession({
    home: ctx.home,
    source: 'cli',
    select,
    cwd: process.cwd(),
    config,
    secrets,
    // resolved at every turn: a server's tools/list_changed reaches the session's next turn
    ...(mcp ? { toolSource: () => [...builtinTools(), ...mcp.tools()] } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    ...(opts.yolo ? { approvalMode: 'off' as const } : {}),
    ...(onApproval ? { onApproval } : {}),
    onEvent,
  });
  sessionId = opened.session.id;
  let lock: SessionLock;
  try {
    lock = acquireSessionLock(ctx.home, sessionId, `hermes chat (pid ${process.pid})`);
  } catch (err) {
    opened.close();
    throw err;
  }
  if (opts.json) {
    const s = opened.session;
    writeJson({
      type: 'session.info',
      session_id: s.id,
      payload: { session_id: s.id, title: s.title, model: s.model, cwd: s.cwd, created: opened.created },
    });
  }

  let controller = new AbortController();
  // `| head` closed stdout: stop the turn as Ctrl+C would, then end quietly
  output.onClose(() => controller.abort());
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  // On a terminal readline reads Ctrl+C itself (raw mode): no SIGINT reaches the process, and
  // without a listener readline only pauses the input. During a turn it interrupts the turn (a
  // second one exits); at the prompt it leaves the chat, as Ctrl+D does.
  let turnRunning = false;
  rl?.on('SIGINT', () => {
    if (turnRunning) return onSigint();
    process.stderr.write('\n');
    rl.close();
  });
  try {
    if (!interactive) {
      const result = await runTurn(opened, opts.query ?? '', controller.signal, images);
      if (output.closed) return output.exitCode;
      if (result.status === 'interrupted') return EXIT_INTERRUPTED;
      if (result.status === 'error') {
        process.stderr.write(`hermes: ${withCommandForm(result.error ?? 'the turn failed')}\n`);
        return 1;
      }
      return 0;
    }
    process.stderr.write(
      `hermes chat — session ${opened.session.id}. Ctrl+C interrupts a reply; Ctrl+D or /quit exits.\n`,
    );
    for (;;) {
      let line: string;
      const ahead = typedAhead.shift();
      if (ahead !== undefined) {
        line = ahead;
        if (process.stdin.isTTY) process.stderr.write(`> ${inert(line)}   (typed during the reply)\n`);
      } else {
        try {
          line = await rl!.question('> ');
        } catch {
          return 0; // Ctrl+D / closed input
        }
      }
      const text = line.trim();
      // the line mode's commands are the `chat` entries of the one slash-command table
      const command = chatLineCommand(text);
      if (command === 'quit') return 0;
      if (command === 'help') {
        const names = commandsFor('chat').map((c) => `/${c.name}`);
        process.stderr.write(
          `This is the plain line chat. Commands: ${names.join(', ')} (or Ctrl+D). Ctrl+C interrupts a reply.\n` +
            `For the full terminal UI (sessions, models, profiles, /compact …) run: ${hermesCommand()} tui\n`,
        );
        continue;
      }
      if (!text) continue;
      const foreign = chatLineForeignCommand(text);
      if (foreign) {
        // a command of the terminal UI is not sent to the model as a prompt
        process.stderr.write(
          `/${foreign} is a command of the terminal UI (${hermesCommand()} tui); nothing was sent. ` +
            `Here: ${commandsFor('chat')
              .map((c) => `/${c.name}`)
              .join(', ')}.\n`,
        );
        continue;
      }
      controller = new AbortController();
      interrupts = 0;
      turnRunning = true;
      const result = await runTurn(opened, text, controller.signal).finally(() => (turnRunning = false));
      if (output.closed) return output.exitCode;
      if (result.status === 'error')
        process.stderr.write(`hermes: ${withCommandForm(result.error ?? 'the turn failed')}\n`);
    }
  } finally {
    process.off('SIGINT', onSigint);
    rl?.close();
    lock.release();
    opened.close();
    await mcp?.close();
  }
}

/**
 * One turn of the in-process agent, with the session's state kept as the daemon keeps it:
 * `running` during the turn, then `idle` (also after a failed turn, whose stored reply carries
 * the error) or `interrupted`. A one-shot thus never leaves its session looking `active`.
 */
async function runTurn(
  opened: OpenedSession,
  text: string,
  signal: AbortSignal,
  images: StoredImage[] = [],
): Promise<TurnResult> {
  const setState = (state: string): void => {
    try {
      opened.db.setSessionState(opened.session.id, state);
    } catch {
      /* bookkeeping only: the transcript is what matters */
    }
  };
  setState('running');
  let status = 'error';
  try {
    const result = await opened.agent.runTurn(text, signal, images.length ? { images } : {});
    status = result.status;
    return result;
  } finally {
    setState(status === 'interrupted' ? 'interrupted' : 'idle');
  }
}

/**
 * The `--image` files of a one-shot, checked and put in the profile's media store.
 * @throws ImageAttachmentError naming the refused file (the CLI prints it, exit 1).
 */
async function chatImages(ctx: CliContext, opts: ChatOptions, config: HermesConfig): Promise<StoredImage[]> {
  if (!opts.images?.length) return [];
  const { MediaStore, resolveImages } = await import('../lazy/images.js');
  return resolveImages(
    opts.images.map((path) => ({ kind: 'image' as const, path })),
    {
      store: new MediaStore(ctx.home.mediaDir),
      cwd: process.cwd(),
      maxBytes: config.images.max_bytes,
      home: ctx.home,
    },
  );
}

/** Starts this profile's MCP servers when config.yaml names any (`mcp_servers`). */
async function startMcp(
  ctx: CliContext,
  config: HermesConfig,
  secrets: Secrets,
): Promise<McpManager | undefined> {
  if (Object.keys(config.mcp_servers ?? {}).length === 0) return undefined;
  const { createMcpManager, mcpServerSandbox } = await import('../lazy/mcp.js');
  return createMcpManager(ctx.home, config, {
    secrets,
    sandbox: () => mcpServerSandbox(ctx.home, config),
    log: (line) => process.stderr.write(`  … ${line}\n`),
  });
}

function writeJson(obj: unknown): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

function jsonRenderer(): (e: AgentEvent, sessionId: string) => void {
  return (e, sessionId) => writeJson({ type: e.type, session_id: sessionId, payload: e.payload });
}
