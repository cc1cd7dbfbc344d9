/**
 * Inbound Discord messages: whether one is for the bot (DMs always; guild channels and threads
 * when it mentions the bot or replies to it, if `require_mention`), where it came from (a
 * `MessageSource`: a DM, a guild channel as `group`, a thread as `thread` with its parent as the
 * chat), its text without the bot's mention, and its attachments — images the model can see
 * downloaded into `images`, everything else into `files`, each capped in size.
 */
import {
  formatUntrustedValue,
  type FetchedAttachments,
  type ImageAttachmentInput,
  type InboundFile,
  type MessageSource,
} from '@hermes/core';
import { z } from 'zod';

/** The parts of a discord.js channel used here. */
export interface ChannelLike {
  id: string;
  isDMBased(): boolean;
  isThread(): boolean;
  parentId?: string | null;
  name?: string | null;
  topic?: string | null;
}

/** The parts of a discord.js message used here. */
export interface MessageLike {
  id: string;
  content: string;
  author: { id: string; bot: boolean; username: string; globalName?: string | null };
  member?: { displayName?: string } | null;
  guildId: string | null;
  channel: ChannelLike;
  channelId: string;
  mentions: {
    users: { has(id: string): boolean };
    /** Mentioned roles; the bot's own managed role (`tags.botId`) counts as mentioning the bot. */
    roles?: { values(): Iterable<{ id: string; tags?: { botId?: string | null } | null }> };
    repliedUser?: { id: string } | null;
  };
  attachments: { values(): Iterable<AttachmentLike> };
  webhookId?: string | null;
  system?: boolean;
}

/** The parts of a discord.js attachment used here. */
export interface AttachmentLike {
  url: string;
  name: string;
  size: number;
  contentType: string | null;
}

/** Image types a model takes. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * True when the message is for the bot under the mention rule: a DM, or (with `requireMention`) a
 * mention of the bot or of its managed role, or a reply to one of its messages.
 */
export function isAddressed(msg: MessageLike, botId: string, requireMention: boolean): boolean {
  if (msg.channel.isDMBased() || !requireMention) return true;
  return (
    msg.mentions.users.has(botId) ||
    msg.mentions.repliedUser?.id === botId ||
    // Discord's picker often offers the bot's managed role instead of the bot itself
    botRoleIds(msg, botId).length > 0
  );
}

/** Ids of the bot's managed roles the message mentions. */
export function botRoleIds(msg: MessageLike, botId: string): string[] {
  return [...(msg.mentions.roles?.values() ?? [])].filter((r) => r.tags?.botId === botId).map((r) => r.id);
}

/** The text without the bot's own mention (`<@id>`, `<@!id>`, its roles `<@&id>`), trimmed. */
export function stripBotMention(text: string, botId: string, roleIds: readonly string[] = []): string {
  const ids = [`!?${botId}`, ...roleIds.map((r) => `&${r}`)].join('|');
  return text.replace(new RegExp(`<@(?:${ids})>[\\s:,]*`, 'g'), '').trim();
}

/** The channel a message counts as for allow-lists: a thread counts as its parent. */
export function channelOf(channel: ChannelLike): string {
  return channel.isThread() && channel.parentId ? channel.parentId : channel.id;
}

/**
 * Where a message (or a button press, an interaction) came from.
 * @param user the sender (id, names).
 */
export function sourceOf(
  channel: ChannelLike,
  user: { id: string; name?: string },
  messageId?: string,
): MessageSource {
  const base = {
    platform: 'discord',
    userId: user.id,
    ...(user.name ? { userName: user.name } : {}),
    ...(messageId ? { messageId } : {}),
  };
  if (channel.isDMBased()) return { ...base, chatType: 'dm', chatId: channel.id };
  if (channel.isThread() && channel.parentId)
    return {
      ...base,
      chatType: 'thread',
      chatId: channel.parentId,
      threadId: channel.id,
      ...(channel.name ? { chatName: channel.name } : {}),
    };
  return {
    ...base,
    chatType: 'group',
    chatId: channel.id,
    ...(channel.name ? { chatName: `#${channel.name}` } : {}),
    ...(channel.topic ? { chatTopic: channel.topic } : {}),
  };
}

/** The sender's display name: the guild nickname, the global name, else the username. */
export function displayName(msg: MessageLike): string {
  return msg.member?.displayName || msg.author.globalName || msg.author.username;
}

/** What the attachments of a message gave. */
export interface Downloaded {
  images: ImageAttachmentInput[];
  files: InboundFile[];
  /** Attachments not fetched (too big, failed), one line each for the text. */
  skipped: string[];
}

function kindOf(mime: string | null): InboundFile['kind'] {
  if (!mime) return 'document';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

/**
 * Downloads a message's attachments: images of a type the model takes go to `images` (as base64)
 * when `acceptsImages`, everything else to `files`. An attachment over `maxBytes` (as announced,
 * or as read) or one whose download fails is skipped and named in `skipped` (the sender's file
 * name quoted as untrusted data, so it cannot pose as a note of its own).
 */
export async function downloadAttachments(
  attachments: Iterable<AttachmentLike>,
  opts: { maxBytes: number; acceptsImages: boolean; fetch?: typeof fetch; timeoutMs?: number },
): Promise<Downloaded> {
  const out: Downloaded = { images: [], files: [], skipped: [] };
  const get = opts.fetch ?? fetch;
  for (const a of attachments) {
    const mime = a.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
    if (a.size > opts.maxBytes) {
      out.skipped.push(
        `${formatUntrustedValue(a.name)} (${a.size} bytes, over the ${opts.maxBytes}-byte limit)`,
      );
      continue;
    }
    let data: Buffer;
    try {
      const res = await get(a.url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      data = Buffer.from(await res.arrayBuffer());
      if (data.length > opts.maxBytes) throw new Error(`over the ${opts.maxBytes}-byte limit`);
    } catch (err) {
      out.skipped.push(`${formatUntrustedValue(a.name)} (not downloaded: ${(err as Error).message})`);
      continue;
    }
    if (opts.acceptsImages && mime && MODEL_IMAGE_TYPES.has(mime))
      out.images.push({ kind: 'image', data: data.toString('base64'), mime, name: a.name });
    else out.files.push({ name: a.name, data, ...(mime ? { mime } : {}), kind: kindOf(mime) });
  }
  return out;
}

/** What `refetchAttachments` needs of a message (`InboundMessage.attachmentsRef`). */
export const AttachmentsRef = z.object({
  /** Whether the message had text (a message of attachments only gets a stand-in line). */
  hasText: z.boolean(),
  attachments: z.array(
    z.object({
      url: z.string().url(),
      name: z.string(),
      size: z.number().nonnegative(),
      contentType: z.string().nullable(),
    }),
  ),
});
/** A message's attachments as plain JSON. */
export type AttachmentsRef = z.infer<typeof AttachmentsRef>;

/** The reference of a message's attachments (plain fields only: discord.js objects hold the client). */
export function attachmentsRefOf(hasText: boolean, attachments: Iterable<AttachmentLike>): AttachmentsRef {
  return {
    hasText,
    attachments: [...attachments].map(({ url, name, size, contentType }) => ({
      url,
      name,
      size,
      contentType,
    })),
  };
}

/**
 * Downloads the attachments of a reference (`attachmentsRefOf`). Never throws: a damaged
 * reference or a failed download is a note.
 */
export async function fetchAttachmentsOfRef(
  ref: unknown,
  opts: Parameters<typeof downloadAttachments>[1],
): Promise<FetchedAttachments> {
  const r = AttachmentsRef.safeParse(ref);
  if (!r.success) return { notes: ['[attachments not received: their record is damaged]'] };
  const got = await downloadAttachments(r.data.attachments, opts);
  const notes = got.skipped.map((s) => `[attachment not received: ${s}]`);
  const count = got.images.length + got.files.length;
  if (!r.data.hasText && !notes.length && count)
    notes.push(`[sent ${count} attachment${count > 1 ? 's' : ''}]`);
  return { images: got.images, files: got.files, notes };
}
