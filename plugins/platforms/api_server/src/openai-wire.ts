/**
 * The OpenAI Chat Completions wire shapes the API server answers with (what the `openai` SDK
 * expects: every stream chunk has `choices[].index`, `delta` and `finish_reason`, null until the
 * last; the first delta carries `role: "assistant"`).
 */

/** Metadata shared by the chunks of one answer. */
export interface AnswerMeta {
  id: string;
  model: string;
  /** Epoch seconds. */
  created: number;
}

/** One `chat.completion.chunk`. */
export function chunk(
  meta: AnswerMeta,
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/**
 * The `finish_reason` of an answer from the model's last one: `length` (the output limit cut it
 * off) and `content_filter` are the client's to know; anything else ended normally (`stop`).
 */
export function finishReasonOf(model: string | undefined): 'stop' | 'length' | 'content_filter' {
  return model === 'length' || model === 'content_filter' ? model : 'stop';
}

/** A whole `chat.completion`. */
export function completion(
  meta: AnswerMeta,
  text: string,
  usage?: AnswerUsage,
  finishReason: string = 'stop',
): object {
  const u = usage ?? { prompt: 0, completion: 0 };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: usageObject(u),
  };
}

/** A server-sent event line pair. */
export function sse(data: object | '[DONE]'): string {
  return `data: ${data === '[DONE]' ? data : JSON.stringify(data)}\n\n`;
}

/** An error body in OpenAI's shape: `{error: {message, type, param, code}}`. */
export function errorBody(
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
): object {
  return { error: { message, type, param, code } };
}

/** Token counts of an answer (summed over the turn's model calls). */
export interface AnswerUsage {
  prompt: number;
  completion: number;
  /** Prompt tokens read from the provider's cache (part of `prompt`). */
  cached?: number;
  /** Micro-dollars of the priced calls (the daemon's `Usage.cost_usd`). */
  costMicros?: number;
  /** True once a call of the turn had no known price: no `cost` is reported then. */
  costUnknown?: boolean;
}

/**
 * Adds one model call's usage (a `message.complete` payload's `usage`) to an answer's. A call
 * without `cost_status` (an interrupted or failed reply) adds tokens only.
 */
export function addAnswerUsage(into: AnswerUsage, u: Record<string, unknown> | undefined): void {
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  into.prompt += n(u?.prompt_tokens);
  into.completion += n(u?.completion_tokens);
  if (n(u?.cached_tokens) > 0) into.cached = (into.cached ?? 0) + n(u?.cached_tokens);
  if (u?.cost_status === undefined) return;
  if (typeof u.cost_usd === 'number')
    into.costMicros = (into.costMicros ?? 0) + Math.round(u.cost_usd * 1_000_000);
  else into.costUnknown = true;
}

/**
 * OpenAI's `usage` object of an answer, with OpenRouter's additions where known:
 * `prompt_tokens_details.cached_tokens`, and `cost` in USD when every call of the turn had a
 * price (a local model's is 0); without a known price there is no `cost`.
 */
export function usageObject(u: AnswerUsage): Record<string, unknown> {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    ...(u.cached !== undefined ? { prompt_tokens_details: { cached_tokens: u.cached } } : {}),
    ...(u.costMicros !== undefined && !u.costUnknown ? { cost: u.costMicros / 1_000_000 } : {}),
  };
}

/** The last chunk of a stream whose client asked `stream_options.include_usage`: no choices. */
export function usageChunk(meta: AnswerMeta, usage: AnswerUsage): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: usageObject(usage),
  };
}

/**
 * A named server-sent event (`event: NAME`), e.g. `hermes.tool.progress`. Clients that follow the
 * SSE spec dispatch it apart from the unnamed chunk events; the `openai` SDKs (npm and Python)
 * still hand its data to the caller as a chunk, so the data carries one choice with an empty
 * delta: no text, and the usual `chunk.choices[0].delta.content` reads nothing instead of failing
 * on an empty `choices` (Python's IndexError).
 */
export function namedSse(event: string, data: object): string {
  const choices = [{ index: 0, delta: {}, finish_reason: null }];
  return `event: ${event}\ndata: ${JSON.stringify({ choices, ...data })}\n\n`;
}
