/**
 * The email adapter: IMAP in (imap-inbox.ts), SMTP out (smtp.ts).
 *
 * Every mail is a direct message: the chat is the sender's address (lower case, also the user id
 * the allow-lists name), and the thread is the conversation's root Message-ID (thread.ts), so one
 * mail conversation is one session and a new subject without references starts another. The text
 * the model sees is the sender's own words (quoted history and signature removed, strip.ts);
 * images go to the model as image parts, other attachments as files. Automated mail (auto-replies,
 * bounces, lists, the bot's own mail) is never answered (loop-guard.ts), and with
 * `allowed_senders` set, mail from anyone else is ignored without an answer.
 *
 * Replies are one mail each — text plus HTML, `Re:` subject, `In-Reply-To`/`References` — sent
 * whole (email has no length limit) and only when the turn ends: mail cannot be edited, so there
 * is no edit-streaming. Approvals are mails naming `/approve` and `/deny`; an answer counts only
 * when it is a reply to that approval mail (its Message-ID, sent only to the owner, in the
 * answer's `In-Reply-To`/`References`) from the address it was sent to — a forged `From` alone
 * cannot approve.
 */
import {
  PlatformAdapter,
  approvalText,
  parseCommand,
  type ApprovalPrompt,
  type ChatInfo,
  type FetchedAttachments,
  type InboundMessage,
  type MessageSource,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { ImapInbox, type MailDecision, type NewMail } from './imap-inbox.js';
import { loginError } from './login-errors.js';
import { parseInboundMail, parseMailHead, type InboundMail, type MailHead } from './inbound.js';
import { automatedReason } from './loop-guard.js';
import { MailRef } from './mailref.js';
import { senderAllowed, type EmailSettings } from './settings.js';
import { SmtpSender, type OutgoingMail } from './smtp.js';
import { EmailState } from './state-store.js';
import { outgoingMessageId, replyReferences, replySubject, threadRoot, threadToken } from './thread.js';

/** Approval mails remembered per address (oldest forgotten first). */
const MAX_OPEN_APPROVALS = 50;

/**
 * True when the pipeline would take the text as `/approve …` or `/deny` — judged by its own
 * command parser (which trims white space, Unicode's included), so no spelling slips past the
 * approval-answer rule and still approves.
 */
function isApprovalCommand(text: string): boolean {
  const name = parseCommand(text)?.name;
  return name === 'approve' || name === 'deny';
}

/** Email adapter. */
export class EmailAdapter extends PlatformAdapter {
  readonly state: EmailState;
  private readonly smtp: SmtpSender;
  private inbox: ImapInbox | undefined;
  /** Message-IDs of approval mails sent, by recipient address. */
  private readonly approvals = new Map<string, string[]>();

  constructor(
    private readonly settings: EmailSettings,
    opts: { log?: (line: string) => void } = {},
  ) {
    super('email', { maxMessageLength: 0, ...(opts.log ? { log: opts.log } : {}) });
    this.state = new EmailState(settings.stateFile);
    this.smtp = new SmtpSender(settings.smtp, { address: settings.address, name: settings.name });
  }

  /** True once connected when the IMAP server has IDLE (else it is polled). */
  get idle(): boolean {
    return this.inbox?.idle ?? false;
  }

  async connect(): Promise<void> {
    try {
      await this.smtp.verify();
    } catch (err) {
      throw loginError(err as Error, 'smtp');
    }
    const inbox = new ImapInbox(this.settings, this.state, {
      onMail: (mail) => this.onMail(mail),
      onLost: (err) => {
        if (this.inbox !== inbox) return;
        this.log(err.message);
        this.emitFatal(err);
      },
      log: (line) => this.log(line),
    });
    this.inbox = inbox;
    try {
      await inbox.open();
    } catch (err) {
      throw loginError(err as Error, 'imap');
    }
    this.log(
      `connected as ${this.settings.address} (${this.settings.mailbox}, ${inbox.idle ? 'IDLE' : 'polling'})`,
    );
  }

  async disconnect(): Promise<void> {
    const inbox = this.inbox;
    this.inbox = undefined;
    await inbox?.close();
    this.smtp.close();
  }

  /**
   * Decides about one new mail from its headers, then hands it to the pipeline. The body is
   * fetched only for mail that passed the header checks (not automated, sender in
   * `allowed_senders`) and whose sender the pipeline admits now. A sender it refuses gets the
   * pipeline's answer (a pairing code, or nothing), and a copy of a mail taken before (the same
   * Message-ID) is dropped there as a duplicate: for both the body is fetched only if the pipeline
   * goes on after all (`fetchAttachments`). A forged From passes the header checks: they save
   * downloads, the pipeline's authorization decides.
   */
  private async onMail(m: NewMail): Promise<MailDecision> {
    const fallbackId = `<uid-${m.uid}.${this.state.uidValidity ?? '0'}@${this.domain}>`;
    let head: MailHead;
    try {
      head = await parseMailHead(m.head, fallbackId);
    } catch (err) {
      this.log(`mail ${m.uid} could not be parsed (${(err as Error).message}); skipped`);
      return 'taken';
    }
    const skip = (why: string): MailDecision => {
      this.log(`mail ${m.uid} not answered: ${why}`);
      return 'taken';
    };
    const automated = automatedReason(head.headers, head.from, [this.settings.address]);
    if (automated) return skip(automated);
    if (!senderAllowed(head.from, this.settings.allowedSenders)) return skip('sender not in allowed_senders');
    // a client that sends only In-Reply-To: the thread continues through the parent's references
    const parentId = head.references.length === 0 ? head.inReplyTo[0] : undefined;
    const parent = parentId ? this.state.mail(parentId) : undefined;
    const references = head.references.length
      ? head.references
      : parent && parentId
        ? replyReferences(parent.references, parentId)
        : head.inReplyTo;
    const source: MessageSource = {
      platform: 'email',
      chatType: 'dm',
      chatId: head.from,
      userId: head.from,
      ...(head.fromName ? { userName: head.fromName } : {}),
      threadId: threadToken(threadRoot(head.messageId, references, [])),
      messageId: head.messageId,
      ...(head.subject ? { chatTopic: head.subject } : {}),
    };
    const remember = (): void => this.state.remember(head.messageId, { subject: head.subject, references });
    // what a restart that cut the handover needs to read the mail again (mailref.ts)
    const ref = (withText: boolean): MailRef => ({
      uid: m.uid,
      validity: this.state.uidValidity ?? '0',
      size: m.size,
      withText,
      fallbackId,
    });
    let message: Omit<InboundMessage, 'onReceipt'>;
    // a copy of a mail the pipeline took before goes the lazy way too: dropped there as a
    // duplicate by its Message-ID, its body never fetched again
    if (this.senderAdmitted(source) && !this.state.mail(head.messageId)?.taken) {
      // a failed fetch throws: the check fails and the mail is fetched again at the next one
      const mail = await this.readMail(m, fallbackId);
      if (!mail) return 'taken';
      const text = this.textOf(mail);
      if (isApprovalCommand(text) && !this.answersApproval(mail))
        return skip('an approval answer that is not a reply to an approval mail sent to its sender');
      remember();
      message = {
        source,
        text,
        dedupeKey: head.messageId,
        // handed over only when the pipeline asks, after it authorized the sender: an unknown
        // sender's attachments are never saved or shown to the model
        ...(mail.images.length || mail.files.length
          ? {
              fetchAttachments: async () => ({ images: mail.images, files: mail.files }),
              attachmentsRef: ref(false),
            }
          : {}),
      };
    } else {
      message = {
        source,
        text: '',
        dedupeKey: head.messageId,
        attachmentsRef: ref(true),
        // runs only if the pipeline admits the sender after all and the mail is no duplicate
        fetchAttachments: async () => {
          const mail = await this.readMail(m, fallbackId);
          const text = mail ? this.textOf(mail) : '';
          if (!mail || (isApprovalCommand(text) && !this.answersApproval(mail))) return {};
          remember();
          return { images: mail.images, files: mail.files, notes: [text] };
        },
      };
    }
    const receipt = await this.emitMessageWithReceipt(message, head.messageId);
    if (receipt.kind === 'accepted' || receipt.kind === 'duplicate') this.state.markTaken(head.messageId);
    return receipt.kind === 'unavailable' ? 'retry' : 'taken';
  }

  /**
   * Reads a mail again from its reference after a restart cut its handover to the pipeline:
   * its attachments, and its text too when the pipeline never had it. Never throws: a mail no
   * longer there (moved, expunged, a new UIDVALIDITY) or a damaged reference is a note.
   */
  override async refetchAttachments(ref: unknown): Promise<FetchedAttachments> {
    const r = MailRef.safeParse(ref);
    if (!r.success) return { notes: ['(The mail could not be read again: its record is damaged.)'] };
    const { uid, validity, size, withText, fallbackId } = r.data;
    const inbox = this.inbox;
    let mail: InboundMail | undefined;
    try {
      if (!inbox || this.state.uidValidity !== validity) throw new Error('it is no longer in the mailbox');
      mail = await this.readMail(
        { uid, size, head: Buffer.alloc(0), source: () => inbox.fetchSource(uid) },
        fallbackId,
      );
    } catch (err) {
      return { notes: [`(The mail could not be read again: ${(err as Error).message}.)`] };
    }
    if (!mail) return { notes: ['(The mail could not be read again: it cannot be parsed.)'] };
    const text = this.textOf(mail);
    if (withText && isApprovalCommand(text) && !this.answersApproval(mail)) return {};
    return { images: mail.images, files: mail.files, ...(withText ? { notes: [text] } : {}) };
  }

  /**
   * Fetches and parses a mail's source; a mail cut at the cap keeps its text, not its attachments.
   * @returns undefined when it cannot be parsed (logged). @throws when the fetch fails.
   */
  private async readMail(m: NewMail, fallbackId: string): Promise<InboundMail | undefined> {
    const source = await m.source();
    let mail: InboundMail;
    try {
      mail = await parseInboundMail(source, fallbackId, this.settings.maxAttachmentBytes);
    } catch (err) {
      this.log(`mail ${m.uid} could not be parsed (${(err as Error).message}); skipped`);
      return undefined;
    }
    if (m.size > source.length) {
      mail.images = [];
      mail.files = [];
      mail.tooLarge = [`all of them (the mail is ${m.size} bytes, over the limit of ${source.length})`];
    }
    return mail;
  }

  /** The text handed on: the sender's words, else a note about what came. */
  private textOf(mail: InboundMail): string {
    let text = mail.text;
    if (!text) {
      const n = mail.images.length + mail.files.length;
      text = n ? `(${n} attachment${n === 1 ? '' : 's'} sent without text)` : mail.subject;
    }
    if (mail.tooLarge.length) text += `\n\n(Attachments too large to take: ${mail.tooLarge.join(', ')})`;
    return text;
  }

  /** True when the mail replies to an approval mail sent to its sender. */
  private answersApproval(mail: InboundMail): boolean {
    const sent = this.approvals.get(mail.from) ?? [];
    return [...mail.inReplyTo, ...mail.references].some((id) => sent.includes(id));
  }

  private get domain(): string {
    return this.settings.address.split('@')[1] ?? 'localhost';
  }

  /** The mail for `text` to `chatId`, threaded under `opts.replyTo` when known. */
  private compose(chatId: string, text: string, opts?: SendOptions): OutgoingMail {
    const parentId = opts?.replyTo;
    const parent = parentId ? this.state.mail(parentId) : undefined;
    const seed = opts?.deliveryId ? `${this.settings.address}|${opts.deliveryId}` : undefined;
    return {
      to: chatId,
      subject: parentId ? replySubject(parent?.subject, this.settings.subject) : this.settings.subject,
      text,
      messageId: outgoingMessageId(this.domain, seed),
      ...(parentId
        ? { inReplyTo: parentId, references: replyReferences(parent?.references ?? [], parentId) }
        : {}),
    };
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!text.trim()) return { ok: false, error: 'nothing to send', retryable: false };
    return this.deliver(this.compose(chatId, text, opts));
  }

  /** Sends a mail and remembers its thread facts (a reply to it that has only In-Reply-To). */
  private async deliver(mail: OutgoingMail): Promise<SendResult> {
    const r = await this.smtp.send(mail);
    if (r.ok) {
      this.state.remember(mail.messageId, { subject: mail.subject, references: mail.references ?? [] });
      try {
        this.state.save();
      } catch (err) {
        this.log(`cannot save the email state: ${(err as Error).message}`);
      }
    }
    return r;
  }

  /** Sends the file as an attachment of a mail in the thread. */
  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    const mail = this.compose(chatId, file.caption?.trim() || `Attached: ${file.name}`, opts);
    mail.attachments = [
      { filename: file.name, content: file.data, ...(file.mime ? { contentType: file.mime } : {}) },
    ];
    return this.deliver(mail);
  }

  /** Sends the approval question as text and remembers its Message-ID for the answer. */
  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    const body = `${approvalText(prompt)}\n\nAnswer by replying to this mail with one of these words as the first line.`;
    const mail = this.compose(chatId, body, opts);
    const r = await this.deliver(mail);
    if (r.ok) {
      const list = this.approvals.get(chatId) ?? [];
      list.push(mail.messageId);
      if (list.length > MAX_OPEN_APPROVALS) list.shift();
      this.approvals.set(chatId, list);
    }
    return r;
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return { name: chatId, type: 'dm' };
  }
}
