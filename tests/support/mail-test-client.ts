/**
 * A person with a mailbox on the test mail servers (mail-servers.ts): sends mail through postfix
 * (SMTP with login, nodemailer) and reads what reached their mailbox in dovecot (IMAP, imapflow,
 * parsed with mailparser), waiting for a mail with a deadline.
 */
import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailServers, MailUser } from './mail-servers.js';

/** One received mail, with the headers the tests look at. */
export interface ReceivedMail {
  uid: number;
  messageId: string;
  inReplyTo: string;
  references: string[];
  subject: string;
  from: string;
  /** IMAP flags (`\\Seen` …). */
  flags: string[];
  text: string;
  html: string;
  /** Header values by lower-case name. */
  header(name: string): string | undefined;
  attachments: ParsedMail['attachments'];
}

/** Options of one sent mail. */
export interface SendMailOptions {
  to: string;
  subject?: string;
  text: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
  /** Envelope sender (`''` for a bounce's empty Return-Path). */
  envelopeFrom?: string;
  /** Header From when it differs from the login (a forged sender). */
  from?: string;
  /** Message-ID (default: a new one). */
  messageId?: string;
  /** Hand the mail to postfix without login, as another mail server would (works while dovecot is down). */
  asInbound?: boolean;
}

/** A test user of the mail servers. */
export class MailTestUser {
  private readonly transport: Transporter;
  private readonly inbound: Transporter;

  constructor(
    readonly servers: MailServers,
    readonly account: MailUser,
  ) {
    this.transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: servers.smtpPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: account.address, pass: account.password },
    });
    this.inbound = nodemailer.createTransport({
      host: '127.0.0.1',
      port: servers.mxPort,
      secure: false,
      ignoreTLS: true,
    });
  }

  get address(): string {
    return this.account.address;
  }

  /** Sends a mail. @returns its Message-ID. */
  async send(o: SendMailOptions): Promise<string> {
    const info = (await (o.asInbound ? this.inbound : this.transport).sendMail({
      from: o.from ?? this.address,
      to: o.to,
      subject: o.subject ?? 'hello',
      text: o.text,
      ...(o.messageId ? { messageId: o.messageId } : {}),
      ...(o.inReplyTo ? { inReplyTo: o.inReplyTo } : {}),
      ...(o.references ? { references: o.references } : {}),
      ...(o.headers ? { headers: o.headers } : {}),
      ...(o.attachments ? { attachments: o.attachments } : {}),
      ...(o.envelopeFrom !== undefined ? { envelope: { from: o.envelopeFrom, to: o.to } } : {}),
    })) as { messageId: string };
    return info.messageId;
  }

  /** Every mail in the user's INBOX, oldest first. */
  async inbox(): Promise<ReceivedMail[]> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: this.servers.imapPort,
      secure: false,
      auth: { user: this.address, pass: this.account.password },
      logger: false,
    });
    await client.connect();
    try {
      const lock = await client.getMailboxLock('INBOX');
      try {
        const box = client.mailbox;
        if (!box || box.exists === 0) return [];
        const list = await client.fetchAll('1:*', { uid: true, source: true, flags: true });
        const out: ReceivedMail[] = [];
        for (const m of list) {
          const p = await simpleParser(m.source!);
          const headers = new Map<string, string>();
          for (const h of p.headerLines)
            if (!headers.has(h.key)) headers.set(h.key, h.line.slice(h.line.indexOf(':') + 1).trim());
          out.push({
            uid: m.uid,
            messageId: p.messageId ?? '',
            inReplyTo: p.inReplyTo ?? '',
            references: Array.isArray(p.references) ? p.references : p.references ? [p.references] : [],
            subject: p.subject ?? '',
            from: p.from?.value[0]?.address ?? '',
            flags: [...(m.flags ?? [])],
            text: p.text ?? '',
            html: typeof p.html === 'string' ? p.html : '',
            header: (name) => headers.get(name.toLowerCase()),
            attachments: p.attachments,
          });
        }
        return out.sort((a, b) => a.uid - b.uid);
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  /**
   * Resolves with the mails once `probe` says enough arrived (checked every 150 ms).
   * @throws naming `what` and what did arrive at the deadline.
   */
  async waitFor(
    probe: (mails: ReceivedMail[]) => boolean,
    what: string,
    timeoutMs = 20_000,
  ): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = await this.inbox();
      if (probe(last)) return last;
      if (Date.now() > deadline)
        throw new Error(
          `${this.address}: no ${what} within ${timeoutMs} ms; got: ${JSON.stringify(last.map((m) => [m.subject, m.text.slice(0, 80)]))}`,
        );
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  close(): void {
    this.transport.close();
    this.inbound.close();
  }
}
