/**
 * Reads a `POST /v1/chat/completions` body into the turn the agent runs, or an `ApiError` 400
 * naming the field that is wrong.
 *
 * The request is stateless: its `messages` are the whole conversation. The last message must be
 * the user's and is the new turn; the earlier user and assistant messages become the first turns
 * of the session the request creates (real turns, as the model would have had them; a client's
 * tool calls and tool results are folded into the assistant's text, consecutive messages of one
 * role joined), and the client's `system`/`developer` messages become instructions appended to
 * the agent's own system prompt inside a delimited block whose closing tag client text cannot
 * forge.
 */
import type { SeedMessage } from '@hermes/core';
import { ApiError } from './http.js';
import { formatInstruction, readFormat, type AnswerFormat } from './structured.js';

/** A checked chat completion request. */
export interface ChatRequest {
  /** The text of the last user message: the turn the agent runs. */
  lastUser: string;
  /** The earlier messages (not system) as the session's first turns, oldest first. */
  history: SeedMessage[];
  /** The client's system messages as a delimited block for the system prompt ('' when none). */
  instructions: string;
  stream: boolean;
  /** `stream_options.include_usage`. */
  includeUsage: boolean;
  /** The `model` the client named, if any. */
  model?: string;
  /** `response_format` when JSON is demanded (the turn texts ask for it already). */
  format?: AnswerFormat;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const BLOCKS = /<(\/?)(client_instructions)\b/gi;

/** Defuses our block tags inside client text (`<message` → `‹message`). */
function defuse(text: string): string {
  return text.replace(BLOCKS, (_m, slash: string, name: string) => `‹${slash}${name}`);
}

/**
 * Text of a message's `content`: a string, null, or an array of `text` parts.
 * @throws ApiError 400 for image, audio and file parts (the agent's model input is text only).
 */
function contentOf(content: unknown, at: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new ApiError(400, `${at} must be a string or an array of content parts`, at);
  return content
    .map((part: unknown, j) => {
      const p = part as { type?: unknown; text?: unknown };
      if (p?.type === 'text' && typeof p.text === 'string') return p.text;
      if (p?.type === 'image_url' || p?.type === 'input_audio' || p?.type === 'file')
        throw new ApiError(
          400,
          `${at}[${j}]: ${String(p.type)} parts are not supported: this agent's model input is text only`,
          `${at}[${j}]`,
          'unsupported_content_type',
        );
      throw new ApiError(400, `${at}[${j}] must be a content part with type "text"`, `${at}[${j}]`);
    })
    .join('');
}

/** One history message's text: the content, plus any tool calls an assistant message made. */
function historyText(m: Record<string, unknown>, role: string, text: string): string {
  if (role === 'tool' || role === 'function') {
    const name =
      typeof m.name === 'string' ? m.name : typeof m.tool_call_id === 'string' ? m.tool_call_id : '?';
    return text ? `[result of ${name}: ${text}]` : '';
  }
  const calls = Array.isArray(m.tool_calls)
    ? (m.tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>)
        .map((c) => `[called ${String(c.function?.name ?? '?')}(${String(c.function?.arguments ?? '')})]`)
        .join('\n')
    : '';
  return [text, calls].filter(Boolean).join('\n');
}

/**
 * The earlier messages as turns: user messages as the user's, assistant messages with the tool
 * calls and results that followed them as the assistant's; consecutive messages of one role
 * joined by a blank line (providers want the roles to alternate).
 */
export function historyTurns(
  messages: ReadonlyArray<{ m: Record<string, unknown>; role: string; text: string }>,
): SeedMessage[] {
  const turns: SeedMessage[] = [];
  for (const { m, role, text } of messages) {
    if (role === 'system' || role === 'developer') continue;
    const content = historyText(m, role, text).trim();
    if (!content) continue;
    const as: SeedMessage['role'] = role === 'user' ? 'user' : 'assistant';
    const last = turns[turns.length - 1];
    if (last?.role === as) last.content = `${last.content}\n\n${content}`;
    else turns.push({ role: as, content });
  }
  return turns;
}

/**
 * Checks the body and builds the turn.
 * @throws ApiError 400 naming the field (`messages`, `messages[2].role`, `n`, `tools` …).
 */
/**
 * Refuses client-side `tools` (a non-empty array): the agent runs its own tools on the server.
 * @throws ApiError 400 `unsupported_parameter` naming `tools`.
 */
export function refuseClientTools(tools: unknown): void {
  if (Array.isArray(tools) && tools.length > 0)
    throw new ApiError(
      400,
      'client-side tools are not supported: the agent runs its own tools on the server and returns its final answer',
      'tools',
      'unsupported_parameter',
    );
}

export function readChatRequest(body: Record<string, unknown>): ChatRequest {
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new ApiError(400, 'messages must be a non-empty array', 'messages');
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
    throw new ApiError(400, 'stream must be true or false', 'stream');
  if (body.n !== undefined && body.n !== null && body.n !== 1)
    throw new ApiError(400, 'n must be 1: the agent gives one answer per request', 'n');
  refuseClientTools(body.tools);
  if (body.model !== undefined && typeof body.model !== 'string')
    throw new ApiError(400, 'model must be a string', 'model');

  const instructions: string[] = [];
  const read = messages.map((raw: unknown, i) => {
    const at = `messages[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new ApiError(400, `${at} must be an object`, at);
    const m = raw as Record<string, unknown>;
    if (typeof m.role !== 'string' || !ROLES.has(m.role))
      throw new ApiError(
        400,
        `${at}.role must be one of system, developer, user, assistant, tool`,
        `${at}.role`,
      );
    return { m, role: m.role, text: contentOf(m.content, `${at}.content`) };
  });
  const last = read[read.length - 1]!;
  if (last.role !== 'user' || !last.text.trim())
    throw new ApiError(400, 'the last of messages must be a user message with text', 'messages');
  for (const { role, text } of read.slice(0, -1))
    if ((role === 'system' || role === 'developer') && text.trim()) instructions.push(defuse(text.trim()));
  const history = historyTurns(read.slice(0, -1));
  // the last message alone is the turn (a continued session takes only it); history may end
  // with a user message, stored before the turn's own
  const lastText = last.text.trim();
  const format = readFormat(body.response_format);
  const ask = format ? `\n\n${formatInstruction(format)}` : '';
  const lastUser = lastText + ask;
  const opts = body.stream_options as { include_usage?: unknown } | undefined | null;
  return {
    lastUser,
    history,
    ...(format ? { format } : {}),
    instructions: instructions.length
      ? '## Instructions from the API client\n' +
        'The program calling this API sent these instructions (its system message). Follow them unless they conflict with the rules above:\n' +
        `<client_instructions>\n${instructions.join('\n\n')}\n</client_instructions>`
      : '',
    stream: body.stream === true,
    includeUsage: body.stream === true && opts?.include_usage === true,
    ...(typeof body.model === 'string' && body.model ? { model: body.model } : {}),
  };
}
