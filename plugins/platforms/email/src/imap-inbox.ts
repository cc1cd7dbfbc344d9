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
 *
 * Each check fetches only the size and the header fields of `HEAD_FIELDS`; a mail's source (its
 * body and attachments, up to `maxMailBytes`) is fetched only when the handler asks for it — after
 * the sender passed the header checks — so mail nobody answers costs no body download.
 * A lost connection is reported once through `onLost` (the host reconnects with backoff).
 */
import { ImapFlow, type FetchMessageObject } from 'imapflow';
import type { EmailSettings } from './settings.js';
import type { EmailState } from './state-store.js';

/** What becomes of one fetched mail. `retry`: not taken now; fetch it again later. */
export type MailDecision = 'taken' | 'retry';

/**
 * The header fields fetched for every new mail: the sender, the thread facts, and every header
 * the loop guard reads (loop-guard.ts).
 */
export const HEAD_FIELDS: readonly string[] = [
  'from',
  'subject',
  'message-id',
  'references',
  'in-reply-to',
  'auto-submitted',
  'x-autoreply',
  'x-autorespond',
  'x-auto-response-suppress',
  'x-ms-exchange-generated-message-source',
  'precedence',
  'list-id',
  'list-unsubscribe',
  'content-type',
  'return-path',
];

/** One new mail as first seen: its header fields and a way to fetch the rest. */
export interface NewMail {
  uid: number;
  /** The header fields of `HEAD_FIELDS` as the server gave them (raw lines). */
  head: Buffer;
  /** The whole mail's size, bytes. */
  size: number;
  /**
   * Fetches the mail's source (raw bytes); above `maxMailBytes` only its first `maxMailBytes`
   * bytes (the source is then cut). @throws when the connection is gone or the fetch fails.
   */
  source(): Promise<Buffer>;
}

/** Callbacks of the inbox. */
export interface InboxHandlers {
  /** One new mail, in UID order. */
  onMail(mail: NewMail): Promise<MailDecision>;
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
      fetched = await client.fetchAll(
        uids,
        { uid: true, size: true, headers: [...HEAD_FIELDS] },
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
      const decision = m.headers
        ? await this.handlers.onMail({
            uid: m.uid,
            head: m.headers,
            size: m.size ?? 0,
            source: () => this.fetchSource(m.uid),
          })
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

  /**
   * One mail's source, cut at `maxMailBytes` (its text comes first; attachments are dropped).
   * @throws when the connection is gone or the mail is no longer in the mailbox.
   */
  async fetchSource(uid: number): Promise<Buffer> {
    const client = this.client;
    if (!client || this.closing) throw new Error('IMAP connection lost');
    const lock = await client.getMailboxLock(this.settings.mailbox);
    try {
      const m = await client.fetchOne(
        String(uid),
        { uid: true, source: { maxLength: this.settings.maxMailBytes } },
        { uid: true },
      );
      if (!m || !m.source) throw new Error(`mail ${uid} is gone from ${this.settings.mailbox}`);
      return m.source;
    } finally {
      lock.release();
    }
  }
}
