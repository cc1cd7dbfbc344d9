/**
 * The "working" indicator on Slack: bots have no typing indicator in Socket Mode, so the message
 * that started a turn wears a reaction (default `:hourglass_flowing_sand:`) while the agent works.
 * It is added at the first typing call of the turn and taken off when the reply is there. The
 * pipeline repeats its typing call every 4 s while the turn runs; a reaction not renewed for
 * `staleMs` belongs to a turn that ended without a reply (silence, an error) and is taken off by a
 * sweep that runs only while some reaction is on.
 */

/** Adds or removes the reaction on a message; must not throw. */
export type React = (op: 'add' | 'remove', channel: string, ts: string) => Promise<void>;

/** A working reaction not renewed for this long is taken off, ms (the pipeline renews every 4 s). */
export const WORKING_STALE_MS = 10_000;

/** The working reactions of one adapter. */
export class WorkingReactions {
  /** By `<channel>:<ts>`, with the time of the last typing call (ms). */
  private readonly on = new Map<string, { channel: string; ts: string; at: number }>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly react: React,
    private readonly staleMs = WORKING_STALE_MS,
  ) {}

  /** A typing call for the turn of message `ts`: the reaction goes on, or is renewed. */
  async typing(channel: string, ts: string): Promise<void> {
    const key = `${channel}:${ts}`;
    const known = this.on.get(key);
    if (known) return void (known.at = Date.now());
    this.on.set(key, { channel, ts, at: Date.now() });
    if (!this.sweep) {
      this.sweep = setInterval(() => this.sweepStale(), Math.max(50, Math.round(this.staleMs / 2)));
      this.sweep.unref?.();
    }
    await this.react('add', channel, ts);
  }

  /** The reply to message `ts` is there: the reaction comes off (if it is on). */
  done(channel: string, ts: string | undefined): void {
    if (!ts || !this.on.delete(`${channel}:${ts}`)) return;
    void this.react('remove', channel, ts);
  }

  private sweepStale(): void {
    const now = Date.now();
    for (const w of [...this.on.values()]) if (now - w.at > this.staleMs) this.done(w.channel, w.ts);
    if (this.on.size === 0) this.stop();
  }

  /** Forgets every reaction (the connection is closing) and stops the sweep. */
  stop(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.on.clear();
  }
}
