/**
 * One streamed Anthropic Messages call (`POST {baseURL}/v1/messages`, `stream: true`) through
 * `@anthropic-ai/sdk`. The client's retry, key-pool and fallback loop (client.ts) calls it once per
 * attempt and classifies what it throws with `classifyAnthropicError`.
 *
 * - Auth: the key goes in `x-api-key` (Anthropic's API-key header); the SDK's own `Authorization`
 *   header is removed, and the SDK never looks for credentials elsewhere (env, config files).
 * - The SDK's retries are off (`maxRetries: 0`): the client's policy decides.
 * - An answer is complete only with its `message_stop` event; a stream that ends without one is
 *   a `network` error (retried), never a result.
 * - `timeoutMs` bounds the wait for the response headers and each gap between two events (an idle
 *   timeout; a long answer that keeps streaming is never cut). The caller's signal aborts at once.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ModelError } from '../errors.js';
import { idleWatchdog } from '../idle-watchdog.js';
import type { PooledKey } from '../credential-pool.js';
import type { ProviderTarget } from '../providers.js';
import { anthropicThinkingBudget, type ReasoningEffort } from '../reasoning.js';
import type { ChatRequest, ChatResult } from '../types.js';
import { buildRequest } from './request.js';
import { wellFormedDeep } from '../../util/well-formed.js';
import type { AnthropicStreamAssembler, AnthropicStreamEvent } from './stream.js';

/** Options of an Anthropic SDK client. */
export interface AnthropicSdkOptions {
  baseURL: string;
  key: PooledKey | undefined;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

/**
 * The API root for the SDK (which appends `/v1/messages`): a base URL given with a trailing `/v1`
 * (as OpenAI-style URLs are written) has it removed.
 */
export function anthropicRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A configured SDK client for one endpoint and key. */
export function createAnthropicSdk(o: AnthropicSdkOptions): Anthropic {
  const value = o.key?.value ?? 'no-key';
  return new Anthropic({
    apiKey: value,
    baseURL: anthropicRoot(o.baseURL),
    maxRetries: 0,
    timeout: o.timeoutMs,
    logLevel: 'off',
    openTelemetry: false,
    defaultHeaders: { 'x-api-key': o.key ? value : null, Authorization: null },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
}

/** What one attempt needs. */
export interface AnthropicAttempt {
  sdk: Anthropic;
  target: ProviderTarget;
  model: string;
  req: ChatRequest;
  asm: AnthropicStreamAssembler;
  effort: ReasoningEffort | undefined;
  /** Idle timeout, ms; `timeoutS` is the same in seconds for messages. */
  timeoutMs: number;
  timeoutS: number;
  /** Called with a message the user should see once (the client dedupes). */
  onNotice(message: string): void;
}

/** Runs one attempt. Throws whatever the SDK throws, or a ModelError (`timeout`). */
export async function runAnthropicAttempt(a: AnthropicAttempt): Promise<ChatResult> {
  const { target: t, req, asm } = a;
  const thinking = anthropicThinkingBudget(a.effort, t, a.model);
  if (thinking.notice) a.onNotice(thinking.notice);
  const { body } = buildRequest(req.messages, {
    model: a.model,
    tools: req.tools,
    thinkingBudget: thinking.budget,
  });

  const watch = idleWatchdog(req.signal, a.timeoutMs, () => new Anthropic.APIUserAbortError());
  try {
    if (req.signal?.aborted) throw new Anthropic.APIUserAbortError();
    // a lone surrogate anywhere (history, tool results, tool schemas) would fail the request
    const params = wellFormedDeep({
      ...body,
      stream: true,
    }) as unknown as Anthropic.MessageCreateParamsStreaming;
    const stream = await a.sdk.messages.create(params, { signal: watch.signal });
    watch.arm();
    for await (const event of stream) {
      watch.arm();
      asm.push(event as unknown as AnthropicStreamEvent);
    }
    // the SDK ends the iteration quietly when the request is aborted: find out why
    watch.check({ provider: t.provider, model: a.model, timeoutS: a.timeoutS });
    // a body that ends cleanly before `message_stop` (a proxy or load balancer closing the
    // response) was cut: half a tool call's arguments must not run as if complete
    if (!asm.stopped) {
      throw new ModelError(
        'network',
        `${t.provider} ended the answer before it was complete (model ${a.model})`,
        { provider: t.provider },
      );
    }
    return asm.result(a.model, t.provider);
  } finally {
    watch.dispose();
  }
}
