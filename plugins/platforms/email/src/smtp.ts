/**
 * Outgoing mail over SMTP (nodemailer): text plus an HTML rendering (html.ts), the threading
 * headers of a reply, `Auto-Submitted: auto-replied`, and attachments. A failure is reported as
 * a `SendResult`: a 5xx answer of the server (a refused recipient, a rejected message) is final
 * (`retryable: false`); a 4xx answer, a refused login and a network error are retried by the
 * delivery ledger.
 */
import type { SendResult } from '@hermes/core';
import nodemailer, { type Transporter } from 'nodemailer';
import { markdownToHtml } from './html.js';
import { AUTO_SUBMITTED_HEADER } from './loop-guard.js';
import type { ServerSettings } from './settings.js';

/** One mail to send. */
export interface OutgoingMail {
  to: string;
  subject: string;
  /** Markdown text (sent as text and rendered as HTML). */
  text: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

/** The SMTP side of the adapter. */
export class SmtpSender {
  private transport: Transporter | undefined;

  constructor(
    private readonly server: ServerSettings,
    private readonly from: { address: string; name: string },
  ) {}

  private transporter(): Transporter {
    this.transport ??= nodemailer.createTransport({
      host: this.server.host,
      port: this.server.port,
      secure: this.server.tls,
      ...(this.server.password ? { auth: { user: this.server.user, pass: this.server.password } } : {}),
      tls: { rejectUnauthorized: this.server.tlsVerify },
      pool: true,
      maxConnections: 2,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    return this.transport;
  }

  /** Sends one mail. Never throws. */
  async send(mail: OutgoingMail): Promise<SendResult> {
    try {
      const info = (await this.transporter().sendMail({
        from: { name: this.from.name, address: this.from.address },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: markdownToHtml(mail.text),
        messageId: mail.messageId,
        ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
        ...(mail.references?.length ? { references: mail.references } : {}),
        headers: { ...AUTO_SUBMITTED_HEADER },
        ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
      })) as { messageId?: string };
      return { ok: true, messageId: info.messageId ?? mail.messageId };
    } catch (err) {
      const e = err as Error & { responseCode?: number; code?: string };
      const final = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.code !== 'EAUTH';
      return { ok: false, error: `smtp: ${e.message}`, ...(final ? { retryable: false } : {}) };
    }
  }

  /** Checks the connection and login (used at connect). @throws on failure. */
  async verify(): Promise<void> {
    await this.transporter().verify();
  }

  /** Closes pooled connections. */
  close(): void {
    this.transport?.close();
    this.transport = undefined;
  }
}
