/**
 * The parent side of execute_code's tool RPC: a Unix domain socket in a
 * private temporary folder (mode 0700), JSON lines in both directions (protocol in `stubs.ts`).
 *
 * - A request without the run's token closes the connection.
 * - Calls run one at a time, in arrival order, through `dispatch` (the registry's `runTool` with
 *   the session's own `ToolContext`, so approvals, checkpoints and result caps apply as for a
 *   direct call).
 * - Once `maxCalls` calls were accepted, every further request is answered with a failure naming
 *   the limit (`limitHit` becomes true) and is not run.
 * - A tool that is not offered to scripts is answered with a failure listing the offered ones.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOn } from '../../util/listen.js';

/** Runs one tool call for the script. Must not reject. */
export type RpcDispatch = (
  tool: string,
  args: Record<string, unknown>,
) => Promise<{ ok: boolean; content: string }>;

/** Options of `startRpcServer`. */
export interface RpcServerOptions {
  /** Names the script may call. */
  allowed: ReadonlySet<string>;
  /** Accepted calls before `limitHit` (code_execution.max_tool_calls). */
  maxCalls: number;
  dispatch: RpcDispatch;
  /** Called when a call is accepted (1-based count, tool name). */
  onCall?: (n: number, tool: string, args: Record<string, unknown>) => void;
}

/** A running RPC server. */
export interface RpcServer {
  /** Private folder holding the socket (the runner puts the script and stubs here too). */
  readonly dir: string;
  /** Path of the socket (`HERMES_RPC_SOCKET`). */
  readonly socketPath: string;
  /** Secret the client sends with every request (`HERMES_RPC_TOKEN`). */
  readonly token: string;
  /** Calls accepted (and run) so far. */
  readonly calls: number;
  /** True once a call was refused for exceeding `maxCalls`. */
  readonly limitHit: boolean;
  /** Waits for the calls already accepted, then stops listening and removes the folder. */
  close(): Promise<void>;
}

const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Starts listening on a new socket in a fresh private folder under the OS temp directory.
 * @throws Error when the socket cannot be created.
 */
export async function startRpcServer(opts: RpcServerOptions): Promise<RpcServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-exec-'));
  chmodSync(dir, 0o700);
  const socketPath = join(dir, 'rpc.sock');
  const token = randomBytes(24).toString('hex');
  let calls = 0;
  let limitHit = false;
  let queue: Promise<void> = Promise.resolve();
  const sockets = new Set<Socket>();

  const reply = (sock: Socket, id: unknown, ok: boolean, content: string): void => {
    if (!sock.destroyed) sock.write(`${JSON.stringify({ id, ok, content })}\n`);
  };

  const handleLine = (sock: Socket, line: string): void => {
    let msg: { id?: unknown; token?: unknown; tool?: unknown; args?: unknown };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      reply(sock, null, false, 'execute_code RPC: a request was not valid JSON');
      return;
    }
    if (msg.token !== token) {
      sock.destroy();
      return;
    }
    const tool = typeof msg.tool === 'string' ? msg.tool : '';
    const args =
      msg.args && typeof msg.args === 'object' && !Array.isArray(msg.args)
        ? (msg.args as Record<string, unknown>)
        : {};
    if (!opts.allowed.has(tool)) {
      reply(
        sock,
        msg.id,
        false,
        `${tool || '(no name)'} is not available inside execute_code. Available: ${[...opts.allowed].join(', ')}.`,
      );
      return;
    }
    if (calls >= opts.maxCalls) {
      limitHit = true;
      reply(
        sock,
        msg.id,
        false,
        `execute_code: tool call limit reached (${opts.maxCalls} calls, code_execution.max_tool_calls); ${tool} was not run.`,
      );
      return;
    }
    const n = ++calls;
    opts.onCall?.(n, tool, args);
    queue = queue.then(async () => {
      const r = await opts.dispatch(tool, args).catch((err: unknown) => ({
        ok: false,
        content: `${tool} failed: ${err instanceof Error ? err.message : String(err)}`,
      }));
      reply(sock, msg.id, r.ok, r.content);
    });
  };

  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.setEncoding('utf8');
    let buf = '';
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE_CHARS) {
        sock.destroy();
        return;
      }
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) handleLine(sock, line);
      }
    });
    sock.on('error', () => undefined);
    sock.on('close', () => sockets.delete(sock));
  });
  await listenOn(server, socketPath);
  chmodSync(socketPath, 0o600);

  return {
    dir,
    socketPath,
    token,
    get calls() {
      return calls;
    },
    get limitHit() {
      return limitHit;
    },
    async close() {
      await queue;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
