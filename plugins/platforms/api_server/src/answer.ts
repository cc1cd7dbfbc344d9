/**
 * How a request's answer is written while its turn runs and when it ends: the turn's events
 * streamed as chat-completion chunks (text deltas, held back while they could still be a silence
 * marker, consecutive messages separated by a blank line; tool progress as named
 * `hermes.tool.progress` events) or handed to a Responses builder; the pipeline's texts collected
 * or streamed (a streamed reply is not repeated); and the final answer — a completion, the end of
 * a stream with its usage, a stored response — or an OpenAI-shaped error with a real status.
 */
import { isIntentionalSilence, mayBecomeSilence, type SendOptions, type TurnEvent } from '@hermes/core';
import { ApiError, sendError, sendJson } from './http.js';
import {
  addAnswerUsage,
  chunk,
  completion,
  finishReasonOf,
  namedSse,
  sse,
  usageChunk,
} from './openai-wire.js';
import type { Pending } from './pending.js';
import type { ResponseStore } from './response-store.js';

/**
 * The HTTP status of a failed turn: 429 for the model's rate limit, 400 for a request the turn
 * refused (an image that is not one, a model without vision), else 500.
 */
function statusOfKind(kind: string | undefined): number {
  return kind === 'rate_limit' ? 429 : kind === 'invalid_request' ? 400 : 500;
}

/**
 * Applies one event of the request's running turn: sums its usage, records its error (a `notice`
 * is not one), and streams what the client sees (see the file comment). The caller checked that
 * the request is not done.
 */
export function writeTurnEvent(p: Pending, event: TurnEvent): void {
  const e = event.payload;
  if (event.type === 'message.complete') {
    addAnswerUsage(p.usage, e.usage as Record<string, unknown> | undefined);
    p.finish = typeof e.finish_reason === 'string' ? e.finish_reason : undefined;
  } else if (event.type === 'error' && typeof e.message === 'string' && e.kind !== 'notice') {
    // kind `notice` (told once, e.g. reasoning effort unsupported) is not a failure of the answer
    p.error = { message: e.message, ...(typeof e.kind === 'string' ? { kind: e.kind } : {}) };
  }
  if (p.response) {
    // a JSON answer is checked first: its text is not streamed, the checked one is the message
    if (!(p.format && event.type === 'message.delta')) p.response.builder.onEvent(event);
    return;
  }
  if (!p.stream || p.res.destroyed) return;
  if (event.type === 'message.start') {
    if (p.held) {
      // text held back as a possible marker: a failed attempt's (the call restarts) or a
      // marker's is never sent; a finished message's is sent before the next one
      if (p.calling || isIntentionalSilence(p.streamed + p.held)) p.held = '';
      else sendHeld(p);
    }
    if (p.streamed) p.separate = true;
    p.calling = true;
  } else if (event.type === 'message.complete') {
    p.calling = false;
  } else if (event.type === 'message.delta' && typeof e.text === 'string' && e.text && !p.format) {
    p.held += e.text;
    // held back while the reply so far could still be a silence marker (never sent, then withdrawn)
    if (mayBecomeSilence(p.streamed + p.held)) return;
    sendHeld(p);
  } else if (event.type === 'tool.start' || event.type === 'tool.complete') {
    const running = event.type === 'tool.start';
    const toolId = String(e.tool_id ?? '');
    if (running) p.tools.set(toolId, String(e.name ?? ''));
    p.res.write(
      namedSse('hermes.tool.progress', {
        object: 'hermes.tool.progress',
        tool_call_id: toolId,
        tool: p.tools.get(toolId) ?? '',
        status: running ? 'running' : e.ok === false ? 'failed' : 'completed',
        label: String(e.summary ?? ''),
      }),
    );
  }
}

/** Streams the held text (after a blank line when it opens a new message). */
function sendHeld(p: Pending): void {
  const out = (p.separate ? '\n\n' : '') + p.held;
  p.separate = false;
  p.streamed += out;
  p.res.write(sse(chunk(p.meta, { content: out })));
  p.held = '';
}

/**
 * Adds a text the pipeline sent for the request: kept for the answer, and in a plain chat stream
 * also written — a reply already streamed only with what was not (a footer), other texts after a
 * blank line.
 */
export function writeText(p: Pending, text: string, opts?: SendOptions): void {
  if (!p.stream || p.response || p.format) {
    p.texts.push(text);
    return;
  }
  let out = text;
  if (opts?.kind === 'reply' && p.streamed) {
    // the reply was streamed already: send only what was not (a footer), else nothing
    out = p.streamed.trimEnd().endsWith(text.trimEnd())
      ? ''
      : text.startsWith(p.streamed.trimEnd())
        ? text.slice(p.streamed.trimEnd().length)
        : '';
  } else if (p.streamed || p.texts.length > 0) {
    out = `\n\n${text}`;
  }
  p.texts.push(text);
  if (out && !p.res.destroyed) p.res.write(sse(chunk(p.meta, { content: out })));
}

/**
 * Ends the request once: its answer, or `error` as an OpenAI error (in a stream already started,
 * an `{error}` data event). A stored Responses answer is put in `responses`. Nothing is written
 * to a client that went away.
 */
export function finishAnswer(
  p: Pending,
  error: Pending['error'] | undefined,
  responses: ResponseStore,
): void {
  if (p.done) return;
  p.done = true;
  if (p.res.destroyed) return;
  const failure = error
    ? new ApiError(
        error.status ?? statusOfKind(error.kind),
        error.message,
        null,
        error.kind ?? (error.status === 503 ? 'unavailable' : 'turn_failed'),
        // the turn ran (its tools too): a client's automatic retry would run it again
        false,
      )
    : undefined;
  if (p.response) {
    finishResponse(p, failure, responses);
    return;
  }
  if (p.stream) {
    // the status line is sent: an error travels as a data event the openai client raises
    if (failure) p.res.write(sse(failure.body()));
    else {
      if (p.format) p.res.write(sse(chunk(p.meta, { content: p.texts.join('\n\n') })));
      p.res.write(sse(chunk(p.meta, {}, finishReasonOf(p.finish))));
      if (p.includeUsage) p.res.write(sse(usageChunk(p.meta, p.usage)));
    }
    p.res.write(sse('[DONE]'));
    p.res.end();
  } else if (failure) {
    sendError(p.res, failure, p.extra);
  } else {
    sendJson(
      p.res,
      200,
      completion(p.meta, p.texts.join('\n\n'), p.usage, finishReasonOf(p.finish)),
      p.extra,
    );
  }
}

/**
 * Keeps what a streamed, stored response had when its client went away (status `incomplete`): the
 * client saw its id in `response.created`, so it can read it back or continue from it
 * (`previous_response_id`).
 */
export function keepInterruptedResponse(p: Pending, responses: ResponseStore): void {
  const r = p.response;
  if (!r?.store || !p.stream) return;
  responses.put({
    id: r.builder.id,
    chat_id: r.conversation,
    conversation: r.name,
    previous_id: r.previous,
    body: JSON.stringify(r.builder.interrupted(p.usage)),
    created_at: Date.now(),
  });
}

function finishResponse(p: Pending, failure: ApiError | undefined, responses: ResponseStore): void {
  const r = p.response!;
  if (failure) {
    r.builder.fail(failure, p.usage);
    if (p.stream) p.res.end();
    else sendError(p.res, failure, p.extra);
    return;
  }
  const body = r.builder.complete(p.texts.join('\n\n'), p.usage, p.finish === 'length');
  if (r.store)
    responses.put({
      id: r.builder.id,
      chat_id: r.conversation,
      conversation: r.name,
      previous_id: r.previous,
      body: JSON.stringify(body),
      created_at: Date.now(),
    });
  if (p.stream) p.res.end();
  else sendJson(p.res, 200, body, p.extra);
}
