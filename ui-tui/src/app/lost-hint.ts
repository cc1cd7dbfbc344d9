/**
 * Without a daemon keeper (daemon-life.ts), the TUI still says how to bring a lost daemon back:
 * after 5 s of reconnecting, once, until the connection is back.
 */
import { commandName } from '../command-name.js';

/** Wait before the hint, ms. */
export const LOST_HINT_MS = 5_000;

/** Says once, after `LOST_HINT_MS` of reconnecting, how to start the daemon again. */
export class LostConnectionHint {
  private timer: NodeJS.Timeout | undefined;

  /** @param say shows the hint (a warning notice). */
  constructor(private readonly say: (text: string) => void) {}

  /** Told every connection state: `connected` resets, `reconnecting` arms the hint once. */
  connection(state: string): void {
    if (state === 'connected') {
      clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (state !== 'reconnecting' || this.timer) return;
    this.timer = setTimeout(() => {
      this.say(
        `Lost the connection to the daemon; still retrying. If it was stopped, start it again with: ${commandName()} gateway start`,
      );
    }, LOST_HINT_MS);
    this.timer.unref?.();
  }
}
