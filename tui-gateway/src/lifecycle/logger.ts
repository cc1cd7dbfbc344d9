/**
 * The daemon's log: one line per record to stderr and/or `<root>/logs/tui-gateway.log`
 * (DESIGN §7 "Logs go to <root>/logs/ and stderr"). Secrets never reach it: registered secrets
 * (the discovery token) and anything that looks like a bearer token or an API key are masked.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

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
  let stream: WriteStream | undefined;
  if (opts.file) {
    try {
      mkdirSync(dirname(opts.file), { recursive: true });
      stream = createWriteStream(opts.file, { flags: 'a', mode: 0o600 });
      stream.on('error', (err) => {
        stream = undefined;
        process.stderr.write(`[${tag}] log file ${opts.file} failed: ${err.message}\n`);
      });
    } catch (err) {
      process.stderr.write(`[${tag}] cannot open log file ${opts.file}: ${(err as Error).message}\n`);
    }
  }
  const write = (level: LogLevel, msg: string): void => {
    if (ORDER[level] < min) return;
    const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${tag}] pid=${process.pid} ${redact(msg, secrets)}\n`;
    try {
      if (opts.stderr) process.stderr.write(line);
      stream?.write(line);
    } catch {
      /* logging never throws */
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
    close: () =>
      new Promise<void>((resolve) => {
        const s = stream;
        stream = undefined;
        if (!s) return resolve();
        s.end(() => resolve());
      }),
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
