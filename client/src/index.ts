/**
 * @hermes/client: the one JSON-RPC client of the daemon, used by the TUI, `hermes chat`, the CLI,
 * the bench and the tests. Imports only types from `@hermes/core/protocol` (no zod at run time),
 * `ws` and node built-ins. See README.md.
 */
export { connect, findDaemon, type ConnectOptions, type DaemonTarget } from './connect.js';
export { DaemonClient, EVENT_METHOD, type DaemonClientOptions } from './client.js';
export {
  discoveryPath,
  endpointFromDiscovery,
  isDaemonAlive,
  readDiscovery,
  readDiscoverySync,
  DiscoveryError,
  type Discovery,
  type Endpoint,
} from './discovery.js';
export {
  isProcessAlive,
  isSameProcessAlive,
  processStartTime,
  selfIdentity,
  type ProcessIdentity,
} from './process-info.js';
export {
  CallTimeoutError,
  DaemonConnectError,
  DropServerRequest,
  NotConnectedError,
  RpcCallError,
  type ConnectFailure,
} from './errors.js';
export { NO_REPLY } from './server-requests.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export type { CloseInfo } from './rpc-socket.js';
export type * from './types.js';
