/**
 * One received mail, parsed (mailparser) into what the pipeline needs: the sender, the thread
 * facts and the headers the loop guard reads (`parseMailHead`, from the header section alone), the text without quoted history and signature (strip.ts), and the attachments — images
 * the model can see (png, jpeg, gif, webp) as `images`, everything else as `files` — each capped
 * in size (a larger one is only named in the text). Images embedded in an HTML body (a
 * signature's logo) are left out unless larger than `EMBEDDED_IMAGE_MIN_BYTES`.
 */
/* eslint-disable no-control-regex -- control characters are removed from attachment names */
import type { ImageAttachmentInput } from '@hermes/core/protocol';
import type { InboundFile } from '@hermes/core';
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';
import { headerView, type HeaderView } from './loop-guard.js';
import { stripQuotedText } from './strip.js';
import { messageIds } from './thread.js';

/** Image types given to the model as image parts. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/** Images embedded in an HTML body smaller than this are decoration (logos), bytes. */
export const EMBEDDED_IMAGE_MIN_BYTES = 20 * 1024;

/** What the headers of a mail tell, before its body is fetched. */
export interface MailHead {
  /** Message-ID (`<…>`), or the fallback given. */
  messageId: string;
  /** Sender address, lower case ('' when there is none). */
  from: string;
  /** Sender display name (untrusted). */
  fromName?: string;
  subject: string;
  /** Ids of `References`, root first. */
  references: string[];
  /** Ids of `In-Reply-To`. */
  inReplyTo: string[];
  headers: HeaderView;
}

/** A parsed inbound mail. */
export interface InboundMail extends MailHead {
  /** What the sender wrote (history and signature removed). */
  text: string;
  images: ImageAttachmentInput[];
  files: InboundFile[];
  /** Attachments left out for their size: `name (bytes)`. */
  tooLarge: string[];
}

function fileKind(mime: string): InboundFile['kind'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

/** A safe display name of an attachment (no path parts, no control characters). */
function attachmentName(a: Attachment, index: number): string {
  const base = (a.filename ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  if (base) return base.slice(0, 200);
  const ext =
    a.contentType
      .split('/')[1]
      ?.replace(/[^a-z0-9]/gi, '')
      .slice(0, 8) || 'bin';
  return `attachment-${index + 1}.${ext}`;
}

/** The head of a parsed mail (or of its header section alone). */
function headOf(mail: ParsedMail, fallbackId: string): MailHead {
  const sender = mail.from?.value[0];
  return {
    messageId: messageIds(mail.messageId)[0] ?? fallbackId,
    from: (sender?.address ?? '').toLowerCase(),
    ...(sender?.name ? { fromName: sender.name } : {}),
    subject: (mail.subject ?? '').replace(/\s+/g, ' ').trim(),
    references: messageIds(mail.references),
    inReplyTo: messageIds(mail.inReplyTo),
    headers: headerView(mail.headerLines),
  };
}

/**
 * Parses the header section of a mail (the lines IMAP's `BODY.PEEK[HEADER.FIELDS (…)]` gives).
 * @param fallbackId the Message-ID to use when the mail has none.
 */
export async function parseMailHead(header: Buffer, fallbackId: string): Promise<MailHead> {
  const section = Buffer.concat([header, Buffer.from('\r\n\r\n')]);
  return headOf(await simpleParser(section, { skipTextToHtml: true, skipTextLinks: true }), fallbackId);
}

/**
 * Parses a raw mail.
 * @param source the RFC 5322 bytes.
 * @param fallbackId the Message-ID to use when the mail has none.
 * @param maxAttachmentBytes attachments above it are named, not kept.
 */
export async function parseInboundMail(
  source: Buffer,
  fallbackId: string,
  maxAttachmentBytes: number,
): Promise<InboundMail> {
  const mail: ParsedMail = await simpleParser(source, { skipTextToHtml: true, skipTextLinks: true });
  const images: ImageAttachmentInput[] = [];
  const files: InboundFile[] = [];
  const tooLarge: string[] = [];
  mail.attachments.forEach((a, i) => {
    const mime = a.contentType.toLowerCase();
    const name = attachmentName(a, i);
    if (a.related && mime.startsWith('image/') && a.size < EMBEDDED_IMAGE_MIN_BYTES) return;
    if (a.size > maxAttachmentBytes) {
      tooLarge.push(`${name} (${a.size} bytes)`);
      return;
    }
    if (MODEL_IMAGE_TYPES.has(mime))
      images.push({ kind: 'image', data: a.content.toString('base64'), mime, name });
    else files.push({ name, mime, data: a.content, kind: fileKind(mime) });
  });
  const body = mail.text ?? '';
  return {
    ...headOf(mail, fallbackId),
    text: stripQuotedText(body),
    images,
    files,
    tooLarge,
  };
}
