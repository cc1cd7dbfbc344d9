/**
 * `config.set`: one key of a profile's config.yaml, written for a client. Loosening the approval
 * settings (config/approval-changes.ts: a mode that asks less, a longer timeout, cron_mode allow,
 * another smart reviewer, allowlist or env_passthrough entries added) is a request only a real
 * attached UI makes: the connection must be attached to a live session of that profile and have
 * declared `capabilities.approvals` (it answers approval requests there). Any other connection —
 * a script that found the daemon's token, say — gets -32009 and nothing is written. An allowed
 * loosening is still announced to every client (`config.changed` `loosened` with `by`), and never
 * reaches a running turn (session-config.ts). Tightenings and other keys need nothing more.
 */
import { previewConfigValue, approvalLoosenings, ConfigError, type HermesConfig } from '@hermes/core/config';
import { RpcErrorCode } from '@hermes/core/protocol';
import { domainRpcError } from '../rpc/domain-errors.js';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import type { SessionRegistry } from './session-registry.js';

/** Rethrows a ConfigError as -32006 naming the file and key (the same answer as every method). */
function configError(err: unknown): never {
  throw (err instanceof ConfigError && domainRpcError(err)) || err;
}

/** How a connection is named as the one that asked (`by` of `loosened`, as `turn.start`'s `by`). */
export function connectionLabel(conn: Connection): string {
  return conn.clientName ? `${conn.clientName}:${conn.id}` : conn.id;
}

/** Registers `config.set` (see the file comment). */
export function registerConfigSet(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('config.set', async (p, conn) => {
    const name = p.profile ?? conn.profile;
    const profile = sessions.profile(name);
    // edits made meanwhile by others first: reported as theirs, and the comparison starts from them
    profile.refresh();
    let next: HermesConfig;
    let current: HermesConfig;
    try {
      current = profile.config;
      next = previewConfigValue(profile.home, p.key, p.value);
    } catch (err) {
      configError(err);
    }
    const loosened = approvalLoosenings(current, next);
    if (loosened.length > 0 && !sessions.isAttachedApprover(name, conn)) {
      throw new RpcMethodError(
        RpcErrorCode.NotPermitted,
        `config.set ${p.key}: loosens ${loosened.map((l) => l.key).join(', ')}; approval settings can be ` +
          `loosened only by a client attached to a session of profile "${name}" that answers approvals`,
        { keys: loosened.map((l) => l.key) },
      );
    }
    try {
      profile.writeConfig(p.key, p.value, connectionLabel(conn));
    } catch (err) {
      configError(err);
    }
    return { ok: true as const };
  });
}
