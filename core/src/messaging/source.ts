/**
 * Where a platform message came from: the one record that routes the reply,
 * feeds the session key (session-key.ts), the untrusted context block (context-prompt.ts) and the
 * `origin` delivery target of cron jobs. Names and topics in it are untrusted text from the chat.
 */

/** Kind of conversation. `thread` is a sub-conversation (forum topic, Slack/Discord thread). */
export type ChatType = 'dm' | 'group' | 'channel' | 'thread';

/** All chat types, for config validation and tables. */
export const CHAT_TYPES: readonly ChatType[] = ['dm', 'group', 'channel', 'thread'];

/** Origin of one inbound message. Ids are the platform's raw ids (routing never uses hashes). */
export interface MessageSource {
  /** Registry name of the platform, lower case (`irc`, `telegram` …). */
  platform: string;
  chatType: ChatType;
  /** Chat / channel / conversation id (case kept: many platforms are case-sensitive). */
  chatId?: string;
  /** Display name of the chat (untrusted). */
  chatName?: string;
  /** Sender's id on the platform. */
  userId?: string;
  /** A stabler alternative id of the sender when the platform has one (wins over `userId` for isolation). */
  userIdAlt?: string;
  /** Sender's display name (untrusted). */
  userName?: string;
  /** Thread / topic id inside the chat. */
  threadId?: string;
  /** Channel topic or description (untrusted). */
  chatTopic?: string;
  /** Id of the triggering message on the platform (replies, reactions). */
  messageId?: string;
}

/** A JSON-safe copy of a source without undefined fields (for sessions.json and route records). */
export function sourceToJson(source: MessageSource): MessageSource {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out as unknown as MessageSource;
}

/**
 * Reads a source back from JSON (sessions.json, route records).
 * @returns undefined when `platform` or `chatType` is missing or invalid.
 */
export function sourceFromJson(data: unknown): MessageSource | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.platform !== 'string' || !CHAT_TYPES.includes(d.chatType as ChatType)) return undefined;
  const out: Record<string, string> = {};
  for (const k of [
    'platform',
    'chatType',
    'chatId',
    'chatName',
    'userId',
    'userIdAlt',
    'userName',
    'threadId',
    'chatTopic',
  ]) {
    if (typeof d[k] === 'string' && d[k] !== '') out[k] = d[k];
  }
  return out as unknown as MessageSource;
}
