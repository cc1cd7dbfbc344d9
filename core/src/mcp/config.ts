/**
 * The `mcp_servers` section of `config.yaml` (the original's
 * tools/mcp_tool.py). The schema keeps it loose (`name → object`); this file validates each entry
 * on its own so one bad server is reported and the others still start.
 *
 * ```yaml
 * mcp_servers:
 *   files:                     # stdio: a command the client starts
 *     command: npx
 *     args: [-y, "@modelcontextprotocol/server-filesystem", /home/me/notes]
 *     env: { TOKEN: "${GITHUB_TOKEN}" }   # ${NAME}: the profile's .env, then the environment
 *     cwd: /home/me
 *   remote:                    # HTTP: a running server
 *     url: https://mcp.example.com/mcp
 *     headers: { Authorization: "Bearer ${EXAMPLE_TOKEN}" }
 *     transport: http          # http (streamable HTTP, default) | sse (legacy)
 *   off:
 *     command: foo
 *     enabled: false
 * ```
 * Common keys: `enabled` (default true), `timeout` (seconds to connect and list tools, default
 * 30), `tool_timeout` (seconds per tool call, default 120).
 */
import type { Secrets } from '../config/secrets.js';

/** Seconds to connect and list tools, by default. */
export const MCP_CONNECT_TIMEOUT_SEC = 30;
/** Seconds per tool call, by default. */
export const MCP_TOOL_TIMEOUT_SEC = 120;

interface Common {
  /** The key under `mcp_servers`. */
  name: string;
  enabled: boolean;
  timeoutSec: number;
  toolTimeoutSec: number;
}

/** A server started as a child process, spoken to over stdin/stdout. */
export interface StdioServerSpec extends Common {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A server reached over HTTP. */
export interface HttpServerSpec extends Common {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  transport: 'http' | 'sse';
}

/** One validated server entry. */
export type McpServerSpec = StdioServerSpec | HttpServerSpec;

/** A server entry that could not be used, and why. */
export interface McpConfigError {
  name: string;
  message: string;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/**
 * Replaces `${NAME}` with the profile's secret `NAME`, else the environment variable, else ''.
 * `$${` stays a literal `${`.
 */
export function expandVars(text: string, secrets: Secrets, env: NodeJS.ProcessEnv = process.env): string {
  return text.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string) =>
    m.startsWith('$$') ? m.slice(1) : (secrets[name] ?? env[name] ?? ''),
  );
}

function stringRecord(v: unknown, key: string, secrets: Secrets): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new Error(`"${key}" must be a mapping of names to strings`);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean')
      throw new Error(`"${key}.${k}" must be a string`);
    out[k] = expandVars(String(val), secrets);
  }
  return out;
}

function seconds(v: unknown, key: string, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw new Error(`"${key}" must be a positive number of seconds`);
  return v;
}

/** Validates one entry. @throws Error naming the bad key. */
export function parseServerEntry(name: string, raw: unknown, secrets: Secrets = {}): McpServerSpec {
  if (!NAME_RE.test(name))
    throw new Error(
      'the server name must be letters, digits, "_" or "-" (at most 32, starting with a letter or digit)',
    );
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new Error('expected a mapping with "command" (stdio) or "url" (HTTP)');
  const r = raw as Record<string, unknown>;
  const common = {
    name,
    enabled: r.enabled === undefined ? true : r.enabled !== false,
    timeoutSec: seconds(r.timeout, 'timeout', MCP_CONNECT_TIMEOUT_SEC),
    toolTimeoutSec: seconds(r.tool_timeout, 'tool_timeout', MCP_TOOL_TIMEOUT_SEC),
  };
  if (r.command !== undefined && r.url !== undefined)
    throw new Error('give either "command" or "url", not both');
  if (typeof r.command === 'string' && r.command.trim() !== '') {
    if (
      r.args !== undefined &&
      (!Array.isArray(r.args) || r.args.some((a) => typeof a !== 'string' && typeof a !== 'number'))
    )
      throw new Error('"args" must be a list of strings');
    if (r.cwd !== undefined && typeof r.cwd !== 'string') throw new Error('"cwd" must be a string');
    return {
      ...common,
      kind: 'stdio',
      command: expandVars(r.command, secrets),
      args: ((r.args as unknown[] | undefined) ?? []).map((a) => expandVars(String(a), secrets)),
      env: stringRecord(r.env, 'env', secrets),
      ...(typeof r.cwd === 'string' ? { cwd: expandVars(r.cwd, secrets) } : {}),
    };
  }
  if (typeof r.url === 'string' && r.url.trim() !== '') {
    const url = expandVars(r.url, secrets);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"url" is not a valid URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error('"url" must be http:// or https://');
    const transport = r.transport ?? 'http';
    if (transport !== 'http' && transport !== 'sse') throw new Error('"transport" must be "http" or "sse"');
    return { ...common, kind: 'http', url, headers: stringRecord(r.headers, 'headers', secrets), transport };
  }
  throw new Error('expected a non-empty "command" (stdio) or "url" (HTTP)');
}

/**
 * Validates every entry of `mcp_servers`.
 * @returns the usable servers (disabled ones included, `enabled: false`) and one error per bad entry.
 */
export function parseMcpServers(
  section: unknown,
  secrets: Secrets = {},
): { servers: McpServerSpec[]; errors: McpConfigError[] } {
  const servers: McpServerSpec[] = [];
  const errors: McpConfigError[] = [];
  if (section === undefined || section === null) return { servers, errors };
  if (typeof section !== 'object' || Array.isArray(section)) {
    errors.push({
      name: '(mcp_servers)',
      message: 'mcp_servers must be a mapping of server names to settings',
    });
    return { servers, errors };
  }
  for (const [name, raw] of Object.entries(section as Record<string, unknown>)) {
    try {
      servers.push(parseServerEntry(name, raw, secrets));
    } catch (err) {
      errors.push({ name, message: `mcp_servers.${name}: ${(err as Error).message}` });
    }
  }
  return { servers, errors };
}
