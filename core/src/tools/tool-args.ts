/**
 * Reading a tool call's arguments: the model's JSON text → an object the handler can trust.
 *
 * - Empty text means `{}`; invalid JSON or a non-object is an error naming the problem.
 * - A top-level `null` counts as absent (models send `null` for "not given").
 * - Lenient coercions at the top level, as models send them: `"5"` for an integer or number,
 *   `"true"`/`"false"` for a boolean, a JSON text for an array or object.
 * - Tools with a zod schema (`ToolDefinition.argsSchema`, from `defineTool`) are then parsed by
 *   it, once; the handler receives its output. The first such parse imports zod. Others (MCP tools) are checked against their JSON Schema:
 *   required, declared types and enums.
 * - Every error names the field: `missing required argument: "text"`,
 *   `argument "n" must be of type integer (got 1.5)`, `argument "mode" must be one of "a", "b"
 *   (got "c")`, `argument "offset" must be >= 1 (got 0)`, or the schema's own message
 *   (`argument "command" must not be empty`); a nested field by its path (`argument "todos[1]"
 *   must be an object …`).
 */
import type { z } from 'zod';
import type { ToolDefinition } from './types.js';

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

function typesOf(schema: PropSchema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

function propsOf(tool: ToolDefinition): Record<string, PropSchema> {
  return (tool.parameters.properties ?? {}) as Record<string, PropSchema>;
}

function missingError(missing: string[]): Error {
  return new Error(
    `missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `"${m}"`).join(', ')}`,
  );
}

/**
 * A copy of `args` without top-level nulls and with the lenient coercions applied where a
 * value fits one of the field's declared JSON types. Values that fit none are left as they are.
 */
export function coerceArgs(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const props = propsOf(tool);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    const fit = typesOf(props[name] ?? {})
      .map((t) => typeOk(value, t))
      .find((r) => r.ok);
    out[name] = fit ? fit.value : value;
  }
  return out;
}

/**
 * Checks `args` against the tool's top-level JSON schema (required, type, enum) and returns a
 * copy with lenient coercions applied (numeric strings, "true"/"false"). Used for tools without a
 * zod schema (MCP tools).
 * @throws Error naming the field and what was expected.
 */
export function validateArgs(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const props = propsOf(tool);
  const required = (tool.parameters.required ?? []) as string[];
  const missing = required.filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length > 0) throw missingError(missing);
  const out: Record<string, unknown> = { ...args };
  for (const [name, schema] of Object.entries(props)) {
    const value = out[name];
    if (value === undefined || value === null) continue;
    const types = typesOf(schema);
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

/** `todos[0].id` for the path `['todos', 0, 'id']`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** The JSON type the tool's schema declares at `path` (`integer`, `array` …), if one. */
function declaredType(parameters: Record<string, unknown>, path: readonly PropertyKey[]): string | undefined {
  let node: Record<string, unknown> | undefined = parameters;
  for (const p of path) {
    const next: unknown =
      typeof p === 'number'
        ? node?.items
        : (node?.properties as Record<string, unknown> | undefined)?.[String(p)];
    node = next !== null && typeof next === 'object' ? (next as Record<string, unknown>) : undefined;
  }
  const t = node?.type;
  return typeof t === 'string' ? t : Array.isArray(t) ? t.join(' or ') : undefined;
}

const TYPE_NAMES: Record<string, string> = { int: 'integer', nan: 'number' };

function got(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** True when the schema set its own message for the issue (zod's own start with "Invalid"). */
function ownMessage(issue: z.core.$ZodIssue): boolean {
  return issue.code !== 'custom' && !/^(Invalid|Too (small|big))/.test(issue.message);
}

/** One zod issue as a sentence naming the field by its path: `argument "todos[1].id" …`. */
function issueText(issue: z.core.$ZodIssue, input: unknown, parameters: Record<string, unknown>): string {
  const path = pathText(issue.path);
  const field = `argument "${path}"`;
  const value = valueAt(input, issue.path);
  if (ownMessage(issue))
    return `${field} ${issue.message}${typeof value === 'number' ? ` (got ${value})` : ''}`;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined || value === null) return `${field} is required`;
      return `${field} must be of type ${declaredType(parameters, issue.path) ?? TYPE_NAMES[issue.expected] ?? issue.expected} (got ${got(value)})`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${got(value)})`;
    case 'too_small':
    case 'too_big': {
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      if (issue.origin === 'array' || issue.origin === 'string') {
        const unit = issue.origin === 'array' ? 'items' : 'chars';
        const bound = issue.code === 'too_small' ? 'at least' : 'at most';
        return `${field} must have ${bound} ${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)} ${unit}`;
      }
      return `${field} must be ${op} ${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)} (got ${got(value)})`;
    }
    case 'unrecognized_keys':
      return `unknown argument${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return `${field} ${issue.message}`;
  }
}

/**
 * Parses already-decoded arguments for `tool`: coercion, then its zod schema when it has one
 * (`argsSchema`), else `validateArgs`. Resolves with what the handler receives.
 * @throws Error (rejects) naming each field at fault (missing required fields first, together).
 */
export async function parseArgs(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!tool.argsSchema) return validateArgs(tool, args);
  const schema = await tool.argsSchema();
  const input = coerceArgs(tool, args);
  const result = schema.safeParse(input);
  if (result.success) return result.data as Record<string, unknown>;
  const issues = result.error.issues;
  const missing = issues
    .filter((i) => i.code === 'invalid_type' && i.path.length === 1 && input[String(i.path[0])] === undefined)
    .map((i) => String(i.path[0]));
  if (missing.length > 0) throw missingError(missing);
  throw new Error(issues.map((i) => issueText(i, input, tool.parameters)).join('; '));
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
