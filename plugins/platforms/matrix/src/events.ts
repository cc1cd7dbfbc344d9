/**
 * Reading Matrix room events (client-server API shapes) into what the adapter needs: the text of
 * a message without its reply fallback, its thread (`m.thread` relation), its attachment
 * (`m.image`, `m.file`, `m.audio` — a voice note when it carries `org.matrix.msc3245.voice` —,
 * `m.video`), whether it mentions the bot, and reactions (`m.annotation`). Pure functions.
 */
import { z } from 'zod';

/** A room event as /sync delivers it (the fields read here). */
export interface MatrixEvent {
  event_id: string;
  type: string;
  sender: string;
  origin_server_ts?: number;
  state_key?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- event content is open-ended JSON
  content: Record<string, any>;
}

/** An attachment of a message event. */
export interface MatrixAttachment {
  kind: 'image' | 'document' | 'audio' | 'voice' | 'video';
  /** `mxc://server/id` */
  mxc: string;
  name: string;
  mime?: string;
  /** Bytes, when the sender said. */
  size?: number;
}

/** A `MatrixAttachment` read back from the delivery ledger (`InboundMessage.attachmentsRef`). */
export const MatrixAttachmentRef = z.object({
  kind: z.enum(['image', 'document', 'audio', 'voice', 'video']),
  mxc: z.string().startsWith('mxc://'),
  name: z.string(),
  mime: z.string().optional(),
  size: z.number().optional(),
});

/** A message event, read. */
export interface ParsedMessage {
  /** The user's text (the caption of an attachment; '' when none). */
  text: string;
  /** Event id of the message this one replies to (`m.in_reply_to`, outside a thread's fallback). */
  replyTo?: string;
  /** Root event id of the thread the message is in. */
  threadId?: string;
  attachment?: MatrixAttachment;
  /** `m.notice` (bots' messages: never answered, so bots cannot loop). */
  notice: boolean;
}

const MEDIA_KINDS: Record<string, MatrixAttachment['kind']> = {
  'm.image': 'image',
  'm.file': 'document',
  'm.audio': 'audio',
  'm.video': 'video',
};

/** Removes the reply fallback (`> <@user> quoted` lines and the blank line after them). */
export function stripReplyFallback(body: string): string {
  const lines = body.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith('>')) i++;
  if (i === 0) return body;
  if (lines[i] === '') i++;
  return lines.slice(i).join('\n');
}

/**
 * Reads an `m.room.message` event.
 * @returns undefined for an edit (`m.replace`: the original was answered) or a message without a
 *   body or attachment.
 */
export function parseMessage(ev: MatrixEvent): ParsedMessage | undefined {
  const c = ev.content ?? {};
  const rel = c['m.relates_to'] as
    | {
        rel_type?: string;
        event_id?: string;
        is_falling_back?: boolean;
        'm.in_reply_to'?: { event_id?: unknown };
      }
    | undefined;
  if (rel?.rel_type === 'm.replace') return undefined;
  const msgtype = String(c.msgtype ?? '');
  const body = typeof c.body === 'string' ? c.body : '';
  const threadId =
    rel?.rel_type === 'm.thread' && typeof rel.event_id === 'string' ? rel.event_id : undefined;
  const kind = MEDIA_KINDS[msgtype];
  if (kind && typeof c.url === 'string' && c.url.startsWith('mxc://')) {
    const info = (c.info ?? {}) as { mimetype?: string; size?: number };
    const filename = typeof c.filename === 'string' && c.filename ? c.filename : undefined;
    const voice = kind === 'audio' && ('org.matrix.msc3245.voice' in c || 'org.matrix.msc1767.voice' in c);
    return {
      // with a separate `filename`, `body` is a caption (MSC2530); else it is the file's name
      text: filename && filename !== body ? body : '',
      ...(threadId ? { threadId } : {}),
      attachment: {
        kind: voice ? 'voice' : kind,
        mxc: c.url,
        name: filename ?? (body || `${kind}`),
        ...(info.mimetype ? { mime: info.mimetype } : {}),
        ...(typeof info.size === 'number' ? { size: info.size } : {}),
      },
      notice: false,
    };
  }
  if (!body.trim()) return undefined;
  const inReplyTo = rel?.['m.in_reply_to']?.event_id;
  // in a thread, `m.in_reply_to` is only the fallback for older clients unless is_falling_back is false
  const replyTo =
    typeof inReplyTo === 'string' && (!threadId || rel?.is_falling_back === false) ? inReplyTo : undefined;
  const text = replyTo && !threadId ? stripReplyFallback(body) : body;
  return {
    text,
    ...(replyTo ? { replyTo } : {}),
    ...(threadId ? { threadId } : {}),
    notice: msgtype === 'm.notice',
  };
}

/**
 * Whether a room message addresses the bot: listed in `m.mentions.user_ids`, or its user id,
 * display name or localpart written at the start (`hermes: …`, `@hermes …`) or its user id
 * anywhere.
 */
export function mentionsBot(ev: MatrixEvent, text: string, me: { userId: string; names: string[] }): boolean {
  const ids = (ev.content?.['m.mentions'] as { user_ids?: unknown } | undefined)?.user_ids;
  if (Array.isArray(ids) && ids.includes(me.userId)) return true;
  if (text.includes(me.userId)) return true;
  return me.names.some((n) => n && new RegExp(`^@?${escapeRe(n)}\\b`, 'i').test(text.trim()));
}

/** Removes a leading address of the bot (`hermes: `, `@hermes:server `, `Hermes, `). */
export function stripMention(text: string, me: { userId: string; names: string[] }): string {
  for (const n of [me.userId, ...me.names]) {
    if (!n) continue;
    const re = new RegExp(`^\\s*@?${escapeRe(n.replace(/^@/, ''))}\\b[\\s:,]*`, 'i');
    if (re.test(text)) return text.replace(re, '');
  }
  return text;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A reaction: the event it annotates and its key (emoji, variation selectors removed). */
export function parseReaction(ev: MatrixEvent): { target: string; key: string } | undefined {
  const rel = ev.content?.['m.relates_to'] as
    { rel_type?: string; event_id?: string; key?: string } | undefined;
  if (rel?.rel_type !== 'm.annotation' || typeof rel.event_id !== 'string' || typeof rel.key !== 'string')
    return undefined;
  return { target: rel.event_id, key: rel.key.replace(/\uFE0F/g, '') };
}
