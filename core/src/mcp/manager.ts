/**
 * The MCP client of one profile: starts the servers of `mcp_servers`
 * through the official SDK, offers their tools as `mcp_<server>_<tool>` ToolDefinitions, reports
 * each server's state for `/mcp`, and restarts them on `reload`.
 *
 * - One `McpManager` per profile home, owned by whoever serves that profile (the daemon's
 *   profile runtime, `hermes chat`): never a process-wide singleton, so one profile's servers
 *   never appear in another's sessions.
 * - Servers start concurrently; each gets `timeout` seconds (default 30) to connect and list its
 *   tools. A server that fails to start (bad config, command not found, crash, timeout, HTTP
 *   error) is `failed` with a message (plus the end of its stderr for stdio servers); the others
 *   work. `/mcp reload` tries it again.
 * - A server that was ready and drops (a stdio process exits, an HTTP server cannot be reached)
 *   is restarted with capped exponential backoff (0.5 s → 30 s, backoff.ts); an HTTP session the
 *   server no longer knows is renewed at once (connection.ts). Each change of state goes to
 *   `onStatus` (the daemon sends it to its clients as `mcp.status`).
 * - A `tools/list_changed` notification refreshes the server's tools. `tools()` is read again
 *   at every turn of a session (`AgentOptions.toolSource`), so a server that gets ready (or
 *   ready again) after a session opened, changes its tools or is removed by `reload` shows on
 *   that session's next turn.
 * - Results over the tool-output cap reach the model cut, with a marker (mcp-tools.ts); stdio
 *   messages of any size keep the connection up (stdio-transport.ts).
 * - stdio servers get the SDK's minimal environment (HOME, PATH, SHELL, TERM, USER, LOGNAME) plus
 *   their `env`; the profile's secrets reach a server only through `${NAME}` in its config.
 */
import { mkdirSync } from 'node:fs';
import type { CommandSandbox } from '../tools/types.js';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { ToolDefinition } from '../tools/types.js';
import type { BackoffPolicy, Clock } from './backoff.js';
import { parseMcpServers } from './config.js';
import { clockTime, McpConnection, type McpServerStatus } from './connection.js';
import { MCP_RESULT_MAX_CHARS, type McpCall } from './mcp-tools.js';

export type { McpServerState, McpServerStatus } from './connection.js';

/** Options of `McpManager`. */
export interface McpManagerOptions {
  home: HermesHome;
  /** The profile's secrets, for `${NAME}` in server settings. */
  secrets?: Secrets;
  /** Receives one line per start, failure, restart and stop. */
  log?: (line: string) => void;
  /** Told each time a server's state changes, with its new status. */
  onStatus?: (status: McpServerStatus) => void;
  /** Reported to servers in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Timers for restarts (tests inject a fake one). */
  clock?: Clock;
  /** How restarts are spaced (default 0.5 s → 30 s, 10 attempts). */
  backoff?: BackoffPolicy;
  /**
   * The sandbox stdio servers start in, asked at each (re)start: the daemon and `hermes chat`
   * pass the profile's `tui`-lane policy (servers are shared by every session of the profile).
   * A server without `cwd` then gets the profile's `workspace/` as its writable folder.
   * Absent: servers run on the bare host.
   */
  sandbox?: () => CommandSandbox | undefined;
}

/** Chars of a long string a streamed stdio message keeps: the cap, less room for the marker. */
const STDIO_STRING_CHARS = MCP_RESULT_MAX_CHARS - 1_000;

/** The MCP servers of one profile. Create with `createMcpManager` or `new McpManager(…).start(…)`. */
export class McpManager {
  private conns: McpConnection[] = [];
  private invalid: McpServerStatus[] = [];

  constructor(private readonly opts: McpManagerOptions) {}

  /** The profile home this manager serves. */
  get home(): HermesHome {
    return this.opts.home;
  }

  private log(line: string): void {
    try {
      this.opts.log?.(`mcp[${this.opts.home.profile}] ${line}`);
    } catch {
      /* logging never breaks the client */
    }
  }

  /**
   * Starts every enabled server of `section` (the config's `mcp_servers`) and waits until each is
   * ready or failed. Servers already running are stopped first. Never rejects.
   */
  async start(section: unknown): Promise<McpServerStatus[]> {
    await this.close();
    const { servers, errors } = parseMcpServers(section, this.opts.secrets ?? {});
    this.invalid = errors.map((e) => ({
      name: e.name,
      kind: 'invalid',
      state: 'failed',
      target: '',
      error: e.message,
      tools: [],
    }));
    for (const e of errors) this.log(`config error: ${e.message}`);
    const conns = servers.map((spec) => {
      const c: McpConnection = new McpConnection(spec, {
        clientInfo: this.opts.clientInfo ?? { name: 'hermes', version: '0.1.0' },
        call: this.caller(spec.name),
        log: (line) => this.log(line),
        onChange: () => this.changed(c),
        ...(this.opts.clock ? { clock: this.opts.clock } : {}),
        ...(this.opts.backoff ? { backoff: this.opts.backoff } : {}),
        stdioLimits: { maxStringChars: STDIO_STRING_CHARS, maxTotalChars: 4 * STDIO_STRING_CHARS },
        ...(this.opts.sandbox ? { sandbox: () => this.sandboxOf() } : {}),
        // the server outlives no owner: recorded and watched like a terminal command
        track: { root: this.opts.home.root, profile: this.opts.home.profile, session: `mcp:${spec.name}` },
      });
      return c;
    });
    this.conns = conns;
    await Promise.all(conns.map((c) => c.start()));
    return this.status();
  }

  /** The sandbox of the next stdio start and its default folder (see `McpManagerOptions.sandbox`). */
  private sandboxOf(): { sandbox: CommandSandbox; cwd: string } | undefined {
    const sandbox = this.opts.sandbox?.();
    if (!sandbox || sandbox.mode === 'off') return undefined;
    const cwd = this.opts.home.path('workspace');
    mkdirSync(cwd, { recursive: true });
    return { sandbox, cwd };
  }

  private changed(c: McpConnection): void {
    try {
      this.opts.onStatus?.(c.status());
    } catch {
      /* a listener never breaks the client */
    }
  }

  /**
   * Calls tool `tool` of the server named `server` as it is now (after a restart or a reload,
   * tools handed to older sessions reach the new connection). Rejects when that server is not
   * running.
   */
  private caller(server: string): McpCall {
    return (tool, args, signal) => {
      const c = this.conns.find((x) => x.spec.name === server);
      if (!c)
        return Promise.reject(
          new Error(`MCP server "${server}" is not configured any more; /mcp shows the servers`),
        );
      return c.call(tool, args, signal);
    };
  }

  /** The tools of every ready server, in config order (a new array each call). */
  tools(): ToolDefinition[] {
    return this.conns.filter((c) => c.ready).flatMap((c) => c.tools);
  }

  /** Every configured server with its state, in config order; bad entries last. */
  status(): McpServerStatus[] {
    return [...this.conns.map((c) => c.status()), ...this.invalid];
  }

  /**
   * Checks the ready HTTP servers (a ping: a forgotten session is renewed, an unreachable server
   * goes to backoff), then returns `status()`. Never rejects.
   */
  async refresh(): Promise<McpServerStatus[]> {
    await Promise.all(this.conns.map((c) => c.probe()));
    return this.status();
  }

  /** Stops every server and starts them again from `section` (re-read the config first). */
  reload(section: unknown): Promise<McpServerStatus[]> {
    return this.start(section);
  }

  /** Stops every server (stdio children get stdin closed, then SIGTERM, then SIGKILL). Never rejects. */
  async close(): Promise<void> {
    const conns = this.conns;
    this.conns = [];
    await Promise.all(conns.map((c) => c.close()));
  }
}

/**
 * Creates the manager of one profile and starts the servers of `config.mcp_servers`.
 * Resolves when every server is ready or failed; never rejects.
 */
export async function createMcpManager(
  home: HermesHome,
  config: HermesConfig,
  opts: Omit<McpManagerOptions, 'home'> = {},
): Promise<McpManager> {
  const manager = new McpManager({ home, ...opts });
  await manager.start(config.mcp_servers);
  return manager;
}

/** The words `/mcp` uses for a state, e.g. `backing off until 14:03:07, in 2 s (attempt 3)`. */
export function describeState(s: McpServerStatus, now: number = Date.now()): string {
  if (s.state === 'backoff' && s.retryAt !== undefined) {
    const secs = Math.max(0, Math.ceil((s.retryAt - now) / 1000));
    return `backing off until ${clockTime(s.retryAt)}, in ${secs} s (attempt ${s.attempt ?? 1})`;
  }
  if (s.state === 'starting' && s.attempt) return `starting (restart attempt ${s.attempt})`;
  return s.state;
}

/** The text `/mcp` shows: one line per server (state, tools or error). */
export function formatMcpStatus(status: McpServerStatus[], now: number = Date.now()): string {
  if (status.length === 0) return 'No MCP servers configured (add them under mcp_servers in config.yaml).';
  const lines = status.map((s) => {
    const mark = s.state === 'ready' ? '●' : s.state === 'failed' ? '✗' : s.state === 'backoff' ? '◌' : '○';
    const head = `${mark} ${s.name} (${s.kind}) ${describeState(s, now)}`;
    if (s.state === 'ready') return `${head} · ${s.tools.length} tools: ${s.tools.join(', ') || '(none)'}`;
    if (s.error) return `${head}: ${s.error.split('\n').join('\n    ')}`;
    return head;
  });
  return `MCP servers:\n${lines.join('\n')}`;
}

/**
 * Runs `/mcp [list|reload]` for a profile and returns the text to show. `reload` restarts the
 * servers from `config` (pass a freshly loaded config).
 */
export async function runMcpCommand(
  manager: McpManager,
  args: string,
  config?: HermesConfig,
): Promise<string> {
  const verb = args.trim().split(/\s+/)[0]?.toLowerCase() || 'list';
  if (verb === 'reload') {
    if (!config) return 'reload needs the current config';
    const status = await manager.reload(config.mcp_servers);
    return `Reloaded.\n${formatMcpStatus(status)}\nSessions see added or removed tools from their next turn.`;
  }
  if (verb === 'list' || verb === 'status') return formatMcpStatus(await manager.refresh());
  return 'Usage: /mcp [list|reload]';
}
