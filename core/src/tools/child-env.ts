/**
 * Environments of the processes tools start (`terminal`, `execute_code` scripts, any other
 * spawned tool), and the credentials of this process that tool results must never show.
 *
 * The daemon inherits the environment of the shell that started it, which often holds provider
 * keys (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY` …) and other credentials (`GITHUB_TOKEN`,
 * `AWS_SECRET_ACCESS_KEY` …). Handing them to a child lets the model read them with `env`.
 * So a child gets this process's environment minus every variable whose name looks like a
 * credential (`isSecretName`), plus only the variables the user names in
 * `terminal.env_passthrough` (taken from the profile's `.env`, else from this environment).
 * Everything else (PATH, HOME, LANG, TERM, proxies, SSH_AUTH_SOCK …) passes unchanged — except
 * Hermes's own variables (below).
 *
 * No `HERMES_*` variable reaches a tool process, and `env_passthrough` cannot bring one back:
 * `HERMES_HOME` names the root (its config.yaml, `.env`, and `tui-gateway.json` with the daemon's
 * bearer token), and `HERMES_RPC_SOCKET`/`HERMES_RPC_TOKEN` of an outer execute_code script would
 * hand the child that script's tool channel. A process the agent starts must not be told where
 * the settings that guard it live. So a `hermes` the agent runs resolves its home as in any shell
 * without `HERMES_HOME` (`~/.hermes`, the sticky profile, `-p`), and its commands that change
 * settings go through the approval guard like any other command. The one exception is added by
 * execute_code itself: its script gets `HERMES_RPC_SOCKET`/`HERMES_RPC_TOKEN` of its own run, a
 * channel that runs only the script tools (those marked `inScripts`) with the session's approvals.
 *
 * Source of the rule: the original Hermes (tools/environments/local.py `_sanitize_subprocess_env`)
 * strips a blocklist built from its provider registry plus Hermes-managed tokens, and lets
 * `terminal.env_passthrough` bring named ones back. A denylist, as there: an allowlist that forgot
 * `HTTPS_PROXY` or `SSL_CERT_FILE` would break working setups. Names are matched by shape here
 * (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*` …, config/secret-names.ts, the rule
 * `hermes config show` masks by too) because no provider registry lists them all.
 *
 * As a second line, `ambientSecrets` lists the values of such variables (and the daemon's
 * discovery token) so the tool registry redacts them from results, as it does `.env` values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesConfig } from '../config/schema.js';
import { isSecretName } from '../config/secret-names.js';
import type { Secrets } from '../config/secrets.js';
import { fileStamp } from '../util/file-stamp.js';

/** True for a variable of Hermes itself (`HERMES_HOME`, `HERMES_RPC_SOCKET` …): never given to a tool process. */
export function isHermesVariable(name: string): boolean {
  return name.toUpperCase().startsWith('HERMES_');
}

/**
 * The environment of a tool's child process: `base` (normally `process.env`) without credential
 * variables (`isSecretName`) and without Hermes's own variables (`isHermesVariable`: nothing
 * tells the child where the Hermes root, its config or the daemon is), plus each name of
 * `config.terminal.env_passthrough` with its value from the profile's `secrets` (`.env`) or,
 * failing that, from `base` — a passthrough name of Hermes's own is ignored. No other secret is
 * included.
 */
export function buildChildEnv(
  config: HermesConfig,
  secrets: Secrets,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && !isSecretName(k) && !isHermesVariable(k)) env[k] = v;
  }
  for (const name of config.terminal.env_passthrough) {
    if (isHermesVariable(name)) continue;
    const value = secrets[name] ?? base[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Name under which the daemon's bearer token is redacted (`[REDACTED:HERMES_DAEMON_TOKEN]`). */
export const DAEMON_TOKEN_NAME = 'HERMES_DAEMON_TOKEN';

let discoveryCache: { file: string; stamp: string; token: string | undefined } | undefined;

/**
 * The bearer token in the root's discovery file (`<root>/tui-gateway.json`, written by the
 * daemon), or undefined when there is none. Re-read only when the file changes (`fileStamp`).
 */
export function discoveryToken(root: string): string | undefined {
  const file = join(root, 'tui-gateway.json');
  const stamp = fileStamp(file);
  if (stamp === undefined) return undefined; // no daemon
  if (discoveryCache?.file === file && discoveryCache.stamp === stamp) return discoveryCache.token;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { token?: unknown };
    const token = typeof parsed.token === 'string' && parsed.token !== '' ? parsed.token : undefined;
    discoveryCache = { file, stamp, token };
    return token;
  } catch {
    return undefined; // a file being rewritten: nothing to add
  }
}

/**
 * Credentials of this process that tool results must not show, name → value: every variable of
 * `base` whose name looks like a credential (`isSecretName`), and the daemon's bearer
 * token from `<root>/tui-gateway.json` under `HERMES_DAEMON_TOKEN` when `root` is given.
 */
export function ambientSecrets(root?: string, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v && isSecretName(k)) out[k] = v;
  const token = root ? discoveryToken(root) : undefined;
  if (token) out[DAEMON_TOKEN_NAME] = token;
  return out;
}
