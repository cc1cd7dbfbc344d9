/**
 * Small helpers tool handlers use to build results: error results (content starts with the
 * tool's name) and results of calls the approval guard refused. Arguments arrive parsed
 * (tool-args.ts), so handlers read them as typed fields.
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
