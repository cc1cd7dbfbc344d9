/**
 * Which Slack messages the agent answers, and where: the pure rules of the adapter's inbound side.
 *
 * - Direct messages (`im`) are always answered; a message in a DM thread stays in that thread.
 * - In channels (public `channel`, private `group`, group DMs `mpim`) a message must mention the
 *   bot (`require_mention`, default true) — except a follow-up in a thread the bot already takes
 *   part in (it was mentioned there or answered there), which needs no new mention.
 * - A message in a thread is answered in the thread, and the thread is one session (chat type
 *   `thread`, thread id = the thread's root ts). With `reply_in_thread` (default) a top-level
 *   channel message starts a thread under itself: the reply goes there and the thread is the
 *   session, so follow-ups in it keep the conversation.
 * - Ignored: the bot's own and other bots' messages, edits (`message_changed`), deletions
 *   (`message_deleted`), joins and other system subtypes — only new user text and shared files
 *   start a turn.
 */
import type { ChatType } from '@hermes/core';
import { fromSlackText } from './mrkdwn.js';

/** The fields of a Slack `message` / `app_mention` event read here. */
export interface SlackMessageEvent {
  type: string;
  subtype?: string;
  channel: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  files?: SlackFile[];
}

/** A file object of a message event (the fields read here). */
export interface SlackFile {
  id: string;
  name?: string;
  title?: string;
  mimetype?: string;
  filetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  mode?: string;
}

/** Subtypes that carry a user's new message. */
const USER_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast', 'me_message']);

/** Settings and state the rules need. */
export interface RouteOptions {
  botUserId: string;
  requireMention: boolean;
  replyInThread: boolean;
  /** True when the bot takes part in the thread `threadTs` of `channel`. */
  inActiveThread(channel: string, threadTs: string): boolean;
}

/** Where an answered message came from and goes. */
export interface Route {
  chatType: ChatType;
  chatId: string;
  userId: string;
  /** Thread root ts the reply goes into (also the session's thread). */
  threadId?: string;
  messageId: string;
  /** The text for the model (the bot's mention removed, Slack markup written out). */
  text: string;
  /** The message mentioned the bot. */
  mentioned: boolean;
}

/** The chat type of a conversation id (and the event's channel_type when given). */
export function chatTypeOf(channel: string, channelType?: string): 'dm' | 'group' | 'channel' {
  if (channelType === 'im' || (!channelType && channel.startsWith('D'))) return 'dm';
  if (channelType === 'mpim' || channelType === 'group' || (!channelType && channel.startsWith('G')))
    return 'group';
  return 'channel';
}

/**
 * Decides about one message event.
 * @returns the route, or `{ ignore }` with why it is not answered.
 */
export function routeMessage(ev: SlackMessageEvent, opts: RouteOptions): Route | { ignore: string } {
  if (!USER_SUBTYPES.has(ev.subtype)) return { ignore: `subtype ${ev.subtype}` };
  if (ev.bot_id || !ev.user || ev.user === opts.botUserId) return { ignore: 'sent by a bot' };
  const raw = ev.text ?? '';
  const mentioned = raw.includes(`<@${opts.botUserId}>`) || raw.includes(`<@${opts.botUserId}|`);
  const base = chatTypeOf(ev.channel, ev.channel_type);
  const text = fromSlackText(raw, opts.botUserId);
  const common = { chatId: ev.channel, userId: ev.user, messageId: ev.ts, text, mentioned };
  if (base === 'dm')
    return { chatType: 'dm', ...common, ...(ev.thread_ts ? { threadId: ev.thread_ts } : {}) };
  const inThread = ev.thread_ts !== undefined && ev.thread_ts !== ev.ts;
  if (opts.requireMention && !mentioned && !(inThread && opts.inActiveThread(ev.channel, ev.thread_ts!)))
    return { ignore: 'the bot was not mentioned' };
  if (inThread) return { chatType: 'thread', ...common, threadId: ev.thread_ts! };
  if (opts.replyInThread) return { chatType: 'thread', ...common, threadId: ev.ts };
  return { chatType: base, ...common };
}
