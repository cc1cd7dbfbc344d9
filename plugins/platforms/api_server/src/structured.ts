/**
 * `response_format` of a chat completion: `json_object` (the answer must be one JSON object) and
 * `json_schema` (the answer must validate against the client's JSON Schema, checked with zod's
 * `fromJSONSchema`). The agent is asked for the JSON in its turn; the final answer is checked,
 * and an answer that fails gets one repair turn that shows the model its answer and the error;
 * a second failure is an error for the client, never unchecked text.
 */
import { z } from 'zod';
import { ApiError } from './http.js';

/** A structured-output demand. */
export type AnswerFormat =
  { kind: 'json_object' } | { kind: 'json_schema'; name: string; schema: object; check: z.ZodType };

/** Outcome of checking an answer. */
export type FormatCheck = { ok: true; text: string } | { ok: false; error: string };

/**
 * Reads `response_format`.
 * @returns undefined for none or `{type: "text"}`.
 * @throws ApiError 400 naming `response_format` (or its schema) when malformed.
 */
export function readFormat(raw: unknown): AnswerFormat | undefined {
  if (raw === undefined || raw === null) return undefined;
  const f = raw as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown } };
  if (f.type === 'text') return undefined;
  if (f.type === 'json_object') return { kind: 'json_object' };
  if (f.type !== 'json_schema')
    throw new ApiError(
      400,
      'response_format.type must be text, json_object or json_schema',
      'response_format',
    );
  const schema = f.json_schema?.schema;
  if (!schema || typeof schema !== 'object')
    throw new ApiError(
      400,
      'response_format.json_schema.schema must be a JSON Schema object',
      'response_format',
    );
  let check: z.ZodType;
  try {
    check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    throw new ApiError(
      400,
      `response_format.json_schema.schema cannot be used: ${(err as Error).message}`,
      'response_format',
    );
  }
  const name = typeof f.json_schema?.name === 'string' ? f.json_schema.name : 'answer';
  return { kind: 'json_schema', name, schema, check };
}

/** What the turn adds to ask the model for the format. */
export function formatInstruction(format: AnswerFormat): string {
  if (format.kind === 'json_object') return 'Answer with one JSON object only: no prose, no code fences.';
  return (
    `Answer with one JSON value only (no prose, no code fences) that validates against this JSON Schema ` +
    `(named ${JSON.stringify(format.name)}):\n${JSON.stringify(format.schema)}`
  );
}

/** The answer without a surrounding Markdown code fence. */
function unfenced(text: string): string {
  const m = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text.trim());
  return (m ? m[1]! : text).trim();
}

/** Checks an answer; `text` of a good one is the JSON as sent, without fences. */
export function checkAnswer(format: AnswerFormat, answer: string): FormatCheck {
  const text = unfenced(answer);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  if (format.kind === 'json_object') {
    return value && typeof value === 'object' && !Array.isArray(value)
      ? { ok: true, text }
      : { ok: false, error: 'not a JSON object' };
  }
  const r = format.check.safeParse(value);
  if (r.success) return { ok: true, text };
  return {
    ok: false,
    error: r.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; '),
  };
}

/** The repair turn: the original request, the failed answer (as data) and what was wrong. */
export function repairText(turn: string, format: AnswerFormat, answer: string, error: string): string {
  return (
    `${turn}\n\nYour previous answer did not meet the required format (${error}). It was:\n` +
    `<previous_answer>\n${answer.replace(/<\/?previous_answer/gi, (m) => m.replace('<', '‹'))}\n</previous_answer>\n` +
    formatInstruction(format)
  );
}
