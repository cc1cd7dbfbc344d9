/**
 * The built-in tools and how a tool call is run.
 *
 * `runTool` is the only way the agent loop calls a handler. It turns every failure into an
 * error result the model can read, never an exception:
 * - the arguments arrive as the model's JSON text and are parsed once (tool-args.ts): by the
 *   tool's zod schema for tools made by `defineTool` (zod is imported on the first such call),
 *   against the JSON Schema for MCP tools; lenient coercions (`"5"` for an integer, `"true"` for a
 *   boolean, a JSON string for an array or object) as models send those; errors name the field;
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
import { processTool } from './process.js';
import { todoTool } from './todo.js';
import { parseArgs, parseToolArgs } from './tool-args.js';
import type { ToolContext, ToolDefinition, ToolEnv, ToolResult } from './types.js';
import { webExtractTool } from './web/web-extract.js';
import { webSearchTool } from './web/web-search.js';
import { writeFileTool } from './write-file.js';

export { coerceArgs, parseArgs, parseToolArgs, validateArgs } from './tool-args.js';

/** Default cap on a tool result's `content`, chars. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** A tool as the OpenAI Chat Completions API expects it in `tools`. */
export interface OpenAIToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The built-in tools, in a stable order: terminal, process, read_file, write_file, patch, search_files,
 * web_search, web_extract, todo, memory, clarify, skills_list, skill_view, skill_manage,
 * execute_code, cronjob, delegate_task. A new array each call (callers may filter it; a session
 * offers only `availableTools` of it, so `web_search` drops out without a search provider).
 * `delegate_task` works only where the agent offers `ctx.delegate` (`AgentOptions.delegation`).
 * MCP tools are not here: they come per profile from `McpManager` (`../mcp/`).
 */
export function builtinTools(): ToolDefinition[] {
  return [
    terminalTool,
    processTool,
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

/** Caps a result's content to `maxChars`, keeping head and tail (see `capHeadTail`). */
export function capResult(result: ToolResult, maxChars = DEFAULT_MAX_RESULT_CHARS): ToolResult {
  const capped = capHeadTail(result.content, maxChars);
  return capped.truncated ? { ...result, content: capped.text } : result;
}

/**
 * Runs one tool call: parses `rawArgsJson` (`parseArgs`), calls the handler with the result, catches its
 * exceptions, caps the content. Never rejects.
 */
export async function runTool(
  tool: ToolDefinition,
  rawArgsJson: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  let args: Record<string, unknown>;
  try {
    args = await parseArgs(tool, parseToolArgs(rawArgsJson));
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
