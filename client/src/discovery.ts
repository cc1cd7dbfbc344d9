/**
 * The daemon's discovery file `<root>/tui-gateway.json`: where the running daemon listens, the
 * bearer token to present, its pid and epoch. The caller passes the root; nothing here reads
 * `$HERMES_HOME`. Checked by hand (no zod), so a client loads nothing heavy.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSameProcessAlive } from './process-info.js';

/** Contents of `tui-gateway.json` that a client uses. */
export interface Discovery {
  pid: number;
  port: number;
  token: string;
  version: string;
  /** New at every daemon start. */
  epoch: string;
  /** Listening address (absent: `127.0.0.1`). */
  host?: string;
  /** The daemon's process start time (Linux clock ticks since boot), to detect a reused pid. */
  proc_start?: string;
}

/** Where a client connects: a `ws://` URL and the token for `Authorization: Bearer`. */
export interface Endpoint {
  url: string;
  token: string;
}

/** The discovery file exists but cannot be used (bad JSON, missing or mistyped field). */
export class DiscoveryError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'DiscoveryError';
  }
}

/** Path of the discovery file under a root. */
export function discoveryPath(root: string): string {
  return join(root, 'tui-gateway.json');
}

/**
 * Reads and checks the discovery file.
 * @returns null when the file does not exist (no daemon has started under this root, or the last
 *   one stopped cleanly).
 * @throws DiscoveryError when it exists but is unreadable or malformed (the message names the field).
 */
export async function readDiscovery(root: string): Promise<Discovery | null> {
  const path = discoveryPath(root);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DiscoveryError(path, (err as Error).message);
  }
  return parseDiscovery(path, text);
}

/** `readDiscovery` without awaiting (for code that must decide synchronously). */
export function readDiscoverySync(root: string): Discovery | null {
  const path = discoveryPath(root);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DiscoveryError(path, (err as Error).message);
  }
  return parseDiscovery(path, text);
}

function parseDiscovery(path: string, text: string): Discovery {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new DiscoveryError(path, 'not valid JSON');
  }
  if (typeof data !== 'object' || data === null) throw new DiscoveryError(path, 'not a JSON object');
  const d = data as Record<string, unknown>;
  const int = (key: string): number => {
    const v = d[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
      throw new DiscoveryError(path, `"${key}" must be a positive integer`);
    }
    return v;
  };
  const str = (key: string): string => {
    const v = d[key];
    if (typeof v !== 'string' || v.length === 0)
      throw new DiscoveryError(path, `"${key}" must be a non-empty string`);
    return v;
  };
  const port = int('port');
  if (port > 65535) throw new DiscoveryError(path, '"port" must be at most 65535');
  const out: Discovery = {
    pid: int('pid'),
    port,
    token: str('token'),
    version: str('version'),
    epoch: str('epoch'),
  };
  if (d.host !== undefined) out.host = str('host');
  if (d.proc_start !== undefined) out.proc_start = str('proc_start');
  return out;
}

/** The WebSocket endpoint a discovery record names (loopback unless it names a host). */
export function endpointFromDiscovery(d: Discovery): Endpoint {
  return { url: wsUrl(d.host ?? '127.0.0.1', d.port), token: d.token };
}

/** `ws://host:port`, an IPv6 host in brackets. */
export function wsUrl(host: string, port: number): string {
  return `ws://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * True when the daemon a discovery record names still runs: its pid is alive and, when the file
 * recorded a start time that can be read now, the start times match (else the pid was reused).
 */
export function isDaemonAlive(d: Pick<Discovery, 'pid' | 'proc_start'>): boolean {
  return isSameProcessAlive(d);
}
