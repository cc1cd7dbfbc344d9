/**
 * Turns the chunks of one streamed Chat Completions answer into a `ChatResult`, calling the
 * handlers as deltas arrive.
 *
 * - `delta.content` → text (`onText`); `delta.reasoning` or `delta.reasoning_content` →
 *   reasoning (`onReasoning`).
 * - `delta.tool_calls[]` are assembled by `index`: the first delta of an index brings `id` and
 *   `function.name`, later ones append `function.arguments`. A name piece that differs from the
 *   name so far is appended (providers that split names); one equal to it is ignored (providers
 *   that repeat it). A call without an id gets `call_<index>_<random>`.
 * - `usage` is taken from whichever chunk carries it (the final `choices: []` chunk with
 *   `stream_options.include_usage`); zeros when none does. `prompt_tokens_details.cached_tokens`
 *   becomes `cached_tokens`, OpenRouter's `prompt_tokens_details.cache_write_tokens`
 *   `cache_write_tokens`, `completion_tokens_details.reasoning_tokens` `reasoning_tokens` (the
 *   last two only when above 0).
 * - The finish reason is the last non-null `finish_reason`; when none came, `tool_calls` if there
 *   are tool calls, else `stop`.
 */
import { randomBytes } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Usage } from '../protocol/events.js';
import type { PartialOutput } from './errors.js';
import type { ChatResult, StreamHandlers, ToolCall } from './types.js';

/** Wraps an exception thrown by a caller's handler, so it is rethrown as is and never retried. */
export class HandlerError extends Error {
  constructor(readonly original: unknown) {
    super('stream handler threw', { cause: original });
  }
}

interface PendingCall {
  id: string;
  fallbackId: string;
  name: string;
  args: string;
}

/** Accumulates one attempt's stream. */
export class StreamAssembler {
  text = '';
  reasoning = '';
  finishReason = '';
  usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  /** True once any delta was handed to a handler. */
  emitted = false;
  private readonly calls = new Map<number, PendingCall>();

  constructor(private readonly handlers: StreamHandlers = {}) {}

  private emit(fn: ((delta: string) => void) | undefined, delta: string): void {
    this.emitted = true;
    if (!fn) return;
    try {
      fn(delta);
    } catch (err) {
      throw new HandlerError(err);
    }
  }

  /** Feeds one chunk. @throws HandlerError when a handler throws. */
  push(chunk: ChatCompletionChunk): void {
    if (chunk.usage) {
      const u = chunk.usage;
      this.usage = {
        prompt_tokens: u.prompt_tokens ?? 0,
        completion_tokens: u.completion_tokens ?? 0,
        total_tokens: u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0),
      };
      const cached = u.prompt_tokens_details?.cached_tokens;
      if (typeof cached === 'number') this.usage.cached_tokens = cached;
      // OpenRouter reports cache writes next to reads; OpenAI and others the reasoning share
      const written = (u.prompt_tokens_details as { cache_write_tokens?: unknown } | undefined)
        ?.cache_write_tokens;
      if (typeof written === 'number' && written > 0) this.usage.cache_write_tokens = written;
      const reasoning = u.completion_tokens_details?.reasoning_tokens;
      if (typeof reasoning === 'number' && reasoning > 0) this.usage.reasoning_tokens = reasoning;
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue;
      const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & {
        reasoning?: unknown;
        reasoning_content?: unknown;
      };
      const reasoning =
        typeof delta.reasoning === 'string'
          ? delta.reasoning
          : typeof delta.reasoning_content === 'string'
            ? delta.reasoning_content
            : '';
      if (reasoning) {
        this.reasoning += reasoning;
        this.emit(this.handlers.onReasoning?.bind(this.handlers), reasoning);
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        this.text += delta.content;
        this.emit(this.handlers.onText?.bind(this.handlers), delta.content);
      }
      for (const tc of delta.tool_calls ?? []) this.pushToolCall(tc);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  private pushToolCall(tc: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const index = typeof tc.index === 'number' ? tc.index : this.calls.size;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', fallbackId: `call_${index}_${randomBytes(4).toString('hex')}`, name: '', args: '' };
      this.calls.set(index, call);
    }
    if (tc.id && !call.id) call.id = tc.id;
    const name = tc.function?.name;
    if (name && name !== call.name) call.name += name;
    if (tc.function?.arguments) call.args += tc.function.arguments;
    this.emitted = true;
  }

  /** The tool calls assembled so far, ordered by index. */
  toolCalls(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => ({
        id: c.id || c.fallbackId,
        type: 'function' as const,
        function: { name: c.name, arguments: c.args },
      }));
  }

  /** What was streamed so far (for errors and interrupts). */
  partial(): PartialOutput {
    return { text: this.text, reasoning: this.reasoning, toolCalls: this.toolCalls() };
  }

  /** The complete result. */
  result(model: string, provider: string): ChatResult {
    const toolCalls = this.toolCalls();
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      finishReason: this.finishReason || (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      usage: this.usage,
      model,
      provider,
    };
  }
}
