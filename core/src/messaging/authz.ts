/**
 * Who may talk to the agent on a platform: the first step of the pipeline.
 *
 * A message is authorized when any of these holds, in order:
 * 1. the platform authenticates every request itself (registry `authorization: 'adapter'`:
 *    bearer key, HMAC signature);
 * 2. `platforms.<p>.allow_all_users` is true;
 * 3. the sender's raw id is in `platforms.<p>.allowed_users`, or in the comma-separated secret
 *    named by the registry's `allowedUsersEnv` (`*` there allows everybody);
 * 4. the sender was approved through pairing.
 * Otherwise a direct message gets a pairing code (`unauthorized_dm: pair`, the default) or
 * nothing; messages in groups from unknown users are ignored silently.
 */
import { lookupSecret, type Secrets } from '../config/secrets.js';
import type { PairingStore } from './pairing.js';
import type { PlatformConfig } from './platform-config.js';
import type { PlatformEntry } from './registry.js';
import type { MessageSource } from './source.js';

/** How a sender was let in. */
export type AuthorizedVia = 'adapter' | 'allow_all' | 'allowed_users' | 'env_list' | 'paired';

/** The decision for one message. */
export type AuthDecision =
  | { allowed: true; via: AuthorizedVia }
  | { allowed: false; action: 'pair' | 'ignore'; why: 'no_user_id' | 'not_allowed' };

/** Inputs of `authorize`. */
export interface AuthContext {
  entry: Pick<PlatformEntry, 'name' | 'authorization' | 'allowedUsersEnv'>;
  config: Pick<PlatformConfig, 'allow_all_users' | 'allowed_users' | 'unauthorized_dm'>;
  secrets: Secrets;
  pairing: Pick<PairingStore, 'isApproved'>;
  /** Environment for `allowedUsersEnv` lookups (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** Ids in a comma-separated list secret. */
export function parseIdList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Decides whether a message from `source` is processed (see the module doc). */
export function authorize(source: MessageSource, ctx: AuthContext): AuthDecision {
  if (ctx.entry.authorization === 'adapter') return { allowed: true, via: 'adapter' };
  if (ctx.config.allow_all_users) return { allowed: true, via: 'allow_all' };
  const ids = [source.userId, source.userIdAlt].filter((v): v is string => !!v);
  const deny = (why: 'no_user_id' | 'not_allowed'): AuthDecision => ({
    allowed: false,
    action:
      source.chatType === 'dm' && ids.length > 0 && ctx.config.unauthorized_dm === 'pair' ? 'pair' : 'ignore',
    why,
  });
  if (ids.length === 0) return deny('no_user_id');
  if (ids.some((id) => ctx.config.allowed_users.includes(id))) return { allowed: true, via: 'allowed_users' };
  if (ctx.entry.allowedUsersEnv) {
    const list = parseIdList(lookupSecret(ctx.secrets, ctx.entry.allowedUsersEnv, ctx.env));
    if (list.includes('*') || ids.some((id) => list.includes(id))) return { allowed: true, via: 'env_list' };
  }
  try {
    if (ids.some((id) => ctx.pairing.isApproved(ctx.entry.name, id))) return { allowed: true, via: 'paired' };
  } catch {
    /* an unreadable pairing store authorizes nobody */
  }
  return deny('not_allowed');
}
