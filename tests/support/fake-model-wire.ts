/**
 * The script language and the wire format of the fake model server (see `fake-model-server.ts`).
 *
 * Everything here is pure: it turns one script step plus the recorded request into the exact
 * bytes an OpenAI-compatible Chat Completions endpoint sends. The streaming format is the one the
 * `openai` SDK (6.x) needs (docs/toolchain.md, "Pitfalls"): every chunk has `choices[].index`, `delta`
 * and `finish_reason` (null until the last); the first delta carries `role: "assistant"`; every
 * tool-call delta has an `index`, and its first delta `id`, `type: "function"` and
 * `function.name`; a final chunk carries `finish_reason` (`tool_calls` or `stop`); a usage chunk
 * (`choices: []`) follows when the request asked for `stream_options.include_usage`; then
 * `data: [DONE]`.
 */

/** Token counts reported by a step (OpenAI `usage` shape). */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

/** One tool call the fake model asks for. `arguments` may be an object (JSON-encoded) or raw text. */
export interface FakeToolCall {
  name: string;
  arguments?: Record<string, unknown> | string;
  /** Defaults to `call_<n>` (n counts calls across the server's life). */
  id?: string;
}

/** Fields shared by the steps that answer (text or tool calls). */
interface AnswerFields {
  /** Reasoning streamed before the text, as `delta.reasoning` (or `reasoningField`). */
  reasoning?: string;
  /** Which delta field carries `reasoning`: `reasoning` (OpenRouter) or `reasoning_content` (DeepSeek, vLLM). */
  reasoningField?: 'reasoning' | 'reasoning_content';
  /** Characters per content/arguments chunk; default 8. */
  chunkSize?: number;
  /** Milliseconds to wait between chunks; default 0. */
  delayMs?: number;
  /** Overrides (parts of) the computed usage. */
  usage?: Partial<FakeUsage>;
  /** Overrides the finish reason (default `tool_calls` when there are tool calls, else `stop`). */
  finishReason?: string;
  /** Anthropic dialect: the thinking block's signature (default `sig-<n>`). */
  signature?: string;
  /** Anthropic dialect: overrides (parts of) the usage (input, output, cache read/creation tokens). */
  anthropicUsage?: Partial<{
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  }>;
  /** Anthropic dialect: overrides `stop_reason` (default `tool_use` with tool calls, else `end_turn`). */
  stopReason?: string;
}

/** Streams `text` in chunks, then `finish_reason: "stop"`. */
export interface TextStep extends AnswerFields {
  text: string;
}

/** Streams optional `text`, then the tool calls, then `finish_reason: "tool_calls"`. */
export interface ToolCallsStep extends AnswerFields {
  toolCalls: FakeToolCall[];
  text?: string;
}

/** Answers with an HTTP error (no stream). */
export interface ErrorStep {
  error: {
    /** 429, 500, 413, 401, 400, 503 … */
    status: number;
    /** Response body; default `{error: {message, type, code}}` in OpenAI's shape. */
    body?: unknown;
    /** Message of the default body. */
    message?: string;
    /** Seconds, sent as the `Retry-After` header. */
    retryAfter?: number;
  };
}

/**
 * Never finishes. Without `text` the server never even sends headers; with `text` it sends the
 * headers and the text chunks, then stalls. The connection stays open until the client gives up
 * (interrupt tests) or the server closes.
 */
export interface HangStep {
  hang: true;
  text?: string;
  chunkSize?: number;
}

/** Sends headers and optional `text` chunks, then destroys the socket (a mid-stream network failure). */
export interface DisconnectStep {
  disconnect: true;
  text?: string;
  chunkSize?: number;
}

/**
 * A declarative dynamic answer (usable in JSON scripts across processes): replies with text made
 * of `prefix` + the content of the last `tool` message (`last_tool_result`) or the last `user`
 * message (`last_user`) of the request.
 */
export interface EchoStep {
  echo: 'last_tool_result' | 'last_user';
  prefix?: string;
}

/**
 * Starts the answer (optional `reasoning` and `text`), then fails inside the stream: Anthropic's
 * `event: error` with `{type, message}` (e.g. `overloaded_error`); in the OpenAI dialect a
 * `data: {"error": {…}}` chunk.
 */
export interface StreamErrorStep {
  streamError: { type: string; message?: string };
  text?: string;
  reasoning?: string;
  chunkSize?: number;
}

/** A step that can be written as JSON (a script file or `POST /__script`). */
export type StaticStep =
  TextStep | ToolCallsStep | ErrorStep | HangStep | DisconnectStep | EchoStep | StreamErrorStep;

/** What the server recorded of one request. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names (Node's `IncomingHttpHeaders`). */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; `undefined` when there was none or it was not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  /** `Date.now()` when the request arrived. */
  at: number;
  /** Set to `Date.now()` when the client closed the connection before the answer was complete. */
  clientClosedAt?: number;
  /** Set to `Date.now()` when the whole answer was written (e.g. the end of a stream). */
  finishedAt?: number;
}

/** A step computed from the request (in-process only; not expressible in JSON). */
export type FunctionStep = (req: RecordedRequest) => StaticStep | Promise<StaticStep>;

/** One entry of a script: consumed by one `POST /v1/chat/completions`. */
export type ScriptStep = StaticStep | FunctionStep;

/** The reply used when the script queue is empty (unless the server was given another). */
export const DEFAULT_EMPTY_STEP: TextStep = { text: 'OK' };

/** Resolves an echo step against the request into a text step. */
export function resolveEcho(step: EchoStep, req: RecordedRequest): TextStep {
  const messages: Array<{ role?: string; content?: unknown }> = Array.isArray(req.body?.messages)
    ? req.body.messages
    : [];
  const role = step.echo === 'last_tool_result' ? 'tool' : 'user';
  const found = [...messages].reverse().find((m) => m.role === role);
  const content = found === undefined ? `(no ${role} message)` : contentText(found.content);
  return { text: (step.prefix ?? '') + content };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }
  return JSON.stringify(content ?? null);
}

/** Splits `s` into pieces of `size` characters (at least one piece, possibly empty). */
export function chunkText(s: string, size = 8): string[] {
  if (s.length === 0) return [];
  const n = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** A rough, deterministic token count: one token per 4 characters, at least 1 for non-empty text. */
export function roughTokens(s: string): number {
  return s.length === 0 ? 0 : Math.max(1, Math.ceil(s.length / 4));
}

/** The usage a step reports: rough counts of the request and the answer, overridden by `step.usage`. */
export function usageFor(
  req: RecordedRequest,
  answerChars: string,
  override?: Partial<FakeUsage>,
): FakeUsage {
  const prompt = roughTokens(JSON.stringify(req.body?.messages ?? []));
  const completion = roughTokens(answerChars);
  const u: FakeUsage = {
    prompt_tokens: override?.prompt_tokens ?? prompt,
    completion_tokens: override?.completion_tokens ?? completion,
    total_tokens: 0,
  };
  u.total_tokens = override?.total_tokens ?? u.prompt_tokens + u.completion_tokens;
  if (override?.prompt_tokens_details) u.prompt_tokens_details = override.prompt_tokens_details;
  return u;
}

/** A tool call with its id and JSON arguments text settled. */
export interface SettledToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Settles ids (`call_<n>` from `nextId`) and argument text of the step's tool calls. */
export function settleToolCalls(calls: FakeToolCall[], nextId: () => string): SettledToolCall[] {
  return calls.map((c) => ({
    id: c.id ?? nextId(),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
}

/** Identity fields of every chunk / completion of one answer. */
export interface AnswerMeta {
  id: string;
  model: string;
  created: number;
}

type Delta = Record<string, unknown>;

/** One `chat.completion.chunk` object with a single choice. */
export function chunk(meta: AnswerMeta, delta: Delta, finishReason: string | null = null): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The usage-only chunk sent last when `stream_options.include_usage` is set. */
export function usageChunk(meta: AnswerMeta, usage: FakeUsage): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [],
    usage,
  };
}

/** The first chunk of every stream: `role: "assistant"` with empty content. */
export function roleChunk(meta: AnswerMeta): object {
  return chunk(meta, { role: 'assistant', content: '' });
}

/** The content deltas of `text` (no role, no finish reason). */
export function textChunks(meta: AnswerMeta, text: string, size?: number): object[] {
  return chunkText(text, size).map((piece) => chunk(meta, { content: piece }));
}

/** The reasoning deltas of `reasoning` in the given field. */
export function reasoningChunks(
  meta: AnswerMeta,
  reasoning: string,
  field: 'reasoning' | 'reasoning_content' = 'reasoning',
  size?: number,
): object[] {
  return chunkText(reasoning, size).map((piece) => chunk(meta, { [field]: piece }));
}

/**
 * The tool-call deltas: per call, a first delta with `index`, `id`, `type` and `function.name`
 * (empty arguments), then argument pieces with only `index` and `function.arguments`.
 */
export function toolCallChunks(meta: AnswerMeta, calls: SettledToolCall[], size?: number): object[] {
  const out: object[] = [];
  calls.forEach((c, index) => {
    out.push(
      chunk(meta, {
        tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
      }),
    );
    for (const piece of chunkText(c.arguments, size)) {
      out.push(chunk(meta, { tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  return out;
}

/** A complete non-streaming `chat.completion` object. */
export function completionObject(
  meta: AnswerMeta,
  answer: { text: string | null; reasoning?: string; toolCalls: SettledToolCall[]; finishReason: string },
  usage: FakeUsage,
): object {
  const message: Record<string, unknown> = { role: 'assistant', content: answer.text, refusal: null };
  if (answer.reasoning) message.reasoning = answer.reasoning;
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage,
  };
}

/** Default OpenAI-shaped error body for a status. */
export function errorBody(status: number, message?: string): object {
  const defaults: Record<number, [string, string]> = {
    400: ['Invalid request', 'invalid_request_error'],
    401: ['Incorrect API key provided', 'invalid_request_error'],
    403: ['Forbidden', 'permission_error'],
    404: ['Not found', 'invalid_request_error'],
    413: ["This model's maximum context length was exceeded", 'invalid_request_error'],
    429: ['Rate limit reached, please retry after a while', 'rate_limit_error'],
  };
  const [msg, type] =
    defaults[status] ?? (status >= 500 ? ['The server had an error', 'server_error'] : ['Error', 'error']);
  return { error: { message: message ?? msg, type, code: status } };
}

/** Encodes one SSE event (`data: <json>\n\n`). */
export function sse(data: object | '[DONE]'): string {
  return `data: ${data === '[DONE]' ? data : JSON.stringify(data)}\n\n`;
}
