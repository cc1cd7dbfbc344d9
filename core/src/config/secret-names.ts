/**
 * The one rule for "does this name hold a credential": config keys (`hermes config show` masks
 * their values), environment variables (tool children never get them, tool results redact
 * them) and HTTP header names (`mcp_servers.X.headers.Authorization`). Zod-free: the tool
 * registry uses it on the `hermes chat` path.
 */

/** Last parts that make a name the name *of* a secret, not a secret: `api_key_env`, `secret_name`. */
const REFERENCE_SUFFIX = new Set(['ENV', 'NAME', 'VAR']);

/** Parts that mark a credential wherever they stand: `GITHUB_TOKEN`, `AWS_SESSION_TOKEN`, `Cookie`. */
const CREDENTIAL_PARTS = new Set([
  'TOKEN',
  'APIKEY',
  'APIKEYS',
  'SECRET',
  'SECRETS',
  'CREDENTIAL',
  'CREDENTIALS',
  'AUTHORIZATION',
  'COOKIE',
  'COOKIES',
  'PAT',
  'DSN',
]);

/** What may precede `KEY`/`KEYS` in a key's name: `API_KEY`, `PRIVATE_KEY`, `AWS_ACCESS_KEY_ID`. */
const KEY_KINDS = new Set([
  'API',
  'PRIVATE',
  'ACCESS',
  'SECRET',
  'SIGNING',
  'ENCRYPTION',
  'MASTER',
  'CLIENT',
]);

/** Substrings that mark a credential anywhere: `PGPASSWORD`, `DB_PASSPHRASE`, `CLIENTSECRET`. */
const CREDENTIAL_SUBSTRING = /PASSWORD|PASSWD|PASSPHRASE|SECRET/;

/** `apiKey`, `api-key`, `X-Api-Key`, `mcp.headers.Authorization` → upper-case parts. */
function parts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((p) => p !== '');
}

/**
 * True when a config key, environment variable or header name looks like it holds a credential
 * (any case; `_`, `-`, `.` or camelCase between words):
 * - a `TOKEN`, `SECRET`, `CREDENTIALS`, `APIKEY`, `AUTHORIZATION`, `COOKIE`, `PAT` or `DSN` part
 *   anywhere (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `Set-Cookie`, `SENTRY_DSN`);
 * - a key part after `API`, `PRIVATE`, `ACCESS`, `SECRET`, `SIGNING`, `ENCRYPTION`, `MASTER` or
 *   `CLIENT` (`OPENAI_API_KEY`, `apiKey`, `X-Api-Key`, `SSH_PRIVATE_KEY`, `AWS_ACCESS_KEY_ID`);
 * - `password`, `passwd`, `passphrase` or `secret` inside any part (`PGPASSWORD`);
 * - `auth` as the last part (`auth`, `proxy_auth`; not `SSH_AUTH_SOCK`, `author`).
 *
 * Not credentials: names of secrets (last part `ENV`, `NAME` or `VAR`: `api_key_env`,
 * `secret_name`), counts and look-alikes (`max_tokens`, `tokenizer`, `TOKENIZERS_PARALLELISM`,
 * `KEYBOARD`, `sort_key`).
 */
export function isSecretName(name: string): boolean {
  const p = parts(name);
  if (p.length === 0 || REFERENCE_SUFFIX.has(p[p.length - 1]!)) return false;
  if (p[p.length - 1] === 'AUTH') return true;
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (CREDENTIAL_PARTS.has(part) || CREDENTIAL_SUBSTRING.test(part)) return true;
    if ((part === 'KEY' || part === 'KEYS') && i > 0 && KEY_KINDS.has(p[i - 1]!)) return true;
  }
  return false;
}
