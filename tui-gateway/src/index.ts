/**
 * @hermes/tui-gateway: the daemon. The transport and lifecycle API the session
 * layer, the CLI and tests use; see README.md for what lives where.
 */
export { RpcMethodError } from './rpc/types.js';
export type { Connection, Handler, HandlerParams, HandlerRegistry } from './rpc/types.js';
export { RpcFailureError } from './rpc/errors.js';
export {
  startDaemon,
  DRAIN_MARGIN_MS,
  type DaemonContext,
  type DaemonHandle,
  type DaemonOptions,
  type DaemonStats,
  type DrainHook,
  type DrainRequest,
  type StatsHook,
} from './lifecycle/daemon.js';
export { runGateway, readDrainTimeoutS, type RunOptions } from './lifecycle/run.js';
export { defaultDaemonHooks, type DaemonHooks } from './compose.js';
export { DaemonLockedError } from './lifecycle/lock.js';
export { inspectDiscovery, type DiscoveryInfo, type DiscoveryState } from './lifecycle/discovery.js';
export {
  startBackground,
  stopDaemon,
  stopWaitMs,
  queryStatus,
  findRunningDaemon,
  type StartOutcome,
  type StopOutcome,
  type StatusOutcome,
} from './lifecycle/control.js';
export { CloseCode } from './transport/connection.js';
export { DEFAULT_OUTBOUND_LIMITS, type OutboundLimits } from './transport/outbound-queue.js';
export { installService, uninstallService, type ServiceOutcome } from './lifecycle/service.js';
export { unitFilePath, unitText, stopTimeoutWarning, EXIT_ALREADY_RUNNING } from './lifecycle/systemd.js';
