/**
 * The stdio transport of MCP servers: the server runs as a child process, one JSON-RPC message
 * per line on its stdin/stdout (the spec's stdio transport). Used instead of the SDK's
 * `StdioClientTransport`, whose read buffer closes the connection on any message over 10 MiB (a
 * file server reading a 5.6 MB file sends 11 MB).
 *
 * - A message up to `wholeMessageBytes` (default 1 MiB) is parsed whole, as the SDK does.
 * - A longer one is parsed as it streams in (`CappedJsonParser`): its long strings keep head and
 *   tail, so memory stays bounded whatever the size, and the connection stays up. A cut response
 *   carries `result._meta["hermes/truncated"]` (`TruncationMeta`), read by mcp-tools.ts to tell
 *   the model what was cut.
 * - A malformed message is reported through `onerror` and skipped; the next line is read.
 * - The child gets the SDK's minimal environment (HOME, PATH, SHELL, TERM, USER, LOGNAME) plus
 *   `env`. `close()` ends stdin, then sends SIGTERM after 2 s and SIGKILL 2 s later.
 * - `exitReason` says how the process ended ("exited with code 1", "killed by SIGKILL").
 * - The server leads its own process group: `close()` signals the group (what the server started
 *   goes with it), and when the server exits, what it left running in its group is killed. With
 *   `track`, the group is in the record of tool processes while it runs (process-registry.ts), so
 *   the owner's watchdog ends it when the daemon or `hermes chat` dies without closing it (a
 *   SIGKILL, a crash) and the next daemon stops it if the watchdog was killed too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, recordToolProcess, type ToolProcessTag } from '../tools/process-registry.js';
import { CappedJsonParser, type JsonCapLimits, type JsonCapReport } from './json-stream.js';

/** Messages up to this size are parsed whole, bytes. */
export const WHOLE_MESSAGE_BYTES = 1024 * 1024;
/** The `_meta` key of a response whose message was cut on arrival. */
export const TRUNCATED_META_KEY = 'hermes/truncated';
const CLOSE_GRACE_MS = 2_000;

/** `result._meta["hermes/truncated"]` of a cut response. */
export interface TruncationMeta extends JsonCapReport {
  /** Size of the message as the server sent it, bytes. */
  bytes: number;
}

/** How to start the server and read it. */
export interface StdioTransportOptions {
  command: string;
  args?: string[];
  /** Added to the minimal environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Messages up to this size are parsed whole; longer ones stream, capped, bytes. */
  wholeMessageBytes?: number;
  /** Caps for streamed messages (see json-stream.ts). */
  limits?: Partial<JsonCapLimits>;
  /** Record the server's process group as a tool process under this tag (see the file comment). */
  track?: ToolProcessTag;
}

/**
 * Splits a byte stream into newline-delimited JSON messages, parsing long ones as they stream.
 * Exported for tests.
 */
export class MessageReader {
  private parts: Buffer[] = [];
  private bytes = 0;
  private parser: CappedJsonParser | undefined;
  private decoder: StringDecoder | undefined;
  private broken: Error | undefined;

  /**
   * @param onMessage gets each message (already checked against the JSON-RPC schema).
   * @param onError gets each message that could not be used.
   */
  constructor(
    private readonly onMessage: (message: JSONRPCMessage) => void,
    private readonly onError: (error: Error) => void,
    private readonly opts: { wholeMessageBytes?: number; limits?: Partial<JsonCapLimits> } = {},
  ) {}

  /** Reads the next chunk of stdout. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.feed(chunk.subarray(start, end));
      if (nl === -1) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  /** Forgets a partly read message. */
  clear(): void {
    this.parts = [];
    this.bytes = 0;
    this.parser = undefined;
    this.decoder = undefined;
    this.broken = undefined;
  }

  private feed(part: Buffer): void {
    this.bytes += part.length;
    if (this.broken) return;
    if (!this.parser) {
      this.parts.push(part);
      if (this.bytes <= (this.opts.wholeMessageBytes ?? WHOLE_MESSAGE_BYTES)) return;
      this.parser = new CappedJsonParser(this.opts.limits);
      this.decoder = new StringDecoder('utf8');
      const parts = this.parts;
      this.parts = [];
      for (const p of parts) this.parse(this.decoder.write(p));
      return;
    }
    this.parse(this.decoder!.write(part));
  }

  private parse(text: string): void {
    try {
      this.parser!.push(text);
    } catch (err) {
      this.broken = err as Error;
      this.parser = undefined;
    }
  }

  private finishLine(): void {
    const { bytes, parser, decoder, broken, parts } = this;
    this.clear();
    if (bytes === 0) return;
    let value: unknown;
    try {
      if (broken) throw broken;
      if (parser) {
        parser.push(decoder!.end());
        value = parser.end();
        annotate(value, parser.report, bytes);
      } else {
        value = JSON.parse(Buffer.concat(parts).toString('utf8'));
      }
      value = JSONRPCMessageSchema.parse(value);
    } catch (err) {
      this.onError(
        new Error(`dropped a ${formatBytes(bytes)} message from the server: ${(err as Error).message}`),
      );
      return;
    }
    this.onMessage(value as JSONRPCMessage);
  }
}

/** Marks a response whose strings or values were cut (`result._meta["hermes/truncated"]`). */
function annotate(value: unknown, report: JsonCapReport, bytes: number): void {
  if (report.stringsCut === 0 && report.valuesDropped === 0) return;
  const result = (value as { result?: unknown } | null)?.result;
  if (!result || typeof result !== 'object' || Array.isArray(result)) return;
  const r = result as { _meta?: unknown };
  const meta = r._meta && typeof r._meta === 'object' && !Array.isArray(r._meta) ? r._meta : {};
  const truncated: TruncationMeta = { bytes, ...report };
  r._meta = { ...meta, [TRUNCATED_META_KEY]: truncated };
}

/** `20.0 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** An MCP client transport over a child process's stdin/stdout; see the file comment. */
export class HermesStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The child's stderr (available before `start`, so nothing early is missed). */
  readonly stderr = new PassThrough();
  /** How the process ended, once it has. */
  exitReason: string | undefined;
  private child: ChildProcess | undefined;
  private readonly reader: MessageReader;
  /** Undoes the record of the process group (set while it runs with `track`). */
  private release: (() => void) | undefined;

  constructor(private readonly opts: StdioTransportOptions) {
    this.reader = new MessageReader(
      (m) => this.onmessage?.(m),
      (e) => this.onerror?.(e),
      {
        ...(opts.wholeMessageBytes !== undefined ? { wholeMessageBytes: opts.wholeMessageBytes } : {}),
        ...(opts.limits ? { limits: opts.limits } : {}),
      },
    );
  }

  /** Process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process; resolves once it runs, rejects when it cannot start (ENOENT …). */
  start(): Promise<void> {
    if (this.child) throw new Error('HermesStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.opts.command, this.opts.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.opts.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // its own process group: signalled as a whole, and apart from a terminal's Ctrl+C
        detached: true,
        ...(this.opts.cwd ? { cwd: this.opts.cwd } : {}),
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => {
        const { track } = this.opts;
        if (track && child.pid !== undefined)
          this.release = recordToolProcess(
            track,
            child.pid,
            `mcp server: ${[this.opts.command, ...(this.opts.args ?? [])].join(' ')}`,
          );
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exitReason = signal ? `killed by ${signal}` : `exited with code ${code ?? '?'}`;
        // what the server left running in its group would hold its pipes open
        if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
        this.release?.();
        this.release = undefined;
      });
      child.on('close', () => {
        this.child = undefined;
        this.reader.clear();
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.reader.push(chunk);
        } catch (err) {
          this.onerror?.(err as Error);
        }
      });
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stderr?.pipe(this.stderr);
    });
  }

  /** Writes one message; resolves when the pipe took it. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the process: stdin closed, then SIGTERM to its group, then SIGKILL (2 s apart). Resolves
   * when it is gone or the SIGKILL is sent.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = new Promise<void>((r) => child.once('close', () => r()));
    const wait = () =>
      Promise.race([closed, new Promise<void>((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
    try {
      child.stdin?.end();
    } catch {
      /* already closed */
    }
    await wait();
    const pid = child.pid;
    if (pid !== undefined && child.exitCode === null && child.signalCode === null) {
      killGroup(pid, 'SIGTERM');
      await wait();
    }
    if (pid !== undefined && child.exitCode === null && child.signalCode === null) killGroup(pid, 'SIGKILL');
  }
}
