/**
 * The methods the transport itself answers: `initialize`, `ping` and
 * `gateway.status`. `ping` does no I/O and awaits nothing, so it is answered whenever the event
 * loop turns — agents must never block it.
 */
import { RpcErrorCode, type MethodResult } from '@hermes/core/protocol';
import type { WsConnection } from '../transport/connection.js';
import type { Connection, Handler, HandlerRegistry } from './types.js';
import { RpcMethodError } from './types.js';

/** What `initialize` needs from the daemon. */
export interface InitializeDeps {
  /** Server name and version reported to clients. */
  server: { name: string; version: string };
  epoch: string;
  /** Every profile the daemon serves (`profiles` hook, else the folders of the root). */
  profiles: () => string[] | Promise<string[]>;
  /** The profile a connection starts in when `initialize` names none. */
  activeProfile: () => string;
  /** Served profiles that cannot be used now, with why (reported, not refused). */
  unavailableProfiles?: () => Array<{ profile: string; error: string }>;
  /** Called once the connection is initialized, before the answer is sent. */
  onInitialized: (conn: Connection) => void;
}

/**
 * Builds the `initialize` handler. A named profile that the daemon does not serve → -32005
 * ProfileNotFound. A profile that is served but unavailable (damaged state.db) is accepted — the
 * client learns why from `unavailable_profiles`, and its requests get -32008 — so a TUI can
 * still start in it, show the error and switch profile.
 */
export function makeInitialize(deps: InitializeDeps): Handler<'initialize'> {
  return async (params, conn): Promise<MethodResult<'initialize'>> => {
    const profiles = await deps.profiles();
    const profile = params.profile ?? deps.activeProfile();
    if (!profiles.includes(profile)) {
      throw new RpcMethodError(
        RpcErrorCode.ProfileNotFound,
        `profile "${profile}" does not exist (profiles: ${profiles.join(', ')})`,
      );
    }
    (conn as WsConnection).markInitialized(params, profile);
    deps.onInitialized(conn);
    const unavailable = deps.unavailableProfiles?.() ?? [];
    return {
      server: deps.server,
      epoch: deps.epoch,
      connection_id: conn.id,
      profile,
      profiles,
      ...(unavailable.length > 0 ? { unavailable_profiles: unavailable } : {}),
    };
  };
}

/**
 * Registers `ping` and `gateway.status` (the latter from `status(caller)`; the calling connection
 * is not counted as an attached client).
 */
export function registerBuiltins(
  registry: HandlerRegistry,
  status: (caller?: Connection) => Promise<MethodResult<'gateway.status'>>,
): void {
  registry.register('ping', async () => ({ pong: true as const, time: Date.now() }));
  registry.register('gateway.status', (_params, conn) => status(conn));
}
