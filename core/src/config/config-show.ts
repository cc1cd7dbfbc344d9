/**
 * The whole effective configuration as YAML, for `hermes config show`: the file deep-merged over
 * the defaults (unknown keys included), with anything that looks like a secret masked. Secrets
 * belong in `.env` (DESIGN §4), which is never printed; a key, token or password written into
 * config.yaml by hand is shown as `<hidden>` all the same.
 */
import { stringify } from 'yaml';
import type { HermesConfig } from './schema.js';

/** What a secret-looking value is shown as. */
export const HIDDEN_VALUE = '<hidden>';

/**
 * Key names whose values are secrets: `api_key`, `apikey`, `token`, `bot_token`, `password`,
 * `secret`, `client_secret`, `auth_token` … (any case, `-` or `_`). Names of secrets
 * (`api_key_env`, `token_env`) and counts (`max_tokens`) are not secrets.
 */
const SECRET_KEY = /(^|[_-])(api[_-]?key|token|password|passwd|secret|auth)$/i;

/** Whether a config key (its last segment) holds a secret value. */
export function isSecretKey(name: string): boolean {
  return SECRET_KEY.test(name);
}

/** A copy of `value` with the values of secret-looking keys replaced by `<hidden>`. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSecretKey(k) && v !== null && v !== undefined && v !== '' ? HIDDEN_VALUE : redactSecrets(v);
  }
  return out;
}

/** The effective configuration as YAML text, secrets masked (see `redactSecrets`). */
export function formatConfigYaml(config: HermesConfig): string {
  return stringify(redactSecrets(config), { lineWidth: 0 });
}
