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

/** A whole `chat.completion`. */
export function completion(
  meta: AnswerMeta,
  text: string,
  usage?: { prompt: number; completion: number },
): object {
  const u = usage ?? { prompt: 0, completion: 0 };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null },
    ],
    usage: {
      prompt_tokens: u.prompt,
      completion_tokens: u.completion,
      total_tokens: u.prompt + u.completion,
    },
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
}

/** The last chunk of a stream whose client asked `stream_options.include_usage`: no choices. */
export function usageChunk(meta: AnswerMeta, usage: AnswerUsage): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
    },
  };
}

/**
 * A named server-sent event (`event: NAME`), e.g. `hermes.tool.progress`. Clients that follow the
 * SSE spec dispatch it apart from the unnamed chunk events; the `openai` npm client still parses
 * its data as a chunk, so the data carries an empty `choices` array and adds no text.
 */
export function namedSse(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify({ choices: [], ...data })}\n\n`;
}
