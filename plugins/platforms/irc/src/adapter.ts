/**
 * The IRC adapter (standard library sockets only, no SDK). Direct messages are `dm` chats keyed
 * by the sender's nick; channel messages are `channel` chats, answered only when addressed as `<nick>: …` (or `<nick>, …`) unless
 * `require_mention: false`. NOTICEs and CTCP are never answered (RFC 2812 §3.3.2). Replies in a
 * channel start with the addressed user's nick. A lost connection is reported to the host with
 * `emitFatal`; the host disconnects the adapter and calls `connect` again on its reconnect
 * schedule (tui-gateway/src/platforms/reconnect.ts), the first connection included.
 */
/* eslint-disable no-control-regex -- IRC formatting codes and protocol bytes are control characters */
import { PlatformAdapter, type ChatInfo, type SendOptions, type SendResult } from '@hermes/core';
import { IrcClient, type IrcClientOptions, type IrcPrivmsg } from './client.js';
import { ircLower, isChannel } from './protocol.js';

/** Settings of the adapter (from `platforms.irc` and the home's secrets). */
export interface IrcSettings extends Omit<IrcClientOptions, 'log'> {
  /** In channels, answer only messages addressed to the bot's nick. */
  requireMention: boolean;
  /**
   * Who a sender is (the user id): their nick, or (`account`) the services account in the
   * message's IRCv3 `account` tag — absent for a sender logged in to none, who is then nobody.
   */
  identity?: 'nick' | 'account';
}

/** Removes mIRC formatting codes (bold, colour, reset …) from received text. */
export function stripFormatting(text: string): string {
  return text
    .replace(/\u0003(\d{1,2}(,\d{1,2})?)?/g, '')
    .replace(/[\u0002\u000f\u0011\u0016\u001d\u001e\u001f]/g, '');
}

/** IRC adapter. */
export class IrcAdapter extends PlatformAdapter {
  private client: IrcClient | undefined;
  private stopping = false;

  constructor(
    private readonly settings: IrcSettings,
    opts: { log?: (line: string) => void; maxMessageLength?: number } = {},
  ) {
    super('irc', { maxMessageLength: opts.maxMessageLength ?? 450, ...(opts.log ? { log: opts.log } : {}) });
  }

  /** The nick in use (may differ from the configured one when it was taken). */
  get nick(): string {
    return this.client?.nick ?? this.settings.nick;
  }

  async connect(): Promise<void> {
    this.stopping = false;
    await this.open();
  }

  private async open(): Promise<void> {
    const client = new IrcClient({ ...this.settings, log: (l) => this.log(l) });
    client.on('privmsg', (m: IrcPrivmsg) => this.onPrivmsg(client, m));
    client.on('close', (err?: Error) => {
      const wasCurrent = this.client === client;
      if (wasCurrent) this.client = undefined;
      // a close during connect() is its rejection; only an established connection is reported
      if (err && wasCurrent && !this.stopping) {
        this.log(`disconnected (${err.message})`);
        this.emitFatal(err);
      }
    });
    await client.connect();
    if (this.stopping) {
      client.destroy();
      throw new Error('disconnected while connecting');
    }
    this.client = client;
    this.log(`connected to ${this.settings.host}:${this.settings.port} as ${client.nick}`);
  }

  async disconnect(): Promise<void> {
    this.stopping = true;
    const c = this.client;
    this.client = undefined;
    await c?.quit('Hermes is shutting down').catch(() => c.destroy());
  }

  private onPrivmsg(client: IrcClient, m: IrcPrivmsg): void {
    if (m.notice || m.text.startsWith('\u0001')) return;
    if (ircLower(m.nick) === ircLower(client.nick)) return;
    let text = stripFormatting(m.text).trim();
    const account = m.tags.account && m.tags.account !== '*' ? m.tags.account : undefined;
    // by account: a sender logged in to none has no id, and the pipeline lets no one without one in
    const user =
      this.settings.identity === 'account' ? (account ? { userId: account } : {}) : { userId: m.nick };
    if (!isChannel(m.target)) {
      void this.emitMessage({
        source: { platform: 'irc', chatType: 'dm', chatId: m.nick, ...user, userName: m.nick },
        text,
      });
      return;
    }
    const mention = new RegExp(`^${escapeRe(client.nick)}[:,]\\s*`, 'i').exec(text);
    if (this.settings.requireMention && !mention) return;
    if (mention) text = text.slice(mention[0].length);
    const topic = client.topic(m.target);
    void this.emitMessage({
      source: {
        platform: 'irc',
        chatType: 'channel',
        chatId: m.target,
        chatName: m.target,
        ...user,
        userName: m.nick,
        // IRC has no message ids: the nick to address in the reply travels as the message id
        messageId: m.nick,
        ...(topic ? { chatTopic: topic } : {}),
      },
      text,
    });
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    const c = this.client;
    if (!c?.isRegistered) return { ok: false, error: 'not connected to the IRC server' };
    if (isChannel(chatId)) c.join(chatId);
    const body = isChannel(chatId) && opts?.replyTo ? `${opts.replyTo}: ${text}` : text;
    try {
      // confirmed once written to the socket: IRC has no receipts
      const lines = await c.sayConfirmed(chatId, body);
      return lines > 0 ? { ok: true } : { ok: false, error: 'nothing to send', retryable: false };
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    if (!isChannel(chatId)) return { name: chatId, type: 'dm' };
    const topic = this.client?.topic(chatId);
    return { name: chatId, type: 'channel', ...(topic ? { topic } : {}) };
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
