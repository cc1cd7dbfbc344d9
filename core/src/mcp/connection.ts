/**
 * One configured MCP server: its client connection, its tools, and how it recovers.
 *
 * - stdio: the child process runs under `HermesStdioTransport` (messages over 10 MiB survive,
 *   cut to the tool-output cap). When it exits, it is restarted with capped exponential backoff
 *   (backoff.ts); its stderr tail is part of the reason shown meanwhile.
 * - streamable HTTP: a 404 to a request carrying our session id means the server no longer knows
 *   the session (it restarted, or expired it). As the spec requires, a new session is started with
 *   `initialize` (no session id), the tools are listed again, and the tool call that got the 404
 *   is sent once more. A server that cannot be reached (a tool call or `/mcp`'s ping fails to
 *   connect, or its event stream cannot be reopened) is restarted with backoff like a stdio one.
 * - A tool call while a restart runs waits for it; a call while backing off tries at once.
 * - Tool definitions call the server through `McpManager`, by name, so the definitions a session
 *   already holds reach the restarted (or reloaded) server.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProcessTag } from '../tools/process-registry.js';
import type { CommandSandbox, ToolDefinition } from '../tools/types.js';
import { ServerLife, type BackoffPolicy, type Clock, type LifePhase } from './backoff.js';
import type { McpServerSpec } from './config.js';
import type { JsonCapLimits } from './json-stream.js';
import { mcpToolDefinition, type McpCall, type McpCallResult } from './mcp-tools.js';
import { HermesStdioTransport } from './stdio-transport.js';

/** Where a server is: `backoff` waits for the next restart attempt. */
export type McpServerState = 'starting' | 'ready' | 'backoff' | 'failed' | 'disabled' | 'stopped';

/** One server as `/mcp` shows it. */
export interface McpServerStatus {
  name: string;
  /** `invalid` for an entry whose config could not be used. */
  kind: 'stdio' | 'http' | 'invalid';
  state: McpServerState;
  /** Command line (stdio) or URL (HTTP). */
  target: string;
  /** Why it failed, or why it is backing off. */
  error?: string;
  /** Namespaced names of its tools (when ready). */
  tools: string[];
  /** Process id of a ready stdio server. */
  pid?: number;
  /** Restart attempt (1-based) while starting again or backing off. */
  attempt?: number;
  /** When the next restart attempt is due, epoch ms (backing off). */
  retryAt?: number;
}

/** What a connection needs from its manager. */
export interface ConnectionDeps {
  clientInfo: { name: string; version: string };
  /** Handed to the server's tool definitions (calls the server by name, through the manager). */
  call: McpCall;
  log: (line: string) => void;
  /** Told after every change of state. */
  onChange: () => void;
  clock?: Clock;
  backoff?: BackoffPolicy;
  /** Caps for stdio messages parsed as they stream in. */
  stdioLimits?: Partial<JsonCapLimits>;
  /**
   * The sandbox a stdio server starts in (asked at each start; absent or mode `off`: the bare
   * host), and its writable folder when the server's config names no `cwd`.
   */
  sandbox?: () => { sandbox: CommandSandbox; cwd: string } | undefined;
  /** A stdio server's process group is recorded as a tool process under this tag (stdio-transport.ts). */
  track?: ToolProcessTag;
}

const STDERR_TAIL_CHARS = 2_000;
const PING_TIMEOUT_MS = 5_000;
const SSE_MODULE = '@modelcontextprotocol/sdk/client/sse.js';

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const firstLine = (s: string): string => s.split('\n')[0]!;

/** A 404 from the streamable HTTP transport: the session id is unknown to the server. */
function isSessionExpired(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 404;
}

/** fetch could not reach the server (refused, reset, DNS). */
function isUnreachable(err: unknown): boolean {
  return err instanceof TypeError && /fetch failed/.test(err.message);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** `p`, or a rejection as soon as `signal` aborts. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('interrupted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** `HH:MM:SS` local time of an epoch ms. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** One server of the config, with its restart state machine. */
export class McpConnection {
  /** Its tools while ready (namespaced `mcp_<server>_<tool>`). */
  tools: ToolDefinition[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private pid: number | undefined;
  private stderrTail = '';
  private closed = false;
  /** Clients whose HTTP session the server no longer knew (their requests in flight died too). */
  private readonly expired = new WeakSet<Client>();
  private readonly life: ServerLife;

  constructor(
    readonly spec: McpServerSpec,
    private readonly deps: ConnectionDeps,
  ) {
    this.life = new ServerLife({
      open: () => this.open(),
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.backoff ? { policy: deps.backoff } : {}),
      onChange: (p) => this.changed(p),
    });
  }

  /** Command line (stdio) or URL (HTTP). */
  get target(): string {
    return this.spec.kind === 'stdio' ? [this.spec.command, ...this.spec.args].join(' ') : this.spec.url;
  }

  /** True while its tools can be called. */
  get ready(): boolean {
    return this.spec.enabled && this.life.phase.state === 'ready' && this.client !== undefined;
  }

  /** Connects (a disabled server stays off). Resolves when ready or failed; never rejects. */
  start(): Promise<void> {
    return this.spec.enabled ? this.life.start() : Promise.resolve();
  }

  private changed(p: LifePhase): void {
    const name = `"${this.spec.name}"`;
    if (p.state === 'ready')
      this.deps.log(
        `${name} ${p.attempt > 0 ? `restarted (attempt ${p.attempt}), ` : ''}ready with ${this.tools.length} tools`,
      );
    else if (p.state === 'backoff')
      this.deps.log(
        `${name} is down (${firstLine(p.reason)}); restart attempt ${p.attempt} at ${clockTime(p.retryAt)}`,
      );
    else if (p.state === 'failed') this.deps.log(`${name} failed: ${p.reason}`);
    this.deps.onChange();
  }

  private failure(text: string): string {
    const tail = this.stderrTail.trim();
    return tail ? `${text}\n${tail.split('\n').slice(-8).join('\n')}` : text;
  }

  /** One connection attempt: a new transport and client, `initialize`, the tool list. */
  private async open(): Promise<void> {
    await this.detach();
    if (this.closed) throw new Error('stopped');
    this.stderrTail = '';
    const { spec } = this;
    const ms = spec.timeoutSec * 1000;
    let client: Client | undefined;
    let transport: Transport | undefined;
    let closedEarly = false;
    try {
      const [{ Client }, t] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        this.transportFor(),
      ]);
      transport = this.transport = t;
      const c = new Client(this.deps.clientInfo, {
        capabilities: {},
        listChanged: {
          tools: {
            onChanged: (err, tools) => {
              if (!err && tools && this.client === c) this.setTools(tools);
            },
          },
        },
      });
      client = c;
      c.onclose = () => {
        closedEarly = true;
        this.dropped(c);
      };
      c.onerror = (err) => this.transportError(c, err);
      await withTimeout(c.connect(t, { timeout: ms }), ms, `connecting to "${spec.name}"`);
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await c.listTools(cursor ? { cursor } : undefined, { timeout: ms });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (closedEarly) throw new Error(this.closeReason(t));
      if (this.closed) throw new Error('stopped');
      this.client = c;
      this.pid = t instanceof HermesStdioTransport ? t.pid : undefined;
      this.setTools(tools);
    } catch (err) {
      if (this.transport === transport) this.transport = undefined;
      await (client ? client.close() : transport?.close())?.catch(() => undefined);
      throw new Error(this.failure(`could not start: ${message(err)}`), { cause: err });
    }
  }

  private setTools(tools: Tool[]): void {
    this.tools = tools.map((t) => mcpToolDefinition(this.spec.name, t, this.deps.call));
  }

  private async transportFor(): Promise<Transport> {
    const { spec } = this;
    if (spec.kind === 'stdio') {
      const sb = this.deps.sandbox?.();
      // in the sandbox: bwrap runs the server, its cwd (or the default) the one writable folder
      const argv =
        sb && sb.sandbox.mode !== 'off'
          ? sb.sandbox.wrap([spec.command, ...spec.args], { cwd: spec.cwd ?? sb.cwd })
          : [spec.command, ...spec.args];
      const t = new HermesStdioTransport({
        command: argv[0]!,
        args: argv.slice(1),
        env: spec.env,
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        ...(this.deps.stdioLimits ? { limits: this.deps.stdioLimits } : {}),
        ...(this.deps.track ? { track: this.deps.track } : {}),
      });
      t.stderr.on('data', (d: Buffer | string) => {
        this.stderrTail = (this.stderrTail + d.toString()).slice(-STDERR_TAIL_CHARS);
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

  private closeReason(t: Transport | undefined): string {
    const exit = t instanceof HermesStdioTransport ? t.exitReason : undefined;
    return exit ? `the server ${exit}` : 'the connection closed (the server exited or dropped it)';
  }

  /** The current client's connection closed: restart with backoff. */
  private dropped(client: Client): void {
    if (client !== this.client) return;
    const reason = this.failure(this.closeReason(this.transport));
    this.client = undefined;
    this.transport = undefined;
    this.life.lost(reason);
  }

  /** The current client cannot reach its server: drop it and restart with backoff. */
  private lose(client: Client, reason: string): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.transport = undefined;
    this.life.lost(reason);
    void client.close().catch(() => undefined);
  }

  private transportError(client: Client, err: Error): void {
    if (client !== this.client) return;
    if (this.spec.kind === 'http' && isSessionExpired(err)) {
      void this.renew(client);
      return;
    }
    if (this.spec.kind === 'http' && /Maximum reconnection attempts/.test(err.message)) {
      this.lose(client, `the server stopped answering (its event stream could not be reopened)`);
      return;
    }
    this.deps.log(`"${this.spec.name}" transport error: ${message(err)}`);
  }

  /** Starts a new HTTP session for `client`'s expired one (once, however many ask). */
  private renew(client: Client): Promise<void> {
    this.expired.add(client);
    if (client !== this.client) return this.life.settled();
    this.deps.log(`"${this.spec.name}" no longer knows our session (HTTP 404): starting a new one`);
    return this.life.restartNow('the server no longer knew the session (HTTP 404)');
  }

  /**
   * Calls `tool`. Waits for a restart that is running; a call while backing off tries at once.
   * An HTTP session the server no longer knows is renewed and the call sent once more.
   * @throws Error when the server is not running, or the call fails.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const phase = this.life.phase.state;
    if (this.spec.enabled && phase === 'backoff')
      await abortable(this.life.restartNow('a tool call'), signal);
    else if (this.spec.enabled && phase === 'starting') await abortable(this.life.settled(), signal);
    const client = this.client;
    if (!client || !this.ready) throw new Error(this.notRunning());
    try {
      return await this.callOn(client, tool, args, signal);
    } catch (err) {
      if (this.spec.kind !== 'http') throw err;
      // a 404 (here, or to another request of the session, which closed this one's connection)
      if (isSessionExpired(err) || this.expired.has(client)) {
        await abortable(this.renew(client), signal);
        const again = this.client;
        if (!again || !this.ready) throw new Error(this.notRunning(), { cause: err });
        return this.callOn(again, tool, args, signal);
      }
      if (isUnreachable(err)) this.lose(client, `the server cannot be reached (${message(err)})`);
      throw err;
    }
  }

  private callOn(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallResult> {
    return client.callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: this.spec.toolTimeoutSec * 1000,
    });
  }

  private notRunning(): string {
    const name = `MCP server "${this.spec.name}"`;
    if (!this.spec.enabled) return `${name} is disabled (enabled: false in config.yaml)`;
    const p = this.life.phase;
    switch (p.state) {
      case 'backoff':
        return `${name} is restarting (attempt ${p.attempt} at ${clockTime(p.retryAt)}; ${firstLine(p.reason)}); /mcp shows its state`;
      case 'failed':
        return `${name} is not running (${firstLine(p.reason)}); /mcp shows its state, /mcp reload restarts it`;
      case 'stopped':
        return `${name} is not running (stopped); /mcp reload restarts it`;
      default:
        return `${name} is not running (${p.state}); /mcp shows its state`;
    }
  }

  /**
   * Checks that a ready HTTP server still knows our session (a ping): a 404 starts a new one,
   * an unreachable server is restarted with backoff. stdio servers need no check (their exit is
   * seen at once). Never rejects.
   */
  async probe(): Promise<void> {
    const client = this.client;
    if (this.spec.kind !== 'http' || !client || !this.ready) return;
    try {
      await client.ping({ timeout: Math.min(PING_TIMEOUT_MS, this.spec.timeoutSec * 1000) });
    } catch (err) {
      if (isSessionExpired(err) || this.expired.has(client)) await this.renew(client);
      else if (isUnreachable(err)) this.lose(client, `the server cannot be reached (${message(err)})`);
    }
  }

  /** The state as `/mcp` shows it. */
  status(): McpServerStatus {
    const base = { name: this.spec.name, kind: this.spec.kind, target: this.target, tools: [] as string[] };
    if (!this.spec.enabled) return { ...base, state: 'disabled' };
    const p = this.life.phase;
    switch (p.state) {
      case 'ready':
        return {
          ...base,
          state: 'ready',
          tools: this.tools.map((t) => t.name),
          ...(this.pid !== undefined ? { pid: this.pid } : {}),
        };
      case 'starting':
        return { ...base, state: 'starting', ...(p.attempt > 0 ? { attempt: p.attempt } : {}) };
      case 'backoff':
        return { ...base, state: 'backoff', attempt: p.attempt, retryAt: p.retryAt, error: p.reason };
      case 'failed':
        return { ...base, state: 'failed', error: p.reason };
      case 'stopped':
        return { ...base, state: 'stopped' };
    }
  }

  private async detach(): Promise<void> {
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    this.pid = undefined;
    await (client ? client.close() : transport?.close())?.catch(() => undefined);
  }

  /** Stops for good (stdio children get stdin closed, then SIGTERM, then SIGKILL). Never rejects. */
  async close(): Promise<void> {
    this.closed = true;
    this.life.stop();
    await this.detach();
  }
}
