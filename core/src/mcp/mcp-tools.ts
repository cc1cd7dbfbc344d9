/**
 * MCP tools as Hermes `ToolDefinition`s: named `mcp_<server>_<tool>`,
 * their input schema passed through, their results turned into text for the model.
 *
 * - Names keep only `[A-Za-z0-9_-]` (others become `_`) and at most 64 chars (the Chat
 *   Completions limit); a name cut to fit ends with a short hash of the full name so two tools
 *   never collide.
 * - A tool is read-only (may run concurrently with other read-only calls) only when the server
 *   marks it `readOnlyHint: true`.
 * - Result content: text items as they are; images/audio as `[image: <mime>, <n> bytes base64]`;
 *   embedded resources as their text (or `[resource: <uri>]`); resource links as
 *   `[resource link: <uri>]`; `structuredContent` as JSON when there is no other content. A
 *   result with `isError` is a failed tool result.
 * - The text is at most the tool-output cap (`MCP_RESULT_MAX_CHARS`, the registry's default):
 *   a longer one, or one cut on arrival (a stdio message over 1 MiB, see stdio-transport.ts),
 *   starts with `[truncated: 20.0 MiB result cut to 100,000 chars …]` and keeps head and tail.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_RESULT_CHARS } from '../tools/registry.js';
import type { ToolDefinition, ToolResult } from '../tools/types.js';
import { capHeadTail } from '../util/head-tail.js';
import { formatBytes, TRUNCATED_META_KEY, type TruncationMeta } from './stdio-transport.js';

/** Most chars of a result the model reads (the registry's cap on every tool). */
export const MCP_RESULT_MAX_CHARS = DEFAULT_MAX_RESULT_CHARS;

/** Longest tool name the Chat Completions API accepts. */
export const TOOL_NAME_MAX = 64;

/** The namespaced name of `tool` of `server`: `mcp_<server>_<tool>`, sanitized and at most 64 chars. */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  const full = `mcp_${clean(server)}_${clean(tool)}`;
  if (full.length <= TOOL_NAME_MAX) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${full.slice(0, TOOL_NAME_MAX - 9)}_${hash}`;
}

/** Content items of an MCP tool result (the parts this adapter reads). */
interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** Turns an MCP `CallToolResult` into a Hermes tool result. */
export function mcpResultToToolResult(name: string, result: McpCallResult): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const parts: string[] = [];
  for (const item of items) {
    switch (item.type) {
      case 'text':
        parts.push(item.text ?? '');
        break;
      case 'image':
      case 'audio':
        parts.push(
          `[${item.type}: ${item.mimeType ?? 'unknown type'}, ${(item.data ?? '').length} bytes base64]`,
        );
        break;
      case 'resource':
        parts.push(item.resource?.text ?? `[resource: ${item.resource?.uri ?? 'unknown'}]`);
        break;
      case 'resource_link':
        parts.push(`[resource link: ${item.uri ?? 'unknown'}]`);
        break;
      default:
        parts.push(`[${item.type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  const text = capResultText(parts.join('\n') || '(no content)', truncationOf(result));
  const ok = result.isError !== true;
  return { ok, content: ok ? text : `${name}: ${text}`, summary: text.split('\n')[0]!.slice(0, 120) };
}

/** The parts of an MCP `CallToolResult` this adapter reads (`toolResult`: the legacy form). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
  _meta?: unknown;
}

function truncationOf(result: McpCallResult): TruncationMeta | undefined {
  const meta = result._meta as Record<string, unknown> | undefined;
  const t = meta && typeof meta === 'object' ? (meta[TRUNCATED_META_KEY] as TruncationMeta) : undefined;
  return t && typeof t.bytes === 'number' ? t : undefined;
}

/**
 * `text` as the model gets it: at most `max` chars. When it is longer, or was cut on arrival
 * (`wire`), a first line says so and how big the result was; head and tail are kept.
 */
export function capResultText(text: string, wire?: TruncationMeta, max = MCP_RESULT_MAX_CHARS): string {
  if (!wire && text.length <= max) return text;
  const size = wire ? formatBytes(wire.bytes) : `${text.length.toLocaleString('en-US')}-char`;
  const marker = `[truncated: ${size} result cut to ${max.toLocaleString('en-US')} chars; head and tail kept]\n`;
  return marker + capHeadTail(text, Math.max(0, max - marker.length)).text;
}

/** Calls a tool on a server; rejects when the server is not running or the call fails. */
export type McpCall = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<McpCallResult>;

/** A `ToolDefinition` for `tool` of `server`, calling it through `call`. */
export function mcpToolDefinition(server: string, tool: Tool, call: McpCall): ToolDefinition {
  const name = mcpToolName(server, tool.name);
  const schema = (tool.inputSchema ?? {}) as Record<string, unknown>;
  const parameters: Record<string, unknown> = {
    ...schema,
    type: 'object',
    properties: (schema.properties as Record<string, unknown> | undefined) ?? {},
  };
  const title = tool.annotations?.title ?? tool.title;
  return {
    name,
    description:
      `[MCP server "${server}"${title ? `, ${title}` : ''}] ${tool.description ?? tool.name}`.slice(0, 1024),
    parameters,
    readOnly: tool.annotations?.readOnlyHint === true,
    summarize: (args) => JSON.stringify(args).slice(0, 200),
    async handler(args, ctx): Promise<ToolResult> {
      try {
        return mcpResultToToolResult(name, await call(tool.name, args, ctx.signal));
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return { ok: false, content: `${name}: ${message}`, summary: message.slice(0, 120) };
      }
    },
  };
}
