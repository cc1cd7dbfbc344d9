/**
 * The daemon's log: one line per record to stderr and/or `<root>/logs/tui-gateway.log`.
 * Secrets never reach it: registered secrets (the discovery token) and anything that looks like a bearer token or an API key are masked.
 *
 * The file is rotated by size: once it would pass `maxFileBytes` (10 MiB) it is renamed to
 * `<file>.1` (older ones shift to `.2`, `.3`; `keepFiles` (3) are kept, the oldest deleted) and
 * a new 0600 file is started. Writes are synchronous, so a line is never split across files.
 */
import { chmodSync, closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Size at which the log file is rotated, bytes. */
export const LOG_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Rotated log files kept besides the current one (`<file>.1` … `<file>.3`). */
export const LOG_KEEP_FILES = 3;

/** Severity of a record, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The daemon logger. Every method is synchronous and never throws. */
export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  /** Logs `msg`, plus the stack of `err` when given. */
  error(msg: string, err?: unknown): void;
  /** Masks this exact text in every later record (e.g. the token). Ignores strings under 8 chars. */
  addSecret(secret: string): void;
  /** Flushes and closes the file. Later records go to stderr only (if enabled). */
  close(): Promise<void>;
}

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Append records to this file (created 0600 with its folder). */
  file?: string;
  /** Also write records to stderr. */
  stderr?: boolean;
  /** Lowest level written (default `info`; `HERMES_LOG_LEVEL` overrides when set by the caller). */
  level?: LogLevel;
  /** Tag in every line (default `tui-gateway`). */
  tag?: string;
  /** Rotate the file when it would grow past this, bytes (default `LOG_MAX_FILE_BYTES`). */
  maxFileBytes?: number;
  /** Rotated files kept (default `LOG_KEEP_FILES`). */
  keepFiles?: number;
}

/** An append-only 0600 file rotated by size (see the module comment). */
class RotatingFile {
  private fd: number;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly keep: number,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = this.open();
    this.size = statSync(file).size;
  }

  private open(): number {
    const fd = openSync(this.file, 'a', 0o600);
    chmodSync(this.file, 0o600);
    return fd;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    writeSync(this.fd, line);
    this.size += bytes;
  }

  private rotate(): void {
    closeSync(this.fd);
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      try {
        renameSync(`${this.file}.${i}`, `${this.file}.${i + 1}`);
      } catch {
        /* no such generation yet */
      }
    }
    if (this.keep > 0) renameSync(this.file, `${this.file}.1`);
    else rmSync(this.file, { force: true });
    this.fd = this.open();
    this.size = 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}

const PATTERNS: RegExp[] = [
  /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(sk-)[A-Za-z0-9_-]{8,}/g,
  /("token"\s*:\s*")[^"]{8,}/g,
  /(token=)[A-Za-z0-9]{8,}/gi,
];

/** Masks secrets in `text`: the listed ones exactly, and bearer tokens / `sk-` keys by pattern. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[redacted]');
  for (const re of PATTERNS) out = out.replace(re, '$1[redacted]');
  return out;
}

/** Creates a logger. A file that cannot be opened disables file logging with one stderr warning. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const secrets: string[] = [];
  const min = ORDER[opts.level ?? 'info'];
  const tag = opts.tag ?? 'tui-gateway';
  let stream: RotatingFile | undefined;
  if (opts.file) {
    try {
      stream = new RotatingFile(
        opts.file,
        opts.maxFileBytes ?? LOG_MAX_FILE_BYTES,
        opts.keepFiles ?? LOG_KEEP_FILES,
      );
    } catch (err) {
      process.stderr.write(`[${tag}] cannot open log file ${opts.file}: ${(err as Error).message}\n`);
    }
  }
  const write = (level: LogLevel, msg: string): void => {
    if (ORDER[level] < min) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${tag}] pid=${process.pid} ${redact(msg, secrets)}\n`;
    try {
      if (opts.stderr) process.stderr.write(line);
    } catch {
      /* logging never throws */
    }
    try {
      stream?.write(line);
    } catch (err) {
      stream = undefined;
      process.stderr.write(`[${tag}] log file ${opts.file} failed: ${(err as Error).message}\n`);
    }
  };
  return {
    debug: (m) => write('debug', m),
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m, err) => {
      const detail =
        err === undefined ? '' : `: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
      write('error', `${m}${detail}`);
    },
    addSecret: (s) => {
      if (s.length >= 8) secrets.push(s);
    },
    close: async () => {
      const s = stream;
      stream = undefined;
      try {
        s?.close();
      } catch {
        /* already closed */
      }
    },
  };
}

/** A logger that drops everything (tests, tools). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  addSecret: () => {},
  close: async () => {},
};
