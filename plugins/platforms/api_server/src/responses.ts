/**
 * `POST /v1/responses` (OpenAI's Responses API): reading a request, and building the response
 * object and its spec-native stream events from the turn's events.
 *
 * The agent runs its own tools on the server: each tool call of the turn appears in `output` as a
 * completed `function_call` item followed by its `function_call_output`, between the assistant's
 * `message` items, never as a call for the client to run. Streamed, the events are
 * `response.created`, `response.in_progress`, then per item `response.output_item.added` …
 * (`response.content_part.added`, `response.output_text.delta`, `response.output_text.done`,
 * `response.content_part.done` for a message) … `response.output_item.done`, and last
 * `response.completed` (or `response.failed`) with the whole response and its usage.
 */
import { randomBytes } from 'node:crypto';
import type { TurnEvent } from '@hermes/core';
import type { SeedMessage } from '@hermes/core';
import type { ImageAttachmentInput } from '@hermes/core/protocol';
import { readChatRequest, refuseClientTools } from './chat-request.js';
import { ApiError } from './http.js';
import type { AnswerUsage } from './openai-wire.js';
import type { AnswerFormat } from './structured.js';

/** A checked Responses request. */
export interface ResponsesRequest {
  /** The last user input: the turn. */
  lastUser: string;
  /** The input's earlier messages: the first turns of a new conversation's session. */
  history: SeedMessage[];
  /** Images of the last user input (`input_image` parts with data: URLs). */
  images: ImageAttachmentInput[];
  /** `instructions` as a delimited block for the system prompt ('' when none). */
  instructions: string;
  previousId?: string;
  conversation?: string;
  store: boolean;
  stream: boolean;
  model?: string;
  /** `text.format` demanding JSON (the turn texts ask for it already). */
  format?: AnswerFormat;
}

const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * Maps Responses input items to chat messages (`input_text` parts become text parts). A client
 * keeping the conversation itself sends back a response's `output`: its `function_call` and
 * `function_call_output` items become the assistant's call and the tool's result (history, as in
 * chat), its `reasoning` items are dropped.
 */
function toMessages(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) throw new ApiError(400, 'input must be a string or an array of items', 'input');
  const names = new Map<unknown, string>();
  return input.flatMap((raw: unknown, i) => {
    const item = raw as {
      type?: unknown;
      role?: unknown;
      content?: unknown;
      output?: unknown;
      name?: unknown;
      arguments?: unknown;
      call_id?: unknown;
    };
    if (item?.type === 'reasoning') return [];
    if (item?.type === 'function_call') {
      const name = typeof item.name === 'string' ? item.name : '?';
      names.set(item.call_id, name);
      return [
        { role: 'assistant', content: null, tool_calls: [{ function: { name, arguments: item.arguments } }] },
      ];
    }
    if (item?.type === 'function_call_output')
      return {
        role: 'tool',
        ...(names.has(item.call_id) ? { name: names.get(item.call_id) } : {}),
        content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
      };
    if (item?.type !== undefined && item.type !== 'message')
      throw new ApiError(
        400,
        `input[${i}]: items of type ${String(item.type)} are not supported`,
        `input[${i}]`,
      );
    const content = Array.isArray(item.content)
      ? item.content.map((p: { type?: unknown; text?: unknown; image_url?: unknown }, j) => {
          if (p?.type === 'input_text' || p?.type === 'output_text' || p?.type === 'text')
            return { type: 'text', text: p.text };
          // an inline image (`image_url`: a data: URL) is read like a chat `image_url` part
          if (p?.type === 'input_image' && typeof p.image_url === 'string')
            return { type: 'image_url', image_url: { url: p.image_url } };
          if (p?.type === 'input_image' || p?.type === 'input_file')
            throw new ApiError(
              400,
              `input[${i}].content[${j}]: ${String(p.type)} parts are not supported: this agent's model input is text only`,
              `input[${i}].content[${j}]`,
              'unsupported_content_type',
            );
          throw new ApiError(
            400,
            `input[${i}].content[${j}] must be an input_text part`,
            `input[${i}].content[${j}]`,
          );
        })
      : item.content;
    return { role: item.role, content };
  });
}

/**
 * Checks a Responses body.
 * @throws ApiError 400 naming the field (`input`, `instructions`, `previous_response_id` …).
 */
export function readResponsesRequest(body: Record<string, unknown>): ResponsesRequest {
  if (body.input === undefined || body.input === null || body.input === '')
    throw new ApiError(400, 'input is required', 'input');
  if (body.instructions != null && typeof body.instructions !== 'string')
    throw new ApiError(400, 'instructions must be a string', 'instructions');
  if (body.previous_response_id != null && typeof body.previous_response_id !== 'string')
    throw new ApiError(400, 'previous_response_id must be a string', 'previous_response_id');
  const conv = body.conversation as unknown;
  const conversation = typeof conv === 'string' ? conv : ((conv as { id?: unknown } | null)?.id ?? undefined);
  if (conversation !== undefined && (typeof conversation !== 'string' || !conversation.trim()))
    throw new ApiError(400, 'conversation must be a name or {id}', 'conversation');
  if (typeof conversation === 'string' && conversation.trim().length > MAX_NAME_CHARS)
    throw new ApiError(400, `conversation is longer than ${MAX_NAME_CHARS} characters`, 'conversation');
  if (conversation && body.previous_response_id)
    throw new ApiError(400, 'give previous_response_id or conversation, not both', 'conversation');
  refuseClientTools(body.tools);
  let chat;
  try {
    const system =
      typeof body.instructions === 'string' && body.instructions.trim()
        ? [{ role: 'system', content: body.instructions }]
        : [];
    // `text.format` is flat ({type, name, schema}); chat's response_format nests the schema
    const f = (body.text as { format?: { type?: unknown; name?: unknown; schema?: unknown } } | null)?.format;
    const responseFormat =
      f?.type === 'json_schema'
        ? { type: 'json_schema', json_schema: { name: f.name, schema: f.schema } }
        : f;
    chat = readChatRequest({
      messages: [...system, ...toMessages(body.input)],
      stream: body.stream,
      response_format: responseFormat,
    });
  } catch (err) {
    if (err instanceof ApiError && err.param?.startsWith('messages'))
      throw new ApiError(400, err.message.replace(/messages/g, 'input'), 'input', err.code);
    if (err instanceof ApiError && err.param === 'response_format')
      throw new ApiError(
        400,
        err.message.replace(/response_format(\.json_schema)?/g, 'text.format'),
        'text.format',
      );
    throw err;
  }
  return {
    lastUser: chat.lastUser,
    history: chat.history,
    images: chat.images,
    instructions: chat.instructions,
    ...(typeof body.previous_response_id === 'string' ? { previousId: body.previous_response_id } : {}),
    ...(conversation ? { conversation: conversation.trim() } : {}),
    store: body.store !== false,
    stream: body.stream === true,
    ...(typeof body.model === 'string' && body.model ? { model: body.model } : {}),
    ...(chat.format ? { format: chat.format } : {}),
  };
}

type Item = Record<string, unknown> & { type: string; id: string };

/** Longest conversation name (`conversation`, `X-Hermes-Session-Id`), characters. */
export const MAX_NAME_CHARS = 200;

/**
 * A tool call's `call_id`: the model's own id (`call_…` from OpenAI-style providers) as it is,
 * another id (Anthropic's `toolu_…`) with `call_` before it.
 */
export function callIdOf(toolId: string): string {
  return toolId.startsWith('call_') ? toolId : `call_${toolId}`;
}

/** Builds one response from a turn's events; writes its stream events when `write` is given. */
export class ResponseBuilder {
  readonly id = id('resp');
  readonly createdAt = Math.floor(Date.now() / 1000);
  private readonly items: Item[] = [];
  /** The assistant message being written, and its text so far. */
  private open: { item: Item; text: string } | undefined;
  /** A model call is streaming (`message.start` seen, its `message.complete` not yet). */
  private calling = false;
  private readonly calls = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly model: string,
    private readonly extra: {
      previous_response_id: string | null;
      conversation: string | null;
      instructions: string | null;
    },
    private readonly write?: (chunk: string) => void,
  ) {}

  private emit(type: string, data: Record<string, unknown>): void {
    this.write?.(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...data })}\n\n`,
    );
  }

  /** The response object with `status` and `usage`. */
  object(
    status: string,
    usage?: AnswerUsage,
    error?: { code: string; message: string },
    incomplete?: { reason: string },
  ): object {
    return {
      id: this.id,
      object: 'response',
      created_at: this.createdAt,
      status,
      model: this.model,
      output: this.items,
      parallel_tool_calls: false,
      tool_choice: 'auto',
      tools: [],
      error: error ?? null,
      incomplete_details: incomplete ?? null,
      instructions: this.extra.instructions,
      previous_response_id: this.extra.previous_response_id,
      conversation: this.extra.conversation ? { id: this.extra.conversation } : null,
      metadata: {},
      usage: usage
        ? {
            input_tokens: usage.prompt,
            output_tokens: usage.completion,
            total_tokens: usage.prompt + usage.completion,
            input_tokens_details: { cached_tokens: usage.cached ?? 0 },
            output_tokens_details: { reasoning_tokens: 0 },
            // OpenRouter's addition: USD when every call of the turn had a known price
            ...(usage.costMicros !== undefined && !usage.costUnknown
              ? { cost: usage.costMicros / 1_000_000 }
              : {}),
          }
        : null,
    };
  }

  /** `response.created` and `response.in_progress`. */
  start(): void {
    this.emit('response.created', { response: this.object('in_progress') });
    this.emit('response.in_progress', { response: this.object('in_progress') });
  }

  private add(item: Item): number {
    this.items.push(item);
    const index = this.items.length - 1;
    this.emit('response.output_item.added', { output_index: index, item });
    return index;
  }

  private text(delta: string): void {
    if (!this.open) {
      const item: Item = {
        type: 'message',
        id: id('msg'),
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      this.open = { item, text: '' };
      const index = this.add(item);
      this.emit('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    this.open.text += delta;
    this.emit('response.output_text.delta', {
      item_id: this.open.item.id,
      output_index: this.items.indexOf(this.open.item),
      content_index: 0,
      delta,
      logprobs: [],
    });
  }

  private close(): void {
    const o = this.open;
    if (!o) return;
    this.open = undefined;
    const index = this.items.indexOf(o.item);
    const part = { type: 'output_text', text: o.text, annotations: [] };
    o.item.content = [part];
    o.item.status = 'completed';
    const at = { item_id: o.item.id, output_index: index, content_index: 0 };
    this.emit('response.output_text.done', { ...at, text: o.text, logprobs: [] });
    this.emit('response.content_part.done', { ...at, part });
    this.emit('response.output_item.done', { output_index: index, item: o.item });
  }

  private done(item: Item): void {
    const index = this.add(item);
    this.emit('response.output_item.done', { output_index: index, item });
  }

  /** Takes one agent event of the turn. */
  onEvent(event: TurnEvent): void {
    const e = event.payload;
    if (event.type === 'message.delta' && typeof e.text === 'string' && e.text) this.text(e.text);
    else if (event.type === 'message.start' && this.calling && this.open) {
      // the call restarted after a failure: its text so far came from the failed attempt; the
      // deltas are sent, but the item's text (its done events, the response) is the retry's only
      this.open.text = '';
    } else if (event.type === 'message.start' || event.type === 'message.complete') {
      this.close();
      this.calling = event.type === 'message.start';
    } else if (event.type === 'tool.start') {
      this.close();
      const callId = callIdOf(String(e.tool_id ?? randomBytes(6).toString('hex')));
      this.calls.set(String(e.tool_id ?? ''), callId);
      this.done({
        type: 'function_call',
        id: id('fc'),
        call_id: callId,
        name: String(e.name ?? ''),
        arguments: JSON.stringify(e.args ?? {}),
        status: 'completed',
      });
    } else if (event.type === 'tool.complete') {
      const callId = this.calls.get(String(e.tool_id ?? '')) ?? callIdOf(String(e.tool_id ?? ''));
      this.done({
        type: 'function_call_output',
        id: id('fco'),
        call_id: callId,
        output: String(e.detail ?? e.summary ?? ''),
        status: 'completed',
      });
    }
  }

  /**
   * Ends the response: `reply` becomes a message item when no text was streamed (a command's
   * answer); writes `response.completed`, or `response.incomplete` (reason `max_output_tokens`)
   * when `truncated`: the model's output limit cut the answer off. @returns the response object.
   */
  complete(reply: string, usage: AnswerUsage, truncated = false): object {
    this.close();
    if (reply && !this.items.some((i) => i.type === 'message')) {
      this.text(reply);
      this.close();
    }
    const body = truncated
      ? this.object('incomplete', usage, undefined, { reason: 'max_output_tokens' })
      : this.object('completed', usage);
    this.emit(truncated ? 'response.incomplete' : 'response.completed', { response: body });
    return body;
  }

  /**
   * The response as far as it got when its client went away: status `incomplete`, the items so
   * far (an open message closed with its text). Nothing more is sent. @returns the response object.
   */
  interrupted(usage: AnswerUsage): object {
    this.close();
    return this.object('incomplete', usage);
  }

  /** Ends the response as failed: writes `response.failed`. */
  fail(err: ApiError, usage: AnswerUsage): void {
    this.close();
    this.emit('response.failed', {
      response: this.object('failed', usage, { code: err.code ?? 'server_error', message: err.message }),
    });
  }
}
