/**
 * The facts other modules need about a set of tools, read off the tools' own definitions
 * (define.ts) instead of tables kept by tool name: which tools a script may call, which belong to
 * a delegate toolset, which sub-agents and cron runs never get, and how frontends name a call.
 * Pure functions over a tool list; the callers pass the session's tools (or `builtinTools()`).
 */
import { TOOLSET_NAMES, type ToolsetName, type ToolVerb } from './define.js';
import type { ToolDefinition } from './types.js';

/** The tools an `execute_code` script may call (`inScripts`), order kept. */
export function scriptTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return tools.filter((t) => t.inScripts === true);
}

/** True unless the tool is marked `forSubagents: false` (never given to a `delegate_task` sub-agent). */
export function allowedForSubagents(tool: Pick<ToolDefinition, 'forSubagents'>): boolean {
  return tool.forSubagents !== false;
}

/** True unless the tool is marked `inCron: false` (never offered in an unattended cron run). */
export function allowedInCron(tool: Pick<ToolDefinition, 'inCron'>): boolean {
  return tool.inCron !== false;
}

/** Toolset name → the names of its tools, every name of `TOOLSET_NAMES` present, in that order. */
export type ToolsetTable = Readonly<Record<ToolsetName, readonly string[]>>;

/** The members of each delegate toolset among `tools` (by their `toolsets`), tools in list order. */
export function toolsetTable(tools: readonly ToolDefinition[]): ToolsetTable {
  const table = Object.fromEntries(TOOLSET_NAMES.map((n) => [n, [] as string[]])) as Record<
    ToolsetName,
    string[]
  >;
  for (const t of tools)
    for (const set of t.toolsets ?? []) if (set in table) table[set as ToolsetName].push(t.name);
  return table;
}

/** Tool name → display verb `[done, running]`, for the tools that have one. */
export function toolVerbTable(tools: readonly ToolDefinition[]): Record<string, ToolVerb> {
  return Object.fromEntries(tools.filter((t) => t.verb).map((t) => [t.name, t.verb!]));
}
