/**
 * Desktop notifications of a TUI for the other sessions of the daemon: when a session this TUI
 * does not show starts waiting for an approval or a question, or (off by default) finishes a turn,
 * the terminal gets a bell and an OSC 9 and OSC 777 notification — wrapped for tmux passthrough
 * (`ESC P tmux; … ESC \`) when `$TMUX` is set. What rings is the profile's `notifications` config
 * (read at every (re)connect). The rows come from the daemon's status feed (`status.subscribe`).
 */
import type { DaemonClientLike } from '@hermes/client';
import type { LiveSessionStatus, WireEvent } from '@hermes/core/protocol';

/** `notifications` of the profile's config (core/src/config/schema.ts), with its defaults. */
export interface NotifySettings {
  approval: boolean;
  clarify: boolean;
  done: boolean;
  bell: boolean;
  osc: boolean;
}

/** The defaults of `notifications`. */
export const DEFAULT_NOTIFY: NotifySettings = {
  approval: true,
  clarify: true,
  done: false,
  bell: true,
  osc: true,
};

const ESC = '\u001b';
const BEL = '\u0007';

/** Control characters out of a notification's text (it is data: never a sequence of its own). */
const clean = (s: string): string =>
  [...s]
    .map((ch) => {
      const c = ch.charCodeAt(0);
      return c < 0x20 || (c >= 0x7f && c <= 0x9f) || ch === ';' ? ' ' : ch;
    })
    .join('')
    .slice(0, 200);

/**
 * The bytes for one notification: BEL (with `bell`), then OSC 9 (iTerm2, Windows Terminal, kitty…)
 * and OSC 777 (rxvt, foot, WezTerm…) with `osc`; each OSC wrapped for tmux when `$TMUX` is set.
 */
export function notificationBytes(
  title: string,
  body: string,
  s: NotifySettings,
  env: NodeJS.ProcessEnv,
): string {
  const wrap = (seq: string): string =>
    env.TMUX ? `${ESC}Ptmux;${seq.replaceAll(ESC, ESC + ESC)}${ESC}\\` : seq;
  let out = s.bell ? BEL : '';
  if (s.osc) {
    out += wrap(`${ESC}]9;${clean(`${title}: ${body}`)}${BEL}`);
    out += wrap(`${ESC}]777;notify;${clean(title)};${clean(body)}${BEL}`);
  }
  return out;
}

/**
 * What to notify for one row changing from `before` (undefined: new) to `after`; undefined for
 * nothing. `approval` / `clarify` when it starts waiting; `done` when a turn ended.
 */
export function notificationFor(
  before: LiveSessionStatus | undefined,
  after: LiveSessionStatus,
  s: NotifySettings,
): { title: string; body: string } | undefined {
  const name = after.title ?? after.session_id;
  const where = after.origin === 'tui' ? after.profile : `${after.source}, ${after.profile}`;
  if (after.state === 'approval' && before?.state !== 'approval' && s.approval)
    return { title: `Hermes: approval needed (${where})`, body: `${name}: ${after.command ?? ''}` };
  if (after.state === 'clarify' && before?.state !== 'clarify' && s.clarify)
    return { title: `Hermes: question (${where})`, body: `${name}: ${after.question ?? ''}` };
  const wasBusy = before && ['working', 'approval', 'clarify'].includes(before.state);
  if (wasBusy && (after.state === 'idle' || after.state === 'failed') && s.done)
    return { title: `Hermes: ${after.state === 'failed' ? 'failed' : 'done'} (${where})`, body: name };
  return undefined;
}

/** Options of `HubNotifier`. */
export interface HubNotifierOptions {
  client: Pick<DaemonClientLike, 'request'>;
  /** The session this TUI shows (never notified: its card is on screen). */
  current: () => string | null;
  write: (bytes: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Follows the status feed and rings for the other sessions. */
export class HubNotifier {
  private readonly rows = new Map<string, LiveSessionStatus>();
  private settings: NotifySettings = DEFAULT_NOTIFY;

  constructor(private readonly o: HubNotifierOptions) {}

  /** After every (re)connect: reads the settings and subscribes (the snapshot rings nothing). */
  async connected(): Promise<void> {
    try {
      const { value } = await this.o.client.request('config.get', { key: 'notifications' });
      if (value && typeof value === 'object')
        this.settings = { ...DEFAULT_NOTIFY, ...(value as Partial<NotifySettings>) };
      const snap = await this.o.client.request('status.subscribe', {});
      this.rows.clear();
      for (const r of snap.sessions) this.rows.set(`${r.profile}/${r.session_id}`, r);
    } catch {
      // an older daemon without the feed: no notifications
    }
  }

  /** Takes every event of the client; only `status.changed` matters. */
  event(e: WireEvent): void {
    if (e.type !== 'status.changed') return;
    for (const k of e.payload.removed) this.rows.delete(k);
    for (const r of e.payload.sessions) {
      const k = `${r.profile}/${r.session_id}`;
      const before = this.rows.get(k);
      this.rows.set(k, r);
      if (r.session_id === this.o.current()) continue;
      const n = notificationFor(before, r, this.settings);
      if (n) this.o.write(notificationBytes(n.title, n.body, this.settings, this.o.env ?? process.env));
    }
  }
}
