/**
 * `defineTool`: one definition per tool holding every fact about it — the model-facing name,
 * description and argument schema (zod), scheduling, where it may be used and how frontends name
 * it — and its `run` function, which receives the arguments already parsed by that schema.
 *
 * zod stays out of start-up: a tool module imports only zod's types, its `parameters` is a
 * function of the zod namespace, and zod itself is imported the first time a call's arguments are
 * parsed (`argsSchema`). The JSON Schema sent to the model comes from a generated, zod-free table
 * (tool-schemas.generated.ts, rendered from these definitions by tool-schemas.ts). The tables
 * other modules used to keep by tool name (tools callable from `execute_code`, delegate toolsets,
 * tools sub-agents or cron runs never get, the TUI's display verbs) are read off these definitions
 * (catalog.ts). How to add a tool: README.md beside this file.
 */
import type { z } from 'zod';
import { TOOL_SCHEMAS } from './tool-schemas.generated.js';
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

/** The zod namespace (`import { z } from 'zod'`), as handed to a tool's `parameters`. */
export type Zod = typeof z;

/** A tool's argument schema as a function of the zod namespace: `(z) => z.object({...})`. */
export type ToolParameters<S extends z.ZodObject = z.ZodObject> = (zod: Zod) => S;

/** The arguments `run` receives for `parameters` P (the output of its schema). */
export type ToolArgs<P extends ToolParameters> = z.output<ReturnType<P>>;

/** What `defineTool` takes. `S` is the zod object schema of the arguments. */
export interface ToolSpec<S extends z.ZodObject> {
  /** The name the model calls it by: `[a-z_]+`, unique among the built-in tools. */
  name: string;
  /** What the model reads about the tool. */
  description: string;
  /**
   * Builds the arguments as a zod object from the zod namespace it receives (called once, when
   * the first call is parsed, or by the generator of the JSON Schema table). Field descriptions
   * (`.describe`) reach the model. Bounds that the tool handles itself (capping instead of
   * refusing) are stated with `.meta({ maximum })`, which appears in the JSON Schema without being
   * enforced.
   */
  parameters: ToolParameters<S>;
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
export function nonEmpty(zod: Zod): z.ZodString {
  return zod.string().refine((s) => s.trim() !== '', { message: 'must not be empty' }) as z.ZodString;
}

let zodModule: Promise<Zod> | undefined;

/** The zod namespace, imported on the first call (so loading a tool module never loads zod). */
export function loadZod(): Promise<Zod> {
  return (zodModule ??= import('zod').then((m) => m.z));
}

/** Built schemas by `parameters` function: each is built once, however many tools share it. */
const built = new WeakMap<ToolParameters, Promise<z.ZodObject>>();

/** The zod schema `parameters` builds, built on the first call (loading zod) and kept. */
export function buildParameters<S extends z.ZodObject>(parameters: ToolParameters<S>): Promise<S> {
  let schema = built.get(parameters);
  if (!schema) {
    schema = loadZod().then((zod) => parameters(zod));
    built.set(parameters, schema);
  }
  return schema as Promise<S>;
}

/**
 * The JSON Schema of the built-in tool `name` from the generated table.
 * @throws Error when the table has no entry (a new tool before `npm run gen:protocol`).
 */
export function generatedJsonSchema(name: string): Record<string, unknown> {
  const schema = TOOL_SCHEMAS[name];
  if (!schema) throw new Error(`no generated JSON Schema for tool "${name}": run \`npm run gen:protocol\``);
  return schema;
}

/**
 * Builds a tool from its spec: the `ToolDefinition` the agent loop and the registry use, with the
 * spec's facts copied onto it, `parameters` the tool's JSON Schema, `argsSchema` the loader of the
 * zod schema `runTool` parses with (`buildParameters`), and `handler` passing the parsed
 * arguments to `run` unchanged.
 * @param jsonSchema where `parameters` comes from, read on first access and kept; default the
 *   generated table entry for `spec.name` (`generatedJsonSchema`, which throws for a name it
 *   lacks). Tools that are not built in (tests) pass their own (testing.ts `defineTestTool`).
 */
export function defineTool<S extends z.ZodObject>(
  spec: ToolSpec<S>,
  jsonSchema: () => Record<string, unknown> = () => generatedJsonSchema(spec.name),
): ToolDefinition {
  const { parameters, run, ...facts } = spec;
  let schema: Record<string, unknown> | undefined;
  return {
    ...facts,
    get parameters() {
      return (schema ??= jsonSchema());
    },
    argsSchema: () => buildParameters(parameters),
    handler: (args, ctx) => run(args as z.output<S>, ctx),
  };
}
