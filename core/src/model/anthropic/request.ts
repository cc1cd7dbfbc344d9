/**
 * Our Chat Completions history (core/src/model/types.ts) as an Anthropic Messages request body.
 *
 * - System messages → `system` text blocks (the first one, the stable prompt, gets a cache
 *   breakpoint; later system messages are appended as further blocks).
 * - User content → text blocks; `data:` image URLs → base64 `image` blocks (one over the API's 5 MB
 *   becomes a note), other URLs → `url` images.
 * - Assistant messages → (their thinking blocks, when thinking is on and the message has tool
 *   calls: the API needs them back there and ignores them elsewhere) + text + `tool_use` blocks, the
 *   arguments parsed from their JSON text; text that is not a JSON object is kept as
 *   `{"raw_arguments": text}` so the request stays valid and nothing is lost.
 * - Tool messages → `tool_result` blocks inside a user message; consecutive ones share it.
 * - Tool call ids that the API refuses (it takes only `[A-Za-z0-9_-]+`; other providers write ids
 *   like `functions.read_file:0`, and a fallback or `/model` switch brings their history here) are
 *   rewritten the same way in the `tool_use` and its `tool_result` (see `toolUseId`).
 * - Text that is empty or only whitespace is left out (the API refuses such text blocks; other
 *   models often answer "\n" before their tool calls).
 * - Adjacent messages of the same role are merged (Anthropic wants user/assistant alternation),
 *   empty ones dropped, and a history that starts with the assistant gets a short user message first.
 * - Cache breakpoints (`cache_control: {type: "ephemeral"}`): the system prompt and the last block of
 *   each of the last 3 messages — the rule of cache-control.ts, at most 4 in all.
 * - Thinking (`thinking: {type: "enabled", budget_tokens}`) only when a budget is given, and not when
 *   the assistant message this call continues (the one before the trailing tool results) carries
 *   no thinking blocks (history loaded from the store, or answered by another provider): the API
 *   refuses such a request, so that call goes without thinking.
 */
import { createHash } from 'node:crypto';
import { lastTurnBreakpoints, MAX_CACHE_BREAKPOINTS } from '../cache-control.js';
import type { ChatMessage, ThinkingBlock, ToolSchema } from '../types.js';
import { maxTokensFor } from './limits.js';

/** `cache_control` of a breakpoint. */
export const EPHEMERAL = { type: 'ephemeral' } as const;

type Cache = { cache_control?: typeof EPHEMERAL };
type ImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

/** One content block of a request message (the subset this client sends). */
export type AnthropicBlock =
  | ({ type: 'text'; text: string } & Cache)
  | ({ type: 'image'; source: ImageSource } & Cache)
  | ({ type: 'tool_use'; id: string; name: string; input: Record<string, unknown> } & Cache)
  | ({ type: 'tool_result'; tool_use_id: string; content?: string } & Cache)
  | ThinkingBlock;

/** One request message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** The body of `POST /v1/messages` (without `stream`). */
export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: Array<{ type: 'text'; text: string } & Cache>;
  messages: AnthropicMessage[];
  tools?: Array<{ name: string; description: string; input_schema: Record<string, unknown> }>;
  thinking?: { type: 'enabled'; budget_tokens: number };
}

/** Text given to a user message put first when the history starts with the assistant. */
export const HISTORY_START_TEXT = '(conversation continues)';

/** The arguments text of a tool call as a `tool_use` input object. */
export function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    /* kept as text below */
  }
  return { raw_arguments: args };
}

/** A `data:<mime>;base64,<data>` URL as a base64 source; any other URL as a url source. */
export function imageSource(url: string): ImageSource {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { type: 'base64', media_type: m[1]!, data: m[2]! } : { type: 'url', url };
}

/** The characters the API accepts in a `tool_use` id. */
const TOOL_ID = /^[A-Za-z0-9_-]+$/;

/**
 * A tool call id as the API accepts it: unchanged when it is made of `[A-Za-z0-9_-]` only;
 * otherwise the other characters become `_` and 8 hex digits of the id's SHA-256 are appended, so
 * two ids that differ only in those characters stay distinct and the same id always maps alike.
 */
export function toolUseId(id: string): string {
  if (TOOL_ID.test(id)) return id;
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 8);
  return `${id.replace(/[^A-Za-z0-9_-]/g, '_')}_${hash}`.replace(/^_+/, '');
}

function textBlocks(content: string): AnthropicBlock[] {
  return content.trim() === '' ? [] : [{ type: 'text', text: content }];
}

/** Largest base64 image the API takes, characters of its base64 text (5 MiB). */
export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

/**
 * An image part as a block: a base64 image over `MAX_IMAGE_BASE64_CHARS` becomes a note instead,
 * since the API refuses the whole request for it — and, the image staying in the history, every
 * later request of the session too.
 */
function imageBlock(url: string): AnthropicBlock {
  const source = imageSource(url);
  if (source.type === 'base64' && source.data.length > MAX_IMAGE_BASE64_CHARS) {
    const mib = ((source.data.length * 3) / 4 / 1048576).toFixed(1);
    return {
      type: 'text',
      text: `(An image of ${mib} MiB was left out: the Anthropic API takes images up to 5 MB.)`,
    };
  }
  return { type: 'image', source };
}

function userBlocks(content: Extract<ChatMessage, { role: 'user' }>['content']): AnthropicBlock[] {
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap((p): AnthropicBlock[] =>
    p.type === 'text' ? textBlocks(p.text) : [imageBlock(p.image_url.url)],
  );
}

function assistantBlocks(
  m: Extract<ChatMessage, { role: 'assistant' }>,
  withThinking: boolean,
): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  // thinking goes back where the API needs it: before the tool calls it led to (a message without
  // tool calls keeps none, so a message is never made of thinking alone)
  if (withThinking && (m.tool_calls?.length ?? 0) > 0)
    for (const b of m.thinking_blocks ?? []) out.push({ ...b });
  out.push(...textBlocks(m.content ?? ''));
  for (const c of m.tool_calls ?? []) {
    out.push({
      type: 'tool_use',
      id: toolUseId(c.id),
      name: c.function.name,
      input: toolInput(c.function.arguments),
    });
  }
  return out;
}

/** Appends `blocks` as a `role` message, merged into the previous one when it has the same role. */
function append(out: AnthropicMessage[], role: AnthropicMessage['role'], blocks: AnthropicBlock[]): void {
  if (blocks.length === 0) return;
  const last = out[out.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else out.push({ role, content: blocks });
}

/**
 * True when the request continues an assistant message with tool calls (it ends with their
 * results) and that message has no thinking blocks to send back.
 */
export function continuesWithoutThinking(messages: readonly ChatMessage[]): boolean {
  let i = messages.length - 1;
  if (messages[i]?.role !== 'tool') return false;
  while (i >= 0 && messages[i]!.role === 'tool') i--;
  const prev = messages[i];
  return prev?.role === 'assistant' && (prev.thinking_blocks?.length ?? 0) === 0;
}

/** Marks the last block of a message that can carry `cache_control` (not a thinking block). */
function markLast(m: AnthropicMessage): boolean {
  for (let i = m.content.length - 1; i >= 0; i--) {
    const b = m.content[i]!;
    if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
    m.content[i] = { ...b, cache_control: EPHEMERAL };
    return true;
  }
  return false;
}

/** What `buildRequest` needs besides the messages. */
export interface BuildOptions {
  model: string;
  tools: readonly ToolSchema[];
  /** Thinking budget in tokens; undefined: no thinking. */
  thinkingBudget?: number;
}

/**
 * Builds the request body. Never mutates `messages`.
 * @returns the body and whether thinking was dropped because the continued assistant message has
 *   no thinking blocks (see the header).
 */
export function buildRequest(
  messages: readonly ChatMessage[],
  opts: BuildOptions,
): { body: AnthropicBody; thinkingDropped: boolean } {
  const thinkingDropped = opts.thinkingBudget !== undefined && continuesWithoutThinking(messages);
  const budget = thinkingDropped ? undefined : opts.thinkingBudget;
  const system: NonNullable<AnthropicBody['system']> = [];
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system': {
        const text = typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join('');
        if (text.trim() !== '') system.push({ type: 'text', text });
        break;
      }
      case 'user':
        append(out, 'user', userBlocks(m.content));
        break;
      case 'assistant':
        append(out, 'assistant', assistantBlocks(m, budget !== undefined));
        break;
      case 'tool':
        append(out, 'user', [
          {
            type: 'tool_result',
            tool_use_id: toolUseId(m.tool_call_id),
            ...(m.content ? { content: m.content } : {}),
          },
        ]);
        break;
    }
  }
  if (out[0]?.role === 'assistant')
    out.unshift({ role: 'user', content: [{ type: 'text', text: HISTORY_START_TEXT }] });

  let breakpoints = 0;
  if (system.length > 0) {
    system[0] = { ...system[0]!, cache_control: EPHEMERAL };
    breakpoints++;
  }
  for (const i of lastTurnBreakpoints(out.length)) {
    if (breakpoints >= MAX_CACHE_BREAKPOINTS) break;
    if (markLast(out[i]!)) breakpoints++;
  }

  const body: AnthropicBody = {
    model: opts.model,
    max_tokens: maxTokensFor(opts.model, budget),
    ...(system.length > 0 ? { system } : {}),
    messages: out,
    ...(opts.tools.length > 0
      ? {
          tools: opts.tools.map((t) => ({
            name: t.function.name,
            description: t.function.description,
            input_schema: t.function.parameters,
          })),
        }
      : {}),
    ...(budget !== undefined ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
  };
  return { body, thinkingDropped };
}
