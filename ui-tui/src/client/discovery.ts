/**
 * Reads the daemon's discovery file `<root>/tui-gateway.json` (DESIGN §4): where the running
 * tui-gateway listens and the bearer token to present. The caller passes the root; nothing here
 * reads `$HERMES_HOME`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Contents of `tui-gateway.json`. */
export interface Discovery {
  pid: number;
  port: number;
  token: string;
  version: string;
  /** New at every daemon start. */
  epoch: string;
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
 * @returns null when the file does not exist (no daemon has started under this root).
 * @throws DiscoveryError when it exists but is malformed.
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
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new DiscoveryError(path, 'not valid JSON');
  }
  return checkDiscovery(path, data);
}

function checkDiscovery(path: string, data: unknown): Discovery {
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
  return { pid: int('pid'), port, token: str('token'), version: str('version'), epoch: str('epoch') };
}

/** The loopback WebSocket endpoint a discovery record names. */
export function endpointFromDiscovery(d: Discovery): Endpoint {
  return { url: `ws://127.0.0.1:${d.port}`, token: d.token };
}

/** True when a process with this pid exists (signal 0 probe; EPERM counts as alive). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
