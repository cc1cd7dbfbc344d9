/**
 * Where the layers above the transport plug into `hermes gateway run`: the session layer (live
 * sessions, prompts, approvals, config/model/profile/slash handlers) and crash recovery at start.
 */
import type { DaemonOptions } from './lifecycle/daemon.js';
import { listProfileNames } from './sessions/profile-runtime.js';
import { registerSessionHandlers } from './sessions/session-handlers.js';
import { SessionRegistry, type SessionRegistryOptions } from './sessions/session-registry.js';
import { recoverAfterCrash } from './sessions/crash-recovery.js';

/** The hooks a full daemon runs with (`registerHandlers`, `drain`, `stats`, `profiles`). */
export type DaemonHooks = Pick<
  DaemonOptions,
  'registerHandlers' | 'drain' | 'stats' | 'profiles' | 'activeProfile'
>;

/**
 * Builds the hooks for a daemon serving `root`. Loaded lazily by `hermes gateway run`.
 * @param overrides registry options for tests (e.g. a model client factory).
 */
export async function defaultDaemonHooks(
  root: string,
  overrides: Partial<Omit<SessionRegistryOptions, 'root' | 'epoch'>> = {},
): Promise<DaemonHooks> {
  let registry: SessionRegistry | undefined;
  return {
    registerHandlers: (rpc, ctx) => {
      const recovered = recoverAfterCrash(root, (line) => ctx.log.info(line));
      registry = new SessionRegistry({ root, epoch: ctx.epoch, log: (l) => ctx.log.info(l), ...overrides });
      registerSessionHandlers(rpc, registry);
      void recovered;
    },
    drain: async ({ timeoutMs }) => ({ clean: registry ? await registry.drain(timeoutMs) : true }),
    stats: () => {
      const s = registry?.stats() ?? { sessions_live: 0, clients: 0, busy: 0 };
      return { sessions_live: s.sessions_live, clients_attached: s.clients };
    },
    profiles: () => listProfileNames(root),
  };
}
