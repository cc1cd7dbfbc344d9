/**
 * The IMAP side of the adapter (imapflow): one connection with the watched mailbox selected, new
 * mail seen at once through IDLE (imapflow's auto-IDLE; on a server without IDLE it polls with
 * STATUS instead) and, as a safety net, by a check every `pollIntervalMs`.
 *
 * Mail is fetched by UID above the last one handed on (state-store.ts): each is given to
 * `onMail` in UID order; the position advances (and is saved) only past a mail that was taken, so
 * a mail the pipeline could not take now is fetched again at the next check, and a restart
 * neither answers one twice nor skips one. A new UIDVALIDITY (the mailbox was recreated) or a
 * first start begins at the mail arriving from then on. Taken mail is flagged `\Seen`.
 * A lost connection is reported once through `onLost` (the host reconnects with backoff).
 */
import { ImapFlow, type FetchMessageObject } from 'imapflow';
import type { EmailSettings } from './settings.js';
import type { EmailState } from './state-store.js';

/** What becomes of one fetched mail. `retry`: not taken now; fetch it again later. */
export type MailDecision = 'taken' | 'retry';

/** Callbacks of the inbox. */
export interface InboxHandlers {
  /**
   * One new mail (raw bytes), in UID order. `size` is the whole mail's size in bytes; above
   * `maxMailBytes` only its first `maxMailBytes` bytes are fetched (`source` is cut).
   */
  onMail(uid: number, source: Buffer, size: number): Promise<MailDecision>;
  /** The established connection was lost (reported once). */
  onLost(error: Error): void;
  log(line: string): void;
}

/** Mails fetched per check (the rest follow at once in the next round). */
const BATCH = 25;

/** The watched mailbox. */
export class ImapInbox {
  private client: ImapFlow | undefined;
  private timer: NodeJS.Timeout | undefined;
  private cycle: Promise<void> | undefined;
  private again = false;
  private closing = false;

  constructor(
    private readonly settings: EmailSettings,
    private readonly state: EmailState,
    private readonly handlers: InboxHandlers,
  ) {}

  /** True when the server announced IDLE (else imapflow polls). */
  idle = false;

  /** Connects, logs in, selects the mailbox and starts watching. @throws on any failure. */
  async open(): Promise<void> {
    this.closing = false;
    const s = this.settings.imap;
    const client = new ImapFlow({
      host: s.host,
      port: s.port,
      secure: s.tls,
      auth: { user: s.user, pass: s.password },
      tls: { rejectUnauthorized: s.tlsVerify },
      logger: false,
      // IDLE begins right after each command instead of after 15 s of quiet
      autoIdleDelay: 100,
      // re-issue IDLE (or poll, without IDLE) at the configured interval
      maxIdleTime: this.settings.pollIntervalMs,
      missingIdleCommand: 'STATUS',
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
    });
    client.on('error', (err: Error) => this.handlers.log(`imap: ${err.message}`));
    client.on('exists', () => this.check());
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.stopTimer();
      if (!this.closing) this.handlers.onLost(new Error('IMAP connection lost'));
    });
    await client.connect();
    this.client = client;
    this.idle = client.capabilities.has('IDLE');
    const mailbox = await client.mailboxOpen(this.settings.mailbox);
    const validity = String(mailbox.uidValidity);
    if (this.state.uidValidity !== validity) {
      if (this.state.positioned)
        this.handlers.log(
          `imap: ${this.settings.mailbox} has a new UIDVALIDITY; taking mail arriving from now on`,
        );
      this.state.uidValidity = validity;
      this.state.lastUid = Math.max(0, mailbox.uidNext - 1);
      this.state.save();
    }
    this.timer = setInterval(() => this.check(), this.settings.pollIntervalMs);
    this.timer.unref?.();
    this.check(); // mail that arrived while disconnected
  }

  /** Stops watching and logs out (idempotent, never throws). */
  async close(): Promise<void> {
    this.closing = true;
    this.stopTimer();
    const c = this.client;
    this.client = undefined;
    await this.cycle?.catch(() => undefined);
    if (!c) return;
    await Promise.race([c.logout(), new Promise((r) => setTimeout(r, 2_000))]).catch(() => undefined);
    c.close();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs a check now, or once more after the running one. */
  check(): void {
    if (this.cycle) {
      this.again = true;
      return;
    }
    this.cycle = (async () => {
      do {
        this.again = false;
        try {
          if (await this.fetchNew()) this.again = true;
        } catch (err) {
          if (!this.closing && this.client)
            this.handlers.log(`imap: check failed: ${(err as Error).message}`);
          break;
        }
      } while (this.again && this.client && !this.closing);
    })().finally(() => {
      this.cycle = undefined;
    });
  }

  /**
   * Fetches and hands on the mail above the last UID.
   * @returns true when a full batch was taken (more may wait).
   */
  private async fetchNew(): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const from = this.state.lastUid + 1;
    let fetched: FetchMessageObject[];
    const lock = await client.getMailboxLock(this.settings.mailbox);
    try {
      // `n:*` also returns the newest mail when none is above n: filtered below
      const list = await client.fetchAll(`${from}:*`, { uid: true, size: true }, { uid: true });
      const uids = list
        .map((m) => m.uid)
        .filter((u) => u >= from)
        .sort((a, b) => a - b)
        .slice(0, BATCH);
      if (uids.length === 0) return false;
      // a mail above the cap is fetched only up to it (its text comes first; attachments are dropped)
      fetched = await client.fetchAll(
        uids,
        { uid: true, size: true, source: { maxLength: this.settings.maxMailBytes } },
        { uid: true },
      );
    } finally {
      lock.release();
    }
    fetched.sort((a, b) => a.uid - b.uid);
    const seen: number[] = [];
    let stopped = false;
    for (const m of fetched) {
      if (this.closing || !this.client) return false;
      const decision = m.source
        ? await this.handlers.onMail(m.uid, m.source, m.size ?? m.source.length)
        : 'taken';
      if (decision === 'retry') {
        stopped = true;
        break;
      }
      this.state.lastUid = Math.max(this.state.lastUid, m.uid);
      this.state.save();
      seen.push(m.uid);
    }
    if (seen.length && this.client) {
      const l = await this.client.getMailboxLock(this.settings.mailbox);
      try {
        await this.client.messageFlagsAdd(seen, ['\\Seen'], { uid: true });
      } finally {
        l.release();
      }
    }
    return !stopped && fetched.length === BATCH;
  }
}
