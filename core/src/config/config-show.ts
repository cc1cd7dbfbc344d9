/**
 * The whole effective configuration as YAML, for `hermes config show`: the file deep-merged over
 * the defaults (unknown keys included), with anything that looks like a secret masked. Secrets
 * belong in `.env`, which is never printed; a key, token or password written into
 * config.yaml by hand is shown as `<hidden>` all the same.
 */
import { stringify } from 'yaml';
import type { HermesConfig } from './schema.js';
import { isSecretName } from './secret-names.js';

/** What a secret-looking value is shown as. */
export const HIDDEN_VALUE = '<hidden>';

/**
 * A copy of `value` with the values of secret-looking keys (`isSecretName`: `api_key`, `token`,
 * `mcp_servers.X.headers.Authorization` …) replaced by `<hidden>`, at any depth. Empty values stay
 * visible. (Not the tool registry's `redactSecrets`, which replaces known secret values in text.)
 */
export function maskSecretValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecretValues);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      isSecretName(k) && v !== null && v !== undefined && v !== '' ? HIDDEN_VALUE : maskSecretValues(v);
  }
  return out;
}

/** The effective configuration as YAML text, secrets masked (see `maskSecretValues`). */
export function formatConfigYaml(config: HermesConfig): string {
  return stringify(maskSecretValues(config), { lineWidth: 0 });
}
