/**
 * The built-in tools and how a tool call is run (issue 2 "Tools", DESIGN §6).
 *
 * `runTool` is the only way the agent loop calls a handler. It turns every failure into an
 * error result the model can read, never an exception:
 * - the arguments arrive as the model's JSON text; empty text means `{}`; invalid JSON or a
 *   non-object is an error naming the problem;
 * - required parameters must be present (not null); declared types are checked (`"5"` is accepted
 *   for an integer, `"true"` for a boolean, a JSON string for an array or object, as models send
 *   those) and enums enforced, errors naming the field;
 * - an exception thrown by the handler becomes `<tool> failed: <message>`;
 * - secret values are replaced by `[REDACTED:<NAME>]` (`redactSecrets`): the profile's `.env`, the
 *   credential-looking variables of this process's environment and the daemon's bearer token
 *   (`ambientSecrets` in child-env.ts);
 * - `content` is capped at `tool.maxResultChars` (default 100,000 chars) keeping head and tail
 *   around a marker that says how much was cut.
 */
import { cronjobTool } from '../cron/cronjob-tool.js';
import { capHeadTail } from '../util/head-tail.js';
import { ambientSecrets } from './child-env.js';
import { clarifyTool } from './clarify.js';
import { delegateTool } from './delegate.js';
import { executeCodeTool } from './execute-code/execute-code.js';
import { memoryTool } from './memory.js';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { skillManageTool, skillsListTool, skillViewTool } from './skills.js';
import { terminalTool } from './terminal.js';
import { todoTool } from './todo.js';
import type { ToolContext, ToolDefinition, ToolEnv, ToolResult } from './types.js';
import { webExtractTool } from './web/web-extract.js';
import { webSearchTool } from './web/web-search.js';
import { writeFileTool } from './write-file.js';

/** Default cap on a tool result's `content`, chars. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** A tool as the OpenAI Chat Completions API expects it in `tools`. */
export interface OpenAIToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The built-in tools, in a stable order: terminal, read_file, write_file, patch, search_files,
 * web_search, web_extract, todo, memory, clarify, skills_list, skill_view, skill_manage,
 * execute_code, cronjob, delegate_task. A new array each call (callers may filter it; a session
 * offers only `availableTools` of it, so `web_search` drops out without a search provider).
 * `delegate_task` works only where the agent offers `ctx.delegate` (`AgentOptions.delegation`).
 * MCP tools are not here: they come per profile from `McpManager` (`../mcp/`).
 */
export function builtinTools(): ToolDefinition[] {
  return [
    terminalTool,
    readFileTool,
    writeFileTool,
    patchTool,
    searchFilesTool,
    webSearchTool,
    webExtractTool,
    todoTool,
    memoryTool,
    clarifyTool,
    skillsListTool,
    skillViewTool,
    skillManageTool,
    executeCodeTool,
    cronjobTool,
    delegateTool,
  ];
}

/**
 * The tools that can work in this profile: those without an `available` check, and those whose
 * check returns true for `env` (a check that throws counts as unavailable). Order kept. Sessions
 * offer only these to the model, so a tool that would always fail (e.g. `web_search` without a
 * provider) is never shown.
 */
export function availableTools(tools: readonly ToolDefinition[], env: ToolEnv): ToolDefinition[] {
  return tools.filter((t) => {
    if (!t.available) return true;
    try {
      return t.available(env);
    } catch {
      return false;
    }
  });
}

/** The `tools` array of a Chat Completions request for these tools (order kept). */
export function toolSchemas(tools: readonly ToolDefinition[]): OpenAIToolSchema[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

interface PropSchema {
  type?: string | string[];
  enum?: unknown[];
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function typeOk(value: unknown, type: string): { ok: boolean; value: unknown } {
  switch (type) {
    case 'string':
      return { ok: typeof value === 'string', value };
    case 'integer':
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const ok = typeof n === 'number' && Number.isFinite(n) && (type === 'number' || Number.isInteger(n));
      return { ok, value: ok ? n : value };
    }
    case 'boolean':
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: typeof value === 'boolean', value };
    case 'array':
    case 'object': {
      const v = typeof value === 'string' ? parseJsonOr(value) : value;
      const isArray = Array.isArray(v);
      const ok = type === 'array' ? isArray : v !== null && typeof v === 'object' && !isArray;
      return { ok, value: ok ? v : value };
    }
    default:
      return { ok: true, value };
  }
}

/**
 * Checks `args` against the tool's top-level JSON schema (required, type, enum) and returns a
 * copy with lenient coercions applied (numeric strings, "true"/"false").
 * @throws Error naming the field and what was expected.
 */
export function validateArgs(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const props = (tool.parameters.properties ?? {}) as Record<string, PropSchema>;
  const required = (tool.parameters.required ?? []) as string[];
  const missing = required.filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length > 0) {
    throw new Error(
      `missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `"${m}"`).join(', ')}`,
    );
  }
  const out: Record<string, unknown> = { ...args };
  for (const [name, schema] of Object.entries(props)) {
    const value = out[name];
    if (value === undefined || value === null) continue;
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length > 0) {
      const check = types.map((t) => typeOk(value, t)).find((r) => r.ok);
      if (!check)
        throw new Error(
          `argument "${name}" must be of type ${types.join(' or ')} (got ${JSON.stringify(value)})`,
        );
      out[name] = check.value;
    }
    if (schema.enum && !schema.enum.includes(out[name])) {
      throw new Error(
        `argument "${name}" must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')} (got ${JSON.stringify(value)})`,
      );
    }
  }
  return out;
}

/** Parses the model's argument text. @throws Error describing invalid JSON or a non-object. */
export function parseToolArgs(rawArgsJson: string | undefined | null): Record<string, unknown> {
  const text = (rawArgsJson ?? '').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the arguments are not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      `the arguments must be a JSON object, got ${Array.isArray(parsed) ? 'an array' : typeof parsed}`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** Caps a result's content to `maxChars`, keeping head and tail (see `capHeadTail`). */
export function capResult(result: ToolResult, maxChars = DEFAULT_MAX_RESULT_CHARS): ToolResult {
  const capped = capHeadTail(result.content, maxChars);
  return capped.truncated ? { ...result, content: capped.text } : result;
}

/**
 * Runs one tool call: parses and validates `rawArgsJson`, calls the handler, catches its
 * exceptions, caps the content. Never rejects.
 */
export async function runTool(
  tool: ToolDefinition,
  rawArgsJson: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  let args: Record<string, unknown>;
  try {
    args = validateArgs(tool, parseToolArgs(rawArgsJson));
  } catch (err) {
    const message = `${tool.name}: ${(err as Error).message}. Call it again with arguments matching its schema.`;
    return { ok: false, content: message, summary: 'invalid arguments' };
  }
  if (ctx.signal.aborted)
    return { ok: false, content: `${tool.name}: interrupted before it ran`, summary: 'interrupted' };
  let result: ToolResult;
  try {
    result = await tool.handler(args, ctx);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    result = { ok: false, content: `${tool.name} failed: ${message}`, summary: message.slice(0, 120) };
  }
  // the profile's `.env` values, credential variables of this process and the daemon's token
  const secrets = { ...ambientSecrets(ctx.home.root), ...ctx.secrets };
  return capResult(redactSecrets(result, secrets), tool.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS);
}

/** Secrets shorter than this are not redacted (too likely to match ordinary text), chars. */
export const MIN_REDACTED_SECRET_CHARS = 8;

/**
 * Replaces the value of every secret in `secrets` (name → value; `runTool` passes the profile's
 * `.env` plus `ambientSecrets`) found in a tool result with `[REDACTED:<NAME>]`, so a key the
 * agent reads (`cat .env`, `env`, a config dump) never reaches the model, the transcript or a
 * frontend. A literal substitution: an encoded key (base64 …) is not caught.
 */
export function redactSecrets(result: ToolResult, secrets: Readonly<Record<string, string>>): ToolResult {
  let content = result.content;
  let summary = result.summary;
  const entries = Object.entries(secrets)
    .filter(([, v]) => v.length >= MIN_REDACTED_SECRET_CHARS)
    .sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of entries) {
    if (content.includes(value)) content = content.split(value).join(`[REDACTED:${name}]`);
    if (summary?.includes(value)) summary = summary.split(value).join(`[REDACTED:${name}]`);
  }
  return content === result.content && summary === result.summary
    ? result
    : { ...result, content, ...(summary !== undefined ? { summary } : {}) };
}
