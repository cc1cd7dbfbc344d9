/**
 * The streaming checkpoint: the
 * assistant message being generated is inserted as `streaming` at its first delta, rewritten at
 * most every `STREAM_CHECKPOINT_MS` or as soon as `STREAM_CHECKPOINT_BYTES` of new text arrived
 * (whichever comes first), and finally given its complete form, so a killed process leaves the
 * partial reply in the database (crash recovery marks it `interrupted`). The size rule bounds the
 * loss of a fast stream, which can deliver many kilobytes inside one interval.
 */
import type { NewMessage } from '../state/types.js';

/** How often the partial reply is written while it streams, ms (a crash loses at most this much). */
export const STREAM_CHECKPOINT_MS = 250;
/** New streamed text (content + reasoning, UTF-8 bytes) that forces a write before the interval. */
export const STREAM_CHECKPOINT_BYTES = 2048;

/** Where the checkpoint writes: append returns the new message id. */
export interface CheckpointSink {
  append(msg: NewMessage): number;
  update(
    id: number,
    patch: Partial<
      Pick<NewMessage, 'content' | 'tool_calls' | 'finish_reason' | 'reasoning' | 'status' | 'outcome'>
    >,
  ): void;
}

/** One assistant message's checkpoint; create one per model call. */
export class StreamCheckpoint {
  private id: number | undefined;
  private last = 0;
  private text = '';
  private reasoning = '';
  /** UTF-8 bytes streamed since the last write. */
  private pending = 0;

  constructor(
    private readonly sink: CheckpointSink,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Adds streamed text/reasoning; writes on the first delta, then when `STREAM_CHECKPOINT_MS`
   * have passed or `STREAM_CHECKPOINT_BYTES` of new text arrived since the last write.
   */
  onDelta(text: string, reasoning: string): void {
    this.text += text;
    this.reasoning += reasoning;
    this.pending += Buffer.byteLength(text) + Buffer.byteLength(reasoning);
    const now = this.now();
    if (
      this.id !== undefined &&
      now - this.last < STREAM_CHECKPOINT_MS &&
      this.pending < STREAM_CHECKPOINT_BYTES
    )
      return;
    this.last = now;
    this.pending = 0;
    if (this.id === undefined) {
      this.id = this.sink.append({
        role: 'assistant',
        content: this.text,
        reasoning: this.reasoning || null,
        status: 'streaming',
      });
    } else {
      this.sink.update(this.id, { content: this.text, reasoning: this.reasoning || null });
    }
  }

  /** The provider call restarted from scratch: forget what streamed so far. */
  reset(): void {
    this.text = '';
    this.reasoning = '';
    this.last = 0;
    this.pending = 0;
  }

  /** Stores the message's final form (inserting it when nothing streamed). @returns its id. */
  finalize(msg: NewMessage): number {
    if (this.id === undefined) return this.sink.append(msg);
    this.sink.update(this.id, {
      content: msg.content,
      tool_calls: msg.tool_calls ?? null,
      reasoning: msg.reasoning ?? null,
      finish_reason: msg.finish_reason ?? null,
      status: msg.status ?? null,
      outcome: msg.outcome ?? null,
    });
    return this.id;
  }
}
