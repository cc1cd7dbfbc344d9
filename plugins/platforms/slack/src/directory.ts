/**
 * Names for the context block: users' display names (`users.info`, scope `users:read`) and
 * conversations' names, types and topics (`conversations.info`, the `*:read` scopes), cached —
 * users for the life of the adapter (bounded), conversations for 10 minutes. A failed lookup gives
 * `undefined` and is tried again next time. Names and topics are untrusted text.
 */
import type { ChatInfo } from '@hermes/core';
import type { webApi } from '@slack/bolt';
import { chatTypeOf } from './inbound.js';

/** How long a conversation's name and topic are reused, ms. */
const CHAT_TTL_MS = 600_000;
/** Most user names kept. */
const MAX_USERS = 5_000;

/** Cached lookups over the bot's Web API client. */
export class SlackDirectory {
  private readonly names = new Map<string, Promise<string | undefined>>();
  private readonly chats = new Map<string, { at: number; info: Promise<ChatInfo | undefined> }>();

  /** @param web the current client (it changes when the adapter reconnects). */
  constructor(private readonly web: () => webApi.WebClient) {}

  /** Display name of a user; undefined when unknown. */
  userName(userId: string): Promise<string | undefined> {
    let p = this.names.get(userId);
    if (!p) {
      p = Promise.resolve()
        .then(() => this.web().users.info({ user: userId }))
        .then((r) => {
          const u = r.user;
          return u?.profile?.display_name || u?.real_name || u?.name || undefined;
        })
        .catch(() => {
          this.names.delete(userId);
          return undefined;
        });
      this.names.set(userId, p);
      if (this.names.size > MAX_USERS) this.names.delete(this.names.keys().next().value!);
    }
    return p;
  }

  /** Name, type and topic of a conversation (cached); undefined when unknown. */
  chatInfo(channel: string): Promise<ChatInfo | undefined> {
    const hit = this.chats.get(channel);
    if (hit && Date.now() - hit.at < CHAT_TTL_MS) return hit.info;
    const info = this.fetchChat(channel).catch(() => {
      this.chats.delete(channel);
      return undefined;
    });
    this.chats.set(channel, { at: Date.now(), info });
    return info;
  }

  /**
   * Name, type and topic of a conversation, asked now.
   * @throws the Web API error (unknown channel, missing scope …).
   */
  async fetchChat(channel: string): Promise<ChatInfo> {
    const r = await this.web().conversations.info({ channel });
    const c = r.channel;
    const type = c?.is_im ? 'dm' : c?.is_mpim || c?.is_private ? 'group' : chatTypeOf(channel);
    const topic = c?.topic?.value || c?.purpose?.value;
    return { name: c?.name ?? (c?.is_im ? 'direct message' : channel), type, ...(topic ? { topic } : {}) };
  }
}
