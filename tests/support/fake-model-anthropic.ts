/**
 * The Anthropic Messages dialect of the fake model server (`POST /v1/messages`): the same script
 * steps as the OpenAI dialect (text, reasoning, tool calls, errors, hangs, echoes), answered with
 * the exact event stream Anthropic sends for `stream: true`:
 *
 * ```
 * event: message_start        data: {"type":"message_start","message":{id, type:"message", role:"assistant", model, content:[], stop_reason:null, usage:{input_tokens, output_tokens:1, cache_*}}}
 * event: ping                 data: {"type":"ping"}
 * per block (thinking → text → tool_use, indexes from 0):
 *   event: content_block_start  data: {"type":"content_block_start","index":i,"content_block":{…empty block…}}
 *   event: content_block_delta  data: {… "delta":{"type":"thinking_delta"|"signature_delta"|"text_delta"|"input_json_delta", …}}
 *   event: content_block_stop   data: {"type":"content_block_stop","index":i}
 * event: message_delta        data: {"type":"message_delta","delta":{"stop_reason","stop_sequence":null},"usage":{output_tokens, …}}
 * event: message_stop         data: {"type":"message_stop"}
 * ```
 *
 * `reasoning` becomes a thinking block whose signature is `signature` (default `sig-<n>`).
 * Error steps answer with HTTP status and Anthropic's error body
 * `{"type":"error","error":{"type","message"}}` (529 `overloaded_error`, 429 `rate_limit_error`
 * with `retry-after` …); a `streamError` step sends `event: error` after the message started.
 * Without `stream: true` the answer is one `message` JSON object.
 */
import type { ServerResponse } from 'node:http';
import {
  chunkText,
  roughTokens,
  settleToolCalls,
  type RecordedRequest,
  type StaticStep,
  type TextStep,
} from './fake-model-wire.js';

/** Anthropic's error type for an HTTP status. */
export function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** Anthropic's error body for a status. */
export function anthropicErrorBody(status: number, message?: string, type?: string): object {
  const t = type ?? anthropicErrorType(status);
  const defaults: Record<string, string> = {
    overloaded_error: 'Overloaded',
    rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
    authentication_error: 'invalid x-api-key',
    invalid_request_error: 'Invalid request',
  };
  return { type: 'error', error: { type: t, message: message ?? defaults[t] ?? 'Error' } };
}

/** One SSE event with its `event:` line. */
export function namedSse(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Resolves an echo step against an Anthropic request (tool results live in user messages). */
export function resolveAnthropicEcho(
  step: { echo: string; prefix?: string },
  req: RecordedRequest,
): TextStep {
  const messages: Array<{ role?: string; content?: unknown }> = Array.isArray(req.body?.messages)
    ? req.body.messages
    : [];
  const blocks = messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<Record<string, unknown>>).map((b) => ({ role: m.role, b }))
      : [{ role: m.role, b: { type: 'text', text: m.content } }],
  );
  const want = step.echo === 'last_tool_result' ? 'tool_result' : 'text';
  const found = [...blocks].reverse().find(({ role, b }) => role === 'user' && b.type === want);
  const text =
    found === undefined
      ? `(no ${step.echo === 'last_tool_result' ? 'tool' : 'user'} message)`
      : want === 'tool_result'
        ? typeof found.b.content === 'string'
          ? found.b.content
          : JSON.stringify(found.b.content ?? '')
        : String(found.b.text ?? '');
  return { text: (step.prefix ?? '') + text };
}

/** Usage numbers of an Anthropic answer. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** What the dialect needs from the server. */
export interface AnthropicAnswerContext {
  id: string;
  nextCallId: () => string;
  nextSignature: () => string;
  sleep: (ms: number) => Promise<void>;
}

function usageOf(
  rec: RecordedRequest,
  answer: string,
  over: Partial<AnthropicUsage> | undefined,
): AnthropicUsage {
  return {
    input_tokens: over?.input_tokens ?? roughTokens(JSON.stringify(rec.body?.messages ?? [])),
    output_tokens: over?.output_tokens ?? roughTokens(answer),
    cache_read_input_tokens: over?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: over?.cache_creation_input_tokens ?? 0,
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers one `POST /v1/messages` with `step` (already taken from the queue). */
export async function answerAnthropic(
  rec: RecordedRequest,
  res: ServerResponse,
  raw: StaticStep,
  ctx: AnthropicAnswerContext,
): Promise<void> {
  const step: StaticStep = 'echo' in raw ? resolveAnthropicEcho(raw, rec) : raw;
  const model = typeof rec.body?.model === 'string' ? rec.body.model : 'claude-fake';
  const closed = () => res.destroyed || res.writableEnded;

  if ('error' in step) {
    const { status, body, message, retryAfter } = step.error;
    const headers: Record<string, string> =
      retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {};
    sendJson(res, status, body ?? anthropicErrorBody(status, message), headers);
    return;
  }
  if ('hang' in step && step.text === undefined) return; // never answer, not even headers

  const calls =
    'toolCalls' in step
      ? settleToolCalls(step.toolCalls, ctx.nextCallId).map((c) => ({
          ...c,
          id: c.id.replace(/^call_/, 'toolu_'),
        }))
      : [];
  const text = step.text ?? '';
  const reasoning = 'reasoning' in step ? (step.reasoning ?? '') : '';
  const signature = reasoning ? ('signature' in step && step.signature) || ctx.nextSignature() : '';
  const size = step.chunkSize;
  const over = 'anthropicUsage' in step ? step.anthropicUsage : undefined;
  const usage = usageOf(rec, reasoning + text + calls.map((c) => c.arguments).join(''), over);
  const stopReason =
    ('stopReason' in step && step.stopReason) || (calls.length > 0 ? 'tool_use' : 'end_turn');

  if (rec.body?.stream !== true) {
    const content: object[] = [];
    if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature });
    if (text) content.push({ type: 'text', text });
    for (const c of calls)
      content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments || '{}') });
    sendJson(res, 200, {
      id: ctx.id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const delay = 'delayMs' in step ? (step.delayMs ?? 0) : 0;
  const write = async (event: string, data: object, pause = true): Promise<boolean> => {
    if (closed()) return false;
    if (pause && delay > 0) await ctx.sleep(delay);
    if (closed()) return false;
    res.write(namedSse(event, data));
    return true;
  };

  const start = {
    type: 'message_start',
    message: {
      id: ctx.id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  };
  await write('message_start', start, false);
  await write('ping', { type: 'ping' }, false);

  let index = 0;
  const textBlock = async (t: string): Promise<boolean> => {
    const i = index++;
    if (
      !(await write('content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'text', text: '' },
      }))
    )
      return false;
    for (const piece of chunkText(t, size)) {
      if (
        !(await write('content_block_delta', {
          type: 'content_block_delta',
          index: i,
          delta: { type: 'text_delta', text: piece },
        }))
      )
        return false;
    }
    return write('content_block_stop', { type: 'content_block_stop', index: i });
  };

  if ('hang' in step || 'disconnect' in step) {
    const i = index++;
    await write('content_block_start', {
      type: 'content_block_start',
      index: i,
      content_block: { type: 'text', text: '' },
    });
    for (const piece of chunkText(step.text ?? '', size)) {
      await write('content_block_delta', {
        type: 'content_block_delta',
        index: i,
        delta: { type: 'text_delta', text: piece },
      });
    }
    if ('disconnect' in step) setImmediate(() => res.socket?.destroy());
    return; // a hang keeps the response open until the client or close() ends it
  }

  if (reasoning) {
    const i = index++;
    if (
      !(await write('content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }))
    )
      return;
    for (const piece of chunkText(reasoning, size)) {
      if (
        !(await write('content_block_delta', {
          type: 'content_block_delta',
          index: i,
          delta: { type: 'thinking_delta', thinking: piece },
        }))
      )
        return;
    }
    if (
      !(await write('content_block_delta', {
        type: 'content_block_delta',
        index: i,
        delta: { type: 'signature_delta', signature },
      }))
    )
      return;
    if (!(await write('content_block_stop', { type: 'content_block_stop', index: i }))) return;
  }
  if (text && !(await textBlock(text))) return;
  if ('streamError' in step) {
    const { type, message } = step.streamError;
    await write('error', { type: 'error', error: { type, message: message ?? 'Overloaded' } }, false);
    if (!closed()) res.end();
    return;
  }
  for (const c of calls) {
    const i = index++;
    if (
      !(await write('content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
      }))
    )
      return;
    for (const piece of chunkText(c.arguments, size)) {
      if (
        !(await write('content_block_delta', {
          type: 'content_block_delta',
          index: i,
          delta: { type: 'input_json_delta', partial_json: piece },
        }))
      )
        return;
    }
    if (!(await write('content_block_stop', { type: 'content_block_stop', index: i }))) return;
  }
  await write(
    'message_delta',
    { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage },
    false,
  );
  await write('message_stop', { type: 'message_stop' }, false);
  if (!closed()) res.end();
}
