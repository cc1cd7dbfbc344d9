/**
 * Throttled edit-streaming: the reply grows in one platform message that is
 * edited at most every `intervalMs` while the model streams, instead of one message per delta.
 * Editing (not appending) is what Telegram, Discord and Slack have in common.
 *
 * While streaming, text beyond the platform's length limit is not shown; `finish` sends the
 * complete reply — the first chunk by a final edit, the rest as new messages. A failed edit
 * (flood control, message deleted) stops streaming and falls back to sending at the end.
 * Text that could still become a silence marker (`NO_REP`, `[SIL`) is not shown until it
 * diverges from every marker.
 */
import type { PlatformAdapter, SendOptions } from './adapter.js';
import { mayBecomeSilence } from './silence.js';
import { splitMessage } from './split.js';

/** Shown at the end of a message that is still being written. */
export const STREAMING_CURSOR = ' …';

/** Options of the streamer. */
export interface EditStreamOptions {
  adapter: PlatformAdapter;
  chatId: string;
  send?: SendOptions;
  /** Least time between two edits, ms. */
  intervalMs: number;
  /** Clock (tests). */
  now?: () => number;
}

/** One streaming reply. Not reusable. */
export class EditStreamer {
  private text = '';
  private messageId: string | undefined;
  private shown = '';
  private lastEdit = 0;
  private failed = false;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private finished = false;
  private readonly now: () => number;

  constructor(private readonly opts: EditStreamOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** True once the reply has a platform message (streaming started). */
  get started(): boolean {
    return this.messageId !== undefined;
  }

  /** Appends streamed text; an edit is scheduled within the interval. */
  push(delta: string): void {
    if (this.finished || !delta) return;
    this.text += delta;
    this.schedule();
  }

  /** The model restarted its answer (retry): forget what streamed so far. */
  restart(): void {
    this.text = '';
  }

  private schedule(): void {
    if (this.failed || this.timer) return;
    const wait = Math.max(0, this.lastEdit + this.opts.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.chain = this.chain.then(() => this.flush());
    }, wait);
    this.timer.unref?.();
  }

  private preview(): string {
    const max = this.opts.adapter.maxMessageLength;
    const limit = max > 0 ? max - STREAMING_CURSOR.length : Infinity;
    const body = this.text.length > limit ? this.text.slice(0, limit) : this.text;
    return `${body.replace(/\s+$/, '')}${STREAMING_CURSOR}`;
  }

  private async flush(): Promise<void> {
    if (this.finished || this.failed || !this.text.trim()) return;
    // held back while the reply could still be a silence marker (`NO_REP…`): never shown, then withdrawn
    if (mayBecomeSilence(this.text)) return;
    const next = this.preview();
    if (next === this.shown) return;
    this.lastEdit = this.now();
    const { adapter, chatId, send } = this.opts;
    try {
      const r = this.messageId
        ? await adapter.editMessage(chatId, this.messageId, next, send)
        : await adapter.send(chatId, next, send);
      if (!r.ok) throw new Error(r.error ?? 'failed');
      this.messageId ??= r.messageId;
      if (!this.messageId) this.failed = true; // no id to edit: stream no further
      this.shown = next;
    } catch {
      this.failed = true;
    }
  }

  /** Stops streaming (no edit is scheduled or made after it resolves); `finish` may follow. */
  async stop(): Promise<void> {
    this.finished = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
  }

  /**
   * Ends the stream with the final text (already filtered and with its footer).
   * @param finalText `''` to withdraw: the streamed message is edited to `withdrawnText` when one
   *   exists (e.g. the reply turned out to be silence), nothing is sent otherwise.
   * @returns the platform ids of the messages that hold the reply.
   */
  async finish(finalText: string, withdrawnText = '…'): Promise<string[]> {
    this.finished = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
    const { adapter, chatId, send } = this.opts;
    const chunks = splitMessage(finalText, adapter.maxMessageLength);
    const ids: string[] = [];
    let rest = chunks;
    if (this.messageId) {
      if (chunks.length === 0) {
        await adapter.editMessage(chatId, this.messageId, withdrawnText, send).catch(() => undefined);
        return [];
      }
      const r = await adapter.editMessage(chatId, this.messageId, chunks[0]!, send).catch((e: Error) => ({
        ok: false,
        error: e.message,
      }));
      if (r.ok) {
        ids.push(this.messageId);
        rest = chunks.slice(1);
      }
    }
    for (const chunk of rest) {
      const r = await adapter.send(chatId, chunk, send);
      if (r.messageId) ids.push(r.messageId);
    }
    return ids;
  }
}
