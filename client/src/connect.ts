/**
 * `connect()`: find the daemon (a root's discovery file, or an explicit port and token), start it
 * when asked and none runs, open a `DaemonClient` and run `initialize`.
 */
import { DaemonClient, type DaemonClientOptions } from './client.js';
import {
  discoveryPath,
  endpointFromDiscovery,
  isDaemonAlive,
  readDiscoverySync,
  DiscoveryError,
  type Discovery,
  wsUrl,
  type Endpoint,
} from './discovery.js';
import { DaemonConnectError } from './errors.js';

/** Where the daemon is: a root (its discovery file is read) or an explicit port and token. */
export type DaemonTarget = { root: string } | { port: number; token: string; host?: string };

/** Options of `connect`: the client's options, plus how to start a daemon that is not running. */
export interface ConnectOptions extends Omit<DaemonClientOptions, 'endpoint'> {
  /**
   * With a root target: called when no daemon runs there (no discovery file, or a stale one);
   * resolves once a daemon answers (e.g. `hermes gateway start`'s starter, whose pid lock lets
   * racing starters end with one daemon). Without it such a target fails with `not_running` /
   * `stale`.
   */
  start?: () => Promise<void>;
}

/**
 * The live daemon under `root`.
 * @throws DaemonConnectError `not_running` (no file), `stale` (its process is gone),
 *   `invalid_discovery` (malformed file; the message names the field).
 */
export function findDaemon(root: string): Discovery {
  const file = discoveryPath(root);
  let d: Discovery | null;
  try {
    d = readDiscoverySync(root);
  } catch (err) {
    throw new DaemonConnectError(
      'invalid_discovery',
      err instanceof DiscoveryError ? err.message : String(err),
    );
  }
  if (!d) throw new DaemonConnectError('not_running', `no daemon running for ${root} (no ${file})`);
  if (!isDaemonAlive(d)) {
    throw new DaemonConnectError(
      'stale',
      `no daemon running for ${root}: ${file} is stale (pid ${d.pid} is gone)`,
    );
  }
  return d;
}

async function endpointOf(target: DaemonTarget, start: (() => Promise<void>) | undefined): Promise<Endpoint> {
  if (!('root' in target)) {
    return { url: `${wsUrl(target.host ?? '127.0.0.1', target.port)}/`, token: target.token };
  }
  try {
    return endpointFromDiscovery(findDaemon(target.root));
  } catch (err) {
    if (!start || !(err instanceof DaemonConnectError) || err.reason === 'invalid_discovery') throw err;
  }
  await start();
  return endpointFromDiscovery(findDaemon(target.root));
}

/**
 * Connects to the daemon and (unless `initialize: false`) runs `initialize`. With `reconnect`,
 * a root's discovery file is read again before every reconnect attempt.
 * @throws DaemonConnectError (not running, stale or invalid discovery, refused upgrade with its
 *   HTTP status, timeout, socket error); RpcCallError when `initialize` is refused.
 */
export async function connect(target: DaemonTarget, opts: ConnectOptions): Promise<DaemonClient> {
  const { start, ...clientOpts } = opts;
  const first = await endpointOf(target, start);
  let used = false;
  const client = new DaemonClient({
    ...clientOpts,
    endpoint: async () => {
      if (!used) {
        used = true;
        return first;
      }
      return endpointOf(target, start);
    },
  });
  try {
    await client.connect();
  } catch (err) {
    void client.close();
    throw err;
  }
  return client;
}
