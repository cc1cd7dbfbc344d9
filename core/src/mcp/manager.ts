/**
 * The MCP client of one profile (issue 8 "MCP client"): starts the servers of `mcp_servers`
 * through the official SDK, offers their tools as `mcp_<server>_<tool>` ToolDefinitions, reports
 * each server's state for `/mcp`, and restarts them on `reload`.
 *
 * - One `McpManager` per profile home, owned by whoever serves that profile (the daemon's
 *   profile runtime, `hermes chat`): never a process-wide singleton, so one profile's servers
 *   never appear in another's sessions.
 * - Servers start concurrently; each gets `timeout` seconds (default 30) to connect and list its
 *   tools. A server that fails (bad config, command not found, crash, timeout, HTTP error) is
 *   `failed` with a message (plus the end of its stderr for stdio servers); the others work.
 * - A server whose connection drops later becomes `failed`; its tools then answer with an error
 *   saying so until `reload`.
 * - A `tools/list_changed` notification refreshes the server's tools. `tools()` is read again
 *   at every turn of a session (`AgentOptions.toolSource`), so a server that gets ready after a
 *   session opened, changes its tools or is removed by `reload` shows on that session's next turn.
 * - stdio servers get the SDK's minimal environment (HOME, PATH, SHELL, TERM, USER, LOGNAME) plus
 *   their `env`; the profile's secrets reach a server only through `${NAME}` in its config.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { ToolDefinition } from '../tools/types.js';
import { parseMcpServers, type McpServerSpec } from './config.js';
import { mcpToolDefinition, type McpCall } from './mcp-tools.js';

/** Where a server is in its life. */
export type McpServerState = 'starting' | 'ready' | 'failed' | 'disabled' | 'stopped';

/** One server as `/mcp` shows it. */
export interface McpServerStatus {
  name: string;
  /** `invalid` for an entry whose config could not be used. */
  kind: 'stdio' | 'http' | 'invalid';
  state: McpServerState;
  /** Command line (stdio) or URL (HTTP). */
  target: string;
  /** Why it failed. */
  error?: string;
  /** Namespaced names of its tools (when ready). */
  tools: string[];
  /** Process id of a stdio server. */
  pid?: number;
}

/** Options of `McpManager`. */
export interface McpManagerOptions {
  home: HermesHome;
  /** The profile's secrets, for `${NAME}` in server settings. */
  secrets?: Secrets;
  /** Receives one line per start, failure and stop. */
  log?: (line: string) => void;
  /** Reported to servers in `initialize`. */
  clientInfo?: { name: string; version: string };
}

const STDERR_TAIL_CHARS = 2_000;
const SSE_MODULE = '@modelcontextprotocol/sdk/client/sse.js';

class Connection {
  state: McpServerState = 'starting';
  error?: string;
  client?: Client;
  transport?: Transport;
  tools: ToolDefinition[] = [];
  pid?: number;
  stderrTail = '';

  constructor(readonly spec: McpServerSpec) {}

  get target(): string {
    return this.spec.kind === 'stdio' ? [this.spec.command, ...this.spec.args].join(' ') : this.spec.url;
  }

  setTools(tools: Tool[], call: (server: string) => McpCall): void {
    this.tools = tools.map((t) => mcpToolDefinition(this.spec.name, t, call(this.spec.name)));
  }

  failure(message: string): string {
    const tail = this.stderrTail.trim();
    return tail ? `${message}\n${tail.split('\n').slice(-8).join('\n')}` : message;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The MCP servers of one profile. Create with `createMcpManager` or `new McpManager(…).start(…)`. */
export class McpManager {
  private conns: Connection[] = [];
  private invalid: McpServerStatus[] = [];
  private generation = 0;

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
    const generation = ++this.generation;
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
    this.conns = servers.map((s) => new Connection(s));
    await Promise.all(
      this.conns.map(async (c) => {
        if (!c.spec.enabled) {
          c.state = 'disabled';
          return;
        }
        await this.connect(c, generation);
      }),
    );
    return this.status();
  }

  private async connect(c: Connection, generation: number): Promise<void> {
    const { spec } = c;
    const ms = spec.timeoutSec * 1000;
    try {
      const [{ Client }, transport] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        this.transportFor(c),
      ]);
      const client = new Client(this.opts.clientInfo ?? { name: 'hermes', version: '0.1.0' }, {
        capabilities: {},
        listChanged: {
          tools: {
            onChanged: (err, tools) => {
              if (!err && tools && c.client === client) c.setTools(tools, this.caller);
            },
          },
        },
      });
      c.client = client;
      c.transport = transport;
      await withTimeout(client.connect(transport, { timeout: ms }), ms, `connecting to "${spec.name}"`);
      if (spec.kind === 'stdio') c.pid = (transport as StdioClientTransport).pid ?? undefined;
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: ms });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (generation !== this.generation) {
        await client.close().catch(() => undefined);
        return;
      }
      c.setTools(tools, this.caller);
      c.state = 'ready';
      client.onclose = () => {
        if (c.state === 'ready' && c.client === client) {
          c.state = 'failed';
          c.error = c.failure('the connection closed (the server exited or dropped it)');
          this.log(`"${spec.name}" disconnected: ${c.error}`);
        }
      };
      this.log(`"${spec.name}" ready with ${tools.length} tools`);
    } catch (err) {
      c.state = 'failed';
      c.error = c.failure(`could not start: ${err instanceof Error ? err.message : String(err)}`);
      this.log(`"${spec.name}" ${c.error}`);
      const client = c.client;
      c.client = undefined;
      await (client ? client.close() : c.transport?.close())?.catch(() => undefined);
    }
  }

  private async transportFor(c: Connection): Promise<Transport> {
    const { spec } = c;
    if (spec.kind === 'stdio') {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const t = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        env: spec.env,
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        stderr: 'pipe',
      });
      t.stderr?.on('data', (d: Buffer | string) => {
        c.stderrTail = (c.stderrTail + d.toString()).slice(-STDERR_TAIL_CHARS);
      });
      return t;
    }
    const requestInit = { headers: spec.headers };
    if (spec.transport === 'sse') {
      // Loaded untyped: sse.d.ts pulls in `eventsource`, whose "source" export condition points
      // at raw .ts files that a tsconfig with customConditions ["source"] would type-check.
      const { SSEClientTransport } = (await import(SSE_MODULE)) as {
        SSEClientTransport: new (url: URL, opts: { requestInit: RequestInit }) => Transport;
      };
      return new SSEClientTransport(new URL(spec.url), { requestInit });
    }
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit });
  }

  /**
   * Calls tool `tool` of the server named `server` as it is now (after a reload, tools handed to
   * older sessions reach the restarted server). Rejects when that server is not ready.
   */
  private readonly caller =
    (server: string): McpCall =>
    (tool, args, signal) => {
      const c = this.conns.find((x) => x.spec.name === server);
      if (!c || c.state !== 'ready' || !c.client)
        return Promise.reject(
          new Error(
            `MCP server "${server}" is not running (${c?.error?.split('\n')[0] ?? c?.state ?? 'not configured'}); /mcp shows its state, /mcp reload restarts it`,
          ),
        );
      return c.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: c.spec.toolTimeoutSec * 1000,
      });
    };

  /** The tools of every ready server, in config order (a new array each call). */
  tools(): ToolDefinition[] {
    return this.conns.filter((c) => c.state === 'ready').flatMap((c) => c.tools);
  }

  /** Every configured server with its state, in config order; bad entries last. */
  status(): McpServerStatus[] {
    return [
      ...this.conns.map((c) => ({
        name: c.spec.name,
        kind: c.spec.kind,
        state: c.state,
        target: c.target,
        ...(c.error ? { error: c.error } : {}),
        tools: c.state === 'ready' ? c.tools.map((t) => t.name) : [],
        ...(c.pid !== undefined && c.state === 'ready' ? { pid: c.pid } : {}),
      })),
      ...this.invalid,
    ];
  }

  /** Stops every server and starts them again from `section` (re-read the config first). */
  reload(section: unknown): Promise<McpServerStatus[]> {
    return this.start(section);
  }

  /** Stops every server (stdio children get stdin closed, then SIGTERM, then SIGKILL). Never rejects. */
  async close(): Promise<void> {
    this.generation++;
    const conns = this.conns;
    this.conns = [];
    await Promise.all(
      conns.map(async (c) => {
        const client = c.client;
        c.state = c.state === 'disabled' ? 'disabled' : 'stopped';
        c.client = undefined;
        await (client ? client.close() : c.transport?.close())?.catch(() => undefined);
      }),
    );
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

/** The text `/mcp` shows: one line per server (state, tools or error). */
export function formatMcpStatus(status: McpServerStatus[]): string {
  if (status.length === 0) return 'No MCP servers configured (add them under mcp_servers in config.yaml).';
  const lines = status.map((s) => {
    const head = `${s.state === 'ready' ? '●' : s.state === 'failed' ? '✗' : '○'} ${s.name} (${s.kind}) ${s.state}`;
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
  if (verb === 'list' || verb === 'status') return formatMcpStatus(manager.status());
  return 'Usage: /mcp [list|reload]';
}
