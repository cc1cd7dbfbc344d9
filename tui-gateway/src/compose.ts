/**
 * Where the layers above the transport plug into `hermes gateway run`: the session layer (live
 * sessions, prompts, approvals, config/model/profile/slash handlers) returns its hooks here.
 * Until it lands the daemon runs with the transport's own methods only (`initialize`, `ping`,
 * `gateway.status`); other methods answer -32601 "not available".
 */
import type { DaemonOptions } from './lifecycle/daemon.js';

/** The hooks a full daemon runs with (`registerHandlers`, `drain`, `stats`, `profiles`). */
export type DaemonHooks = Pick<
  DaemonOptions,
  'registerHandlers' | 'drain' | 'stats' | 'profiles' | 'activeProfile'
>;

/**
 * Builds the hooks for a daemon serving `root`. Loaded lazily by `hermes gateway run`.
 * @param _root the root served (one daemon per root).
 */
export async function defaultDaemonHooks(_root: string): Promise<DaemonHooks> {
  return {};
}
