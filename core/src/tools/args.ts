/**
 * Small helpers every tool handler uses: reading typed arguments (errors name the field) and
 * building error results (content starts with the tool's name).
 */
import type { ToolResult } from './types.js';

/**
 * The result of a call the approval guard refused before it ran: the guard's message for the model,
 * `blocked (<reason>)` as the summary and the typed `blocked` field (cron and the TUI read it).
 */
export function blockedResult(verdict: { reason: string; message: string }): ToolResult {
  return {
    ok: false,
    content: verdict.message,
    summary: `blocked (${verdict.reason})`,
    blocked: { reason: verdict.reason },
  };
}

/** An error result whose content starts with `<tool>: `. */
export function toolError(tool: string, message: string): ToolResult {
  return { ok: false, content: `${tool}: ${message}`, summary: message.split('\n')[0]!.slice(0, 120) };
}

/** Reads a string argument; undefined when absent. @throws Error naming the field when not a string. */
export function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`argument "${name}" must be a string`);
  return v;
}

/** Reads an integer argument; undefined when absent. @throws Error naming the field when not an integer. */
export function intArg(args: Record<string, unknown>, name: string): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`argument "${name}" must be a number`);
  return Math.trunc(n);
}

/** Reads a boolean argument (`"true"`/`"false"` strings accepted); undefined when absent. @throws Error naming the field otherwise. */
export function boolArg(args: Record<string, unknown>, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new Error(`argument "${name}" must be true or false`);
}
