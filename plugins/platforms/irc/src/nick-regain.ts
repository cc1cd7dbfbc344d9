/**
 * Taking the configured nick back after registering under a fallback (`hermes_` when `hermes`
 * was in use). Two ways, whichever comes first:
 *
 * - the holder leaves: a QUIT from the configured nick, or a NICK change away from it, is
 *   answered at once with `NICK <configured>`;
 * - every `intervalMs` an `ISON <configured>` asks whether it is still taken; an empty answer
 *   (RPL_ISON 303 without it) is followed by `NICK <configured>` (servers that hide the QUIT of
 *   a user in no shared channel are covered this way).
 *
 * A refused NICK (433) after registration changes nothing: the next check tries again. The
 * keeper stops trying once the client's nick is the configured one, and resumes when it differs
 * again. It only decides which lines to send; the client owns the socket.
 */
import { ircLower, nickOf, type IrcMessage } from './protocol.js';

/** Default gap between ISON checks, ms. */
export const NICK_REGAIN_INTERVAL_MS = 60_000;

/** Timers the keeper uses (injectable for tests). */
export interface NickTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: NickTimers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Options of the keeper. */
export interface NickKeeperOptions {
  /** The configured nick. */
  wanted: string;
  /** The nick the client has now. */
  current: () => string;
  /** Writes one raw line to the server. */
  send: (line: string) => void;
  /** Gap between ISON checks, ms (default 60,000). */
  intervalMs?: number;
  timers?: NickTimers;
  log?: (line: string) => void;
}

/** Regains the configured nick (see the module doc). */
export class NickKeeper {
  private timer: unknown;
  private running = false;

  constructor(private readonly opts: NickKeeperOptions) {}

  /** True while the client's nick differs from the configured one. */
  get needed(): boolean {
    return ircLower(this.opts.current()) !== ircLower(this.opts.wanted);
  }

  /** Starts watching (after registration). */
  start(): void {
    this.running = true;
    this.schedule();
  }

  /** Stops every timer (the connection closed). */
  stop(): void {
    this.running = false;
    (this.opts.timers ?? realTimers).clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Looks at every message the client received. */
  onMessage(m: IrcMessage): void {
    if (!this.running || !this.needed) return;
    const wanted = ircLower(this.opts.wanted);
    const from = ircLower(nickOf(m.prefix));
    if ((m.command === 'QUIT' || m.command === 'NICK') && from === wanted) {
      this.opts.log?.(`nick ${this.opts.wanted} was freed; taking it back`);
      this.claim();
    } else if (m.command === '303') {
      // RPL_ISON: me :nick nick …  — the nicks asked about that are online
      const online = (m.params.at(-1) ?? '').split(' ').filter(Boolean).map(ircLower);
      if (!online.includes(wanted)) this.claim();
    }
  }

  private claim(): void {
    this.opts.send(`NICK ${this.opts.wanted}`);
  }

  private schedule(): void {
    const timers = this.opts.timers ?? realTimers;
    timers.clearTimeout(this.timer);
    this.timer = timers.setTimeout(() => {
      this.timer = undefined;
      if (!this.running) return;
      if (this.needed) this.opts.send(`ISON ${this.opts.wanted}`);
      this.schedule();
    }, this.opts.intervalMs ?? NICK_REGAIN_INTERVAL_MS);
  }
}
