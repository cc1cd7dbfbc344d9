/**
 * Turns the events of one streamed Anthropic Messages answer into a `ChatResult`, calling the
 * handlers as deltas arrive.
 *
 * - `message_start`: the model and the input side of the usage.
 * - `content_block_start` opens block `index`: `text`, `thinking`, `redacted_thinking` or
 *   `tool_use` (its `id` and `name`). `content_block_delta`: `text_delta` → text (`onText`),
 *   `thinking_delta` → reasoning (`onReasoning`), `signature_delta` → the thinking block's
 *   signature, `input_json_delta` → the tool call's arguments text. `content_block_stop` closes it.
 * - `message_delta`: `stop_reason` and the cumulative usage. `message_stop` ends the answer
 *   (`stopped`); a stream that ends without it was cut (the caller treats it as a network failure).
 * - Usage: `prompt_tokens` = input + cache read + cache creation tokens, `cached_tokens` = cache
 *   read, `cache_write_tokens` = cache creation, `completion_tokens` = output tokens,
 *   `reasoning_tokens` = `output_tokens_details.thinking_tokens` when reported.
 * - Finish reason: `end_turn`/`stop_sequence` → `stop`, `tool_use` → `tool_calls`,
 *   `max_tokens` → `length`, any other value as sent; none: `tool_calls` when there are tool
 *   calls, else `stop`.
 * - Thinking blocks are kept whole (text and signature) for the next request of the turn.
 */
import type { Usage } from '../../protocol/events.js';
import type { PartialOutput } from '../errors.js';
import { HandlerError } from '../stream-assembler.js';
import type { ChatResult, StreamHandlers, ThinkingBlock, ToolCall } from '../types.js';

/** The fields of a stream event this assembler reads (the SDK's `RawMessageStreamEvent`). */
export interface AnthropicStreamEvent {
  type: string;
  index?: number;
  message?: { model?: string; usage?: Record<string, unknown> };
  content_block?: {
    type: string;
    id?: string;
    name?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    data?: string;
  };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: Record<string, unknown>;
}

type Block =
  | { type: 'text' }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; args: string }
  | { type: 'other' };

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
};

/** Our finish reason for Anthropic's `stop_reason`. */
export function finishReasonOf(stopReason: string): string {
  return STOP_REASONS[stopReason] ?? stopReason;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Accumulates one attempt's stream. */
export class AnthropicStreamAssembler {
  text = '';
  reasoning = '';
  stopReason = '';
  model = '';
  /** True once `message_stop` arrived: the answer is complete. */
  stopped = false;
  /** True once any delta was handed to a handler (or a tool call started). */
  emitted = false;
  private readonly blocks = new Map<number, Block>();
  private readonly raw: Record<string, number | undefined> = {};

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

  private takeUsage(u: Record<string, unknown> | undefined): void {
    if (!u) return;
    for (const k of [
      'input_tokens',
      'output_tokens',
      'cache_read_input_tokens',
      'cache_creation_input_tokens',
    ]) {
      const v = num(u[k]);
      if (v !== undefined) this.raw[k] = v;
    }
    const details = u.output_tokens_details as Record<string, unknown> | null | undefined;
    const thinking = num(details?.thinking_tokens);
    if (thinking !== undefined) this.raw.thinking_tokens = thinking;
  }

  /** Feeds one event. @throws HandlerError when a handler throws. */
  push(ev: AnthropicStreamEvent): void {
    switch (ev.type) {
      case 'message_start':
        if (ev.message?.model) this.model = ev.message.model;
        this.takeUsage(ev.message?.usage);
        return;
      case 'content_block_start':
        return this.start(ev.index ?? this.blocks.size, ev.content_block);
      case 'content_block_delta':
        return this.delta(ev.index ?? this.blocks.size - 1, ev.delta ?? {});
      case 'message_delta':
        if (ev.delta?.stop_reason) this.stopReason = ev.delta.stop_reason;
        this.takeUsage(ev.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      default:
        return; // content_block_stop, ping: nothing to keep
    }
  }

  private start(index: number, cb: AnthropicStreamEvent['content_block']): void {
    switch (cb?.type) {
      case 'text':
        this.blocks.set(index, { type: 'text' });
        if (cb.text) this.addText(cb.text);
        return;
      case 'thinking':
        this.blocks.set(index, { type: 'thinking', thinking: '', signature: cb.signature ?? '' });
        if (cb.thinking) this.addThinking(index, cb.thinking);
        return;
      case 'redacted_thinking':
        this.blocks.set(index, { type: 'redacted_thinking', data: cb.data ?? '' });
        return;
      case 'tool_use':
        this.blocks.set(index, {
          type: 'tool_use',
          id: cb.id ?? `toolu_${index}`,
          name: cb.name ?? '',
          args: '',
        });
        this.emitted = true;
        return;
      default:
        this.blocks.set(index, { type: 'other' });
    }
  }

  private addText(t: string): void {
    this.text += t;
    this.emit(this.handlers.onText?.bind(this.handlers), t);
  }

  private addThinking(index: number, t: string): void {
    const b = this.blocks.get(index);
    if (b?.type === 'thinking') b.thinking += t;
    this.reasoning += t;
    this.emit(this.handlers.onReasoning?.bind(this.handlers), t);
  }

  private delta(index: number, d: NonNullable<AnthropicStreamEvent['delta']>): void {
    const b = this.blocks.get(index);
    switch (d.type) {
      case 'text_delta':
        if (d.text) this.addText(d.text);
        return;
      case 'thinking_delta':
        if (d.thinking) this.addThinking(index, d.thinking);
        return;
      case 'signature_delta':
        if (b?.type === 'thinking' && d.signature) b.signature += d.signature;
        return;
      case 'input_json_delta':
        if (b?.type === 'tool_use' && d.partial_json) b.args += d.partial_json;
        return;
      default:
        return;
    }
  }

  /** The tool calls so far, in block order; arguments `{}` when the model sent none. */
  toolCalls(): ToolCall[] {
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, b]) =>
        b.type === 'tool_use'
          ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: b.args || '{}' } }]
          : [],
      );
  }

  /** The thinking blocks so far, in block order, as the API must get them back. */
  thinkingBlocks(): ThinkingBlock[] {
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, b]): ThinkingBlock[] =>
        b.type === 'thinking'
          ? [{ type: 'thinking', thinking: b.thinking, signature: b.signature }]
          : b.type === 'redacted_thinking'
            ? [{ type: 'redacted_thinking', data: b.data }]
            : [],
      );
  }

  /** The usage in our shape (see the header). */
  usage(): Usage {
    const read = this.raw.cache_read_input_tokens ?? 0;
    const write = this.raw.cache_creation_input_tokens ?? 0;
    const prompt = (this.raw.input_tokens ?? 0) + read + write;
    const completion = this.raw.output_tokens ?? 0;
    const u: Usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
    if (this.raw.cache_read_input_tokens !== undefined) u.cached_tokens = read;
    if (this.raw.cache_creation_input_tokens !== undefined) u.cache_write_tokens = write;
    if (this.raw.thinking_tokens !== undefined) u.reasoning_tokens = this.raw.thinking_tokens;
    return u;
  }

  /** What was streamed so far (for errors and interrupts). */
  partial(): PartialOutput {
    return { text: this.text, reasoning: this.reasoning, toolCalls: this.toolCalls() };
  }

  /** The complete result. @param model the model asked for (used when the stream named none). */
  result(model: string, provider: string): ChatResult {
    const toolCalls = this.toolCalls();
    const thinkingBlocks = this.thinkingBlocks();
    return {
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      ...(thinkingBlocks.length > 0 ? { thinkingBlocks } : {}),
      finishReason: this.stopReason
        ? finishReasonOf(this.stopReason)
        : toolCalls.length > 0
          ? 'tool_calls'
          : 'stop',
      usage: this.usage(),
      model: this.model || model,
      provider,
    };
  }
}
