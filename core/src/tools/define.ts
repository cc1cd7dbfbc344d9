/**
 * `defineTool`: one definition per tool holding every fact about it — the model-facing name,
 * description and argument schema (zod), scheduling, where it may be used and how frontends name
 * it — and its `run` function, which receives the arguments already parsed by that schema.
 *
 * The JSON Schema sent to the model is generated from the zod schema (`toolJsonSchema`). The
 * tables other modules used to keep by tool name (tools callable from `execute_code`, delegate
 * toolsets, tools sub-agents or cron runs never get, the TUI's display verbs) are read off these
 * definitions (catalog.ts). How to add a tool: README.md beside this file.
 */
import { z } from 'zod';
import type { ToolContext, ToolDefinition, ToolEnv, ToolResult } from './types.js';

/**
 * The toolsets a `delegate_task` call may name (in the order its description lists them); a tool
 * joins one through `ToolSpec.toolsets`. `mcp-<server>` is handled apart.
 */
export const TOOLSET_NAMES = ['terminal', 'file', 'web', 'todo', 'skills', 'cronjob'] as const;

/** A toolset name (`TOOLSET_NAMES`). */
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** How a frontend names a call of the tool: past tense when done, present while it runs. */
export type ToolVerb = readonly [done: string, running: string];

/** What `defineTool` takes. `S` is the zod object schema of the arguments. */
export interface ToolSpec<S extends z.ZodObject> {
  /** The name the model calls it by: `[a-z_]+`, unique among the built-in tools. */
  name: string;
  /** What the model reads about the tool. */
  description: string;
  /**
   * The arguments as a zod object. Field descriptions (`.describe`) reach the model. Bounds that
   * the tool handles itself (capping instead of refusing) are stated with `.meta({ maximum })`,
   * which appears in the JSON Schema without being enforced.
   */
  parameters: S;
  /** True when the tool never changes anything: such calls of one response run concurrently. */
  readOnly: boolean;
  /** Toolsets of `delegate_task` the tool belongs to (default none). */
  toolsets?: readonly ToolsetName[];
  /** True when an `execute_code` script may call it (default false). */
  inScripts?: boolean;
  /** False when sub-agents of `delegate_task` never get it (default true). */
  forSubagents?: boolean;
  /** False when unattended cron runs never get it (default true). */
  inCron?: boolean;
  /** Display verb for frontends; absent: frontends show the tool's name. */
  verb?: ToolVerb;
  /** Cap on `content` in chars; default 100,000. */
  maxResultChars?: number;
  /**
   * Short summary of the arguments for `tool.start`. Receives the arguments as the model sent
   * them (not yet checked), so it must tolerate any shape.
   */
  summarize?(args: Record<string, unknown>): string;
  /** False when the tool cannot work in this profile: it is then not offered. Cheap, never throws. */
  available?(env: ToolEnv): boolean;
  /** Runs one call with the parsed arguments. May throw: the registry turns that into an error result. */
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * A string argument that must hold more than whitespace; the error reads
 * `argument "<name>" must not be empty`. The value is passed on untrimmed.
 */
export function nonEmpty(): z.ZodString {
  return z.string().refine((s) => s.trim() !== '', { message: 'must not be empty' }) as z.ZodString;
}

/** Largest safe integer bounds zod adds to every integer; they say nothing to a model. */
const SAFE_INT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function stripSafeIntBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) stripSafeIntBounds(n);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  for (const key of ['minimum', 'maximum'])
    if (typeof obj[key] === 'number' && SAFE_INT_BOUNDS.has(obj[key])) delete obj[key];
  for (const v of Object.values(obj)) stripSafeIntBounds(v);
}

/**
 * The JSON Schema of a tool's arguments as providers accept it: generated from the zod object
 * for its input side (fields with defaults are optional; no `additionalProperties`), without the
 * `$schema` key and without zod's implicit safe-integer bounds, `required` present only when some
 * field is required.
 */
export function toolJsonSchema(parameters: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'throw' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  stripSafeIntBounds(schema);
  return schema;
}

/**
 * Builds a tool from its spec: the `ToolDefinition` the agent loop and the registry use, with
 * `parameters` the generated JSON Schema, `args` the zod schema `runTool` parses with, and the
 * spec's facts copied onto it. `handler` passes the parsed arguments to `run` unchanged.
 * @throws Error when the schema cannot be expressed as JSON Schema (a transform, a date …).
 */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolDefinition {
  const { parameters, run, ...facts } = spec;
  return {
    ...facts,
    parameters: toolJsonSchema(parameters),
    args: parameters,
    handler: (args, ctx) => run(args as z.output<S>, ctx),
  };
}
