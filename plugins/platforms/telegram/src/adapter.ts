/**
 * The Telegram adapter (Bot API over HTTPS): long polling with `getUpdates`, replies
 * with `sendMessage` (plain text, no parse mode, so model output never fails to parse),
 * edit-streaming with `editMessageText`, typing indicators, and inline keyboards for approvals
 * and clarify choices (`callback_query` → a button press for the pipeline).
 *
 * Private chats are `dm`; groups and supergroups are `group`, with forum topics as threads.
 * In groups a leading `@botname` is removed. Telegram user ids are numbers, safe to hash for the
 * model (`piiSafe`).
 */
import {
  PlatformAdapter,
  approvalText,
  clarifyText,
  type ApprovalPrompt,
  type ButtonOutcome,
  type ChatInfo,
  type ClarifyPrompt,
  type FetchedAttachments,
  type MessageSource,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { collectMedia, hasMedia, mediaRef, messageOfRef } from './media.js';
import {
  BotApi,
  BotApiError,
  type TgCallbackQuery,
  type TgMessage,
  type TgUpdate,
  type TgUser,
} from './bot-api.js';

/** Telegram's message length limit. */
export const TELEGRAM_MAX_LENGTH = 4096;

/** Largest file a bot may download through the Bot API, bytes. */
const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Settings of the adapter. */
export interface TelegramSettings {
  apiBase: string;
  token: string;
  /** Long-poll timeout, seconds. */
  pollTimeoutS: number;
  /** Largest file downloaded from a message, bytes (default 20 MiB, the Bot API's own limit). */
  maxFileBytes?: number;
  /** Largest image given to the model, bytes (default 20 MiB). */
  maxImageBytes?: number;
}

/** Longest wait of `disconnect` for the polling loop to end, ms. */
const DISCONNECT_WAIT_MS = 2_000;

/** Longest caption Telegram takes on a document, characters. */
export const TELEGRAM_MAX_CAPTION = 1024;

const APPROVAL_LABELS: Record<string, string> = {
  once: '✅ Approve once',
  session: 'Approve for session',
  always: 'Always approve',
  deny: '❌ Deny',
};

function displayName(u: TgUser | undefined): string | undefined {
  if (!u) return undefined;
  const full = [u.first_name, u.last_name].filter(Boolean).join(' ').trim();
  return full || u.username || undefined;
}

/** Telegram adapter. */
export class TelegramAdapter extends PlatformAdapter {
  private readonly api: BotApi;
  private polling: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private offset = 0;
  private me: TgUser | undefined;
  /** Short button tokens → request id (callback data is limited to 64 bytes). */
  private readonly buttons = new Map<string, { requestId: string; values: string[] }>();
  private nextToken = 1;

  constructor(
    private readonly settings: TelegramSettings,
    opts: { log?: (line: string) => void; maxMessageLength?: number } = {},
  ) {
    super('telegram', {
      maxMessageLength: opts.maxMessageLength ?? TELEGRAM_MAX_LENGTH,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.api = new BotApi({ baseUrl: settings.apiBase, token: settings.token });
  }

  override get canEdit(): boolean {
    return true;
  }
  override get hasButtons(): boolean {
    return true;
  }

  /** The bot's username (after connect). */
  get username(): string | undefined {
    return this.me?.username;
  }

  async connect(): Promise<void> {
    this.me = await this.api.call<TgUser>('getMe').catch((err: unknown) => {
      // a rejected token (401) or an unknown bot (404) stays so on every retry of the host
      if (err instanceof BotApiError && (err.code === 401 || err.code === 404))
        Object.assign(err, { permanent: true });
      throw err;
    });
    // polling and a webhook exclude each other
    await this.api.call('deleteWebhook', { drop_pending_updates: false }).catch(() => undefined);
    this.abort = new AbortController();
    this.polling = this.pollLoop(this.abort.signal);
    this.log(`connected as @${this.me.username ?? this.me.id}`);
  }

  async disconnect(): Promise<void> {
    this.abort?.abort();
    // the loop may be waiting for the pipeline to take an update whose download is slow (up to the
    // download's own timeout): it is not waited for longer than this. The update's offset is not
    // committed, and its ledger row downloads it again after a restart, so nothing is lost.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.polling?.catch(() => undefined),
      new Promise<void>((r) => {
        timer = setTimeout(r, DISCONNECT_WAIT_MS);
        timer.unref?.();
      }),
    ]);
    clearTimeout(timer);
    this.polling = undefined;
  }

  private async pollLoop(signal: AbortSignal): Promise<void> {
    let backoff = 1_000;
    while (!signal.aborted) {
      try {
        const updates = await this.api.call<TgUpdate[]>(
          'getUpdates',
          {
            offset: this.offset,
            timeout: this.settings.pollTimeoutS,
            allowed_updates: ['message', 'callback_query'],
          },
          signal,
          this.settings.pollTimeoutS * 1000,
        );
        backoff = 1_000;
        // the offset (Telegram's acknowledgement, sent with the next poll) passes an update only
        // once the pipeline took it: an update it could not take now is fetched again
        let notTaken: string | undefined;
        for (const u of updates) {
          notTaken = await this.dispatch(u);
          if (notTaken !== undefined) break;
          this.offset = Math.max(this.offset, u.update_id + 1);
        }
        if (notTaken !== undefined) throw new Error(`an update was not taken (${notTaken})`);
      } catch (err) {
        if (signal.aborted) return;
        const e = err as BotApiError;
        if (e.code === 401 || e.code === 404) {
          this.emitFatal(new Error(`the bot token was refused (${e.code})`));
          return;
        }
        const wait = e.retryAfter ? e.retryAfter * 1000 : backoff;
        this.log(`${e.message}; polling again in ${wait} ms`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, wait);
          signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
        });
        backoff = Math.min(backoff * 2, 60_000);
      }
    }
  }

  /** Hands one update on. @returns why it could not be taken now, or undefined once it was. */
  private async dispatch(u: TgUpdate): Promise<string | undefined> {
    if (u.message) return this.onMessage(u.message);
    if (u.callback_query) void this.onCallback(u.callback_query);
    return undefined;
  }

  private sourceOf(msg: TgMessage, from: TgUser | undefined): MessageSource | undefined {
    const chat = msg.chat;
    if (chat.type === 'channel') return undefined; // channel posts have no sender to answer
    const isDm = chat.type === 'private';
    const name = displayName(from);
    return {
      platform: 'telegram',
      chatType: isDm ? 'dm' : 'group',
      chatId: String(chat.id),
      ...(isDm ? {} : chat.title ? { chatName: chat.title } : {}),
      ...(from ? { userId: String(from.id) } : {}),
      ...(name ? { userName: name } : {}),
      ...(msg.is_topic_message && msg.message_thread_id ? { threadId: String(msg.message_thread_id) } : {}),
      messageId: String(msg.message_id),
    };
  }

  /**
   * Downloads a message's media from its `mediaRef` (file ids, kept in the delivery ledger): the
   * first time the pipeline asks, and again after a restart cut the download. Never throws.
   */
  override async refetchAttachments(ref: unknown): Promise<FetchedAttachments> {
    const msg = messageOfRef(ref);
    if (!msg) return { notes: ['(The attachments could not be downloaded: their record is damaged.)'] };
    return collectMedia(
      this.api,
      msg,
      {
        maxFileBytes: this.settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
        maxImageBytes: this.settings.maxImageBytes ?? DEFAULT_MAX_FILE_BYTES,
      },
      this.log,
    );
  }

  private async onMessage(msg: TgMessage): Promise<string | undefined> {
    if (msg.from?.is_bot) return undefined;
    let text = msg.text ?? msg.caption ?? '';
    const media = hasMedia(msg);
    if (!text.trim() && !media) return undefined;
    const source = this.sourceOf(msg, msg.from);
    if (!source) return undefined;
    if (source.chatType !== 'dm' && this.me?.username) {
      text = text.replace(new RegExp(`^@${this.me.username}\\b[\\s:,]*`, 'i'), '');
    }
    // the caption is the message's text; photos and image documents go to the model as images,
    // downloaded only when the pipeline asks, after it authorized the sender
    const attachmentsRef = mediaRef(msg);
    const fetchAttachments = (): Promise<FetchedAttachments> => this.refetchAttachments(attachmentsRef);
    // an update delivered again (the poll offset was not committed before a crash) is a duplicate
    const dedupeKey = `${source.chatId}:${msg.message_id}`;
    const receipt = await this.emitMessageWithReceipt(
      { source, text, dedupeKey, ...(media ? { fetchAttachments, attachmentsRef } : {}) },
      dedupeKey,
    );
    return receipt.kind === 'unavailable' ? receipt.reason : undefined;
  }

  /**
   * A pressed inline button: handed to the pipeline, then acknowledged to the presser with what
   * became of it (`Got it`, the pipeline's reason for a refusal, or that the question is closed).
   */
  private async onCallback(q: TgCallbackQuery): Promise<void> {
    const [kind, token, index] = (q.data ?? '').split(':');
    const entry = token ? this.buttons.get(token) : undefined;
    const value = entry?.values[Number(index)];
    const source = q.message ? this.sourceOf(q.message, q.from) : undefined;
    let outcome: ButtonOutcome | undefined;
    if (entry && value !== undefined && source && (kind === 'a' || kind === 'c')) {
      delete source.messageId;
      outcome = await this.emitButton({ source, requestId: entry.requestId, value });
    }
    const text =
      outcome?.kind === 'answered'
        ? 'Got it'
        : outcome?.kind === 'refused'
          ? outcome.reason
          : 'This question is closed';
    await this.api
      .call('answerCallbackQuery', { callback_query_id: q.id, text })
      .catch((e: Error) => this.log(e.message));
  }

  private threadParams(opts?: SendOptions): object {
    return opts?.threadId ? { message_thread_id: Number(opts.threadId) } : {};
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.sendWith(chatId, text, opts);
  }

  private async sendWith(
    chatId: string,
    text: string,
    opts?: SendOptions,
    extra: object = {},
  ): Promise<SendResult> {
    try {
      const m = await this.api.call<TgMessage>('sendMessage', {
        chat_id: chatId,
        text,
        ...this.threadParams(opts),
        ...extra,
      });
      return { ok: true, messageId: String(m.message_id) };
    } catch (err) {
      // 400 (bad chat or text) and 403 (blocked, kicked) do not get better by retrying
      const final = err instanceof BotApiError && (err.code === 400 || err.code === 403);
      return { ok: false, error: (err as Error).message, ...(final ? { retryable: false } : {}) };
    }
  }

  /** Uploads a file with `sendDocument` (multipart); the caption is cut to Telegram's 1,024 characters. */
  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    const caption =
      file.caption && file.caption.length > TELEGRAM_MAX_CAPTION
        ? `${file.caption.slice(0, TELEGRAM_MAX_CAPTION - 1)}…`
        : file.caption;
    try {
      const m = await this.api.upload<TgMessage>(
        'sendDocument',
        {
          chat_id: chatId,
          caption,
          message_thread_id: opts?.threadId ? Number(opts.threadId) : undefined,
        },
        { field: 'document', name: file.name, data: file.data, ...(file.mime ? { mime: file.mime } : {}) },
      );
      return { ok: true, messageId: String(m.message_id) };
    } catch (err) {
      const final = err instanceof BotApiError && (err.code === 400 || err.code === 403 || err.code === 413);
      return { ok: false, error: (err as Error).message, ...(final ? { retryable: false } : {}) };
    }
  }

  override async editMessage(chatId: string, messageId: string, text: string): Promise<SendResult> {
    try {
      await this.api.call('editMessageText', { chat_id: chatId, message_id: Number(messageId), text });
      return { ok: true, messageId };
    } catch (err) {
      if (err instanceof BotApiError && /not modified/i.test(err.message)) return { ok: true, messageId };
      return { ok: false, error: (err as Error).message };
    }
  }

  override async sendTyping(chatId: string, opts?: SendOptions): Promise<void> {
    await this.api
      .call('sendChatAction', { chat_id: chatId, action: 'typing', ...this.threadParams(opts) })
      .catch(() => undefined);
  }

  private token(requestId: string, values: string[]): string {
    const t = (this.nextToken++).toString(36);
    this.buttons.set(t, { requestId, values });
    if (this.buttons.size > 500) this.buttons.delete(this.buttons.keys().next().value!); // bounded
    return t;
  }

  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    const values = [...prompt.choices];
    const t = this.token(prompt.requestId, values);
    const keyboard = values.map((v, i) => ({ text: APPROVAL_LABELS[v] ?? v, callback_data: `a:${t}:${i}` }));
    return this.sendWith(chatId, approvalText(prompt), opts, {
      reply_markup: { inline_keyboard: [keyboard.slice(0, 2), keyboard.slice(2)].filter((r) => r.length) },
    });
  }

  override async sendClarify(chatId: string, prompt: ClarifyPrompt, opts?: SendOptions): Promise<SendResult> {
    if (!prompt.choices?.length) return this.send(chatId, clarifyText(prompt), opts);
    const values = [...prompt.choices];
    const t = this.token(prompt.requestId, values);
    return this.sendWith(chatId, clarifyText(prompt), opts, {
      reply_markup: {
        inline_keyboard: values.map((v, i) => [{ text: v.slice(0, 60), callback_data: `c:${t}:${i}` }]),
      },
    });
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    const c = await this.api.call<{
      type: string;
      title?: string;
      first_name?: string;
      description?: string;
    }>('getChat', {
      chat_id: chatId,
    });
    return {
      name: c.title ?? c.first_name ?? chatId,
      type: c.type === 'private' ? 'dm' : c.type === 'channel' ? 'channel' : 'group',
      ...(c.description ? { topic: c.description } : {}),
    };
  }
}
