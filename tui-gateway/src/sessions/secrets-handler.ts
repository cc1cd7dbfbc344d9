/**
 * RPC handlers for a profile's secrets (`.env`): `secrets.set` writes one key (the TUI's first-run
 * model setup sends the API key the user typed), `secrets.status` says which keys have a value.
 * A value is written 0600 through core's `setSecret`, never logged, and never sent to a client.
 */
import { EnvValueError, lookupSecret, setSecret } from '@hermes/core/config';
import { RpcErrorCode } from '@hermes/core/protocol';
import { RpcMethodError } from '../rpc/types.js';
import type { HandlerRegistry } from '../rpc/types.js';
import type { SessionRegistry } from './session-registry.js';

/** Registers `secrets.set` and `secrets.status` on the daemon's dispatcher. */
export function registerSecretsHandlers(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('secrets.set', async (p, conn) => {
    const profile = sessions.profile(p.profile ?? conn.profile);
    profile.home.ensure();
    try {
      setSecret(profile.home, p.name, p.value);
    } catch (err) {
      // a value the .env format cannot hold: the message names the variable, never the value
      if (err instanceof EnvValueError) throw new RpcMethodError(RpcErrorCode.InvalidParams, err.message);
      throw err;
    }
    // sessions created from now on read the new key
    profile.reload();
    return { ok: true as const };
  });

  rpc.register('secrets.status', async (p, conn) => {
    const secrets = sessions.profile(p.profile ?? conn.profile).secrets;
    return { set: Object.fromEntries(p.names.map((n) => [n, lookupSecret(secrets, n) !== undefined])) };
  });
}
