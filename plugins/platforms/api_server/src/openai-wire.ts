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

/** An error body in OpenAI's shape. */
export function errorBody(message: string, type: string, code: string | null = null): object {
  return { error: { message, type, param: null, code } };
}

/** Text of a message `content` (a string, or an array of parts with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p: { type?: unknown; text?: unknown }) => (typeof p?.text === 'string' ? p.text : ''))
      .join('');
  return '';
}
