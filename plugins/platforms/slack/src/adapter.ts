/**
 * The Slack adapter (Bolt in Socket Mode, connection.ts): messages in DMs, channels and threads
 * (rules in inbound.ts), app mentions, the `/hermes` slash command, files in (files.ts) and out
 * (the external upload flow), replies in Slack's mrkdwn (mrkdwn.ts), edit-streaming with
 * `chat.update`, approval and clarify questions as Block Kit buttons (blocks.ts), and a reaction
 * on the user's message while the agent works (Slack has no typing indicator for bots in Socket
 * Mode).
 *
 * A message seen twice — Slack sends a channel mention both as `message` and as `app_mention`,
 * and redelivers an envelope whose ack was lost (`retry_attempt`) — is handed on once: its dedupe
 * key is `<channel>:<ts>`, the message's own id, the same in every copy (the pipeline drops a
 * repeated key, also across restarts). The sender's and channel's names (users.info,
 * conversations.info) are looked up only for a sender the host admits (`senderAdmitted`).
 *
 * Buttons: a press is acknowledged at once; only the person whose message started the turn may
 * answer (another user gets an ephemeral "only … can answer" and nothing is answered); the press
 * goes to the pipeline (`emitButton`), which checks authorization and the session again. When the
 * question is settled (`request.resolved`, however it was answered) its message is rewritten
 * without buttons, naming the answer and who gave it.
 */
import {
  PlatformAdapter,
  STREAMING_CURSOR,
  clarifyText,
  type ApprovalPrompt,
  type ChatInfo,
  type ClarifyPrompt,
  type FetchedAttachments,
  type MessageSource,
  type SendOptions,
  type SendResult,
  type TurnEvent,
} from '@hermes/core';
import type { App, BlockAction, ButtonAction, SlashCommand } from '@slack/bolt';
import {
  answeredBlocks,
  approvalBlocks,
  approvalSection,
  clarifyBlocks,
  clarifySection,
  parseButtonValue,
} from './blocks.js';
import { SlackConnection, slackErrorCode, type BotIdentity } from './connection.js';
import { SlackDirectory } from './directory.js';
import { fetchSlackFilesOfRef, filesRefOf } from './files.js';
import { chatTypeOf, routeMessage, type SlackMessageEvent } from './inbound.js';
import { toMrkdwn } from './mrkdwn.js';
import { BoundedSet, QuestionTable, type ShownQuestion } from './questions.js';
import { WorkingReactions } from './working.js';
import { FINAL_ERRORS, SLACK_MAX_LENGTH, TOKEN_GONE, type SlackSettings } from './settings.js';

export { SLACK_MAX_LENGTH, type SlackSettings } from './settings.js';

/** Slack adapter. */
export class SlackAdapter extends PlatformAdapter {
  private conn: SlackConnection | undefined;
  private tokenLost = false;
  private me: BotIdentity | undefined;
  private readonly questions = new QuestionTable();
  /** `<channel>:<ts>` of messages already handed on. */
  private readonly seen = new BoundedSet(5_000);
  /** `<channel>:<thread ts>` of threads the bot takes part in. */
  private readonly activeThreads = new BoundedSet(2_000);
  /** Sender of a recent message, by `<channel>:<ts>` (who may answer its questions). */
  private readonly senders = new Map<string, string>();
  private readonly working: WorkingReactions;
  private readonly directory = new SlackDirectory(() => this.web);
  private readonly extraOrigins: string[];

  constructor(
    private readonly settings: SlackSettings,
    opts: { log?: (line: string) => void; maxMessageLength?: number } = {},
  ) {
    super('slack', {
      maxMessageLength: opts.maxMessageLength ?? SLACK_MAX_LENGTH,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.working = new WorkingReactions(async (op, channel, timestamp) => {
      const name = settings.workingReaction;
      if (!this.conn) return;
      const args = { channel, timestamp, name };
      // already there / already gone: nothing to do
      await (op === 'add' ? this.web.reactions.add(args) : this.web.reactions.remove(args)).catch(
        () => undefined,
      );
    }, settings.workingStaleMs);
    // the API base's origin may receive the bot token for file downloads (a stand-in or proxy)
    this.extraOrigins = [new URL(settings.apiBase).origin].filter((o) => !/slack\.com$/.test(o));
  }

  override get canEdit(): boolean {
    return true;
  }
  override get hasButtons(): boolean {
    return true;
  }

  /** The bot's user id (after connect). */
  get botUserId(): string | undefined {
    return this.me?.userId;
  }

  private get web() {
    if (!this.conn) throw new Error('not connected');
    return this.conn.web;
  }

  async connect(): Promise<void> {
    const s = this.settings;
    const conn = new SlackConnection({
      apiBase: s.apiBase,
      botToken: s.botToken,
      appToken: s.appToken,
      pingTimeoutMs: s.pingTimeoutMs,
      log: this.log,
    });
    this.conn = conn;
    this.tokenLost = false;
    this.me = await conn.open(
      (app, me) => this.register(app, me),
      (err) => this.emitFatal(err),
    );
    this.log(`connected as <@${this.me.userId}>${this.me.team ? ` in ${this.me.team}` : ''}`);
  }

  async disconnect(): Promise<void> {
    this.working.stop();
    const conn = this.conn;
    this.conn = undefined;
    await conn?.close().catch(() => undefined);
  }

  private register(app: App, me: BotIdentity): void {
    this.me = me;
    app.event('message', async ({ event }) => this.onMessageEvent(event as unknown as SlackMessageEvent));
    app.event('app_mention', async ({ event }) => this.onMessageEvent(event as unknown as SlackMessageEvent));
    app.command(this.settings.slashCommand, async ({ command, ack }) => {
      const text = command.text.trim();
      // Slack wants the ack within 3 s; the answer comes later as a message
      await ack(text ? { response_type: 'in_channel' } : `Usage: ${this.settings.slashCommand} <message>`);
      if (text) await this.onSlashCommand(command, text);
    });
    app.action({ action_id: /^hermes_(approval|clarify)_\d+$/ }, async ({ ack, body, action }) => {
      await ack();
      await this.onButton(body as BlockAction, action as ButtonAction);
    });
  }

  // ── inbound ────────────────────────────────────────────────────────────────────────────

  /**
   * Downloads a message's shared files from their reference (kept in the delivery ledger): when
   * the pipeline first asks, and again after a restart cut the download. Never throws.
   */
  override refetchAttachments(ref: unknown): Promise<FetchedAttachments> {
    return fetchSlackFilesOfRef(ref, {
      token: this.settings.botToken,
      extraOrigins: this.extraOrigins,
      maxBytes: this.settings.maxFileBytes,
      imagesToModel: this.settings.imagesToModel,
      imageMaxBytes: this.settings.imageMaxBytes,
    });
  }

  private async onMessageEvent(ev: SlackMessageEvent): Promise<void> {
    if (!this.me) return;
    const route = routeMessage(ev, {
      botUserId: this.me.userId,
      requireMention: this.settings.requireMention,
      replyInThread: this.settings.replyInThread,
      inActiveThread: (c, t) => this.activeThreads.has(`${c}:${t}`),
    });
    if ('ignore' in route) return;
    const key = `${ev.channel}:${ev.ts}`;
    if (this.seen.has(key)) return; // the same message as `message` and `app_mention`, or again
    this.seen.add(key);
    if (route.threadId && route.chatType !== 'dm') this.activeThreads.add(`${ev.channel}:${route.threadId}`);
    this.remember(key, route.userId);
    const bare: MessageSource = {
      platform: 'slack',
      chatType: route.chatType,
      chatId: ev.channel,
      userId: route.userId,
      ...(route.threadId ? { threadId: route.threadId } : {}),
      messageId: ev.ts,
    };
    const { userName, chat } = await this.namesOf(bare);
    const text = route.text;
    const shared = ev.files ?? [];
    // downloaded only when the pipeline asks, after it authorized the sender
    const attachmentsRef = filesRefOf(!!text, shared);
    const fetchAttachments = (): Promise<FetchedAttachments> => this.refetchAttachments(attachmentsRef);
    const source: MessageSource = {
      ...bare,
      ...(userName ? { userName } : {}),
      ...(chat ? { chatName: chat.name } : {}),
      ...(chat?.topic ? { chatTopic: chat.topic } : {}),
    };
    const receipt = await this.emitMessageWithReceipt(
      {
        source,
        text,
        dedupeKey: key,
        ...(shared.length ? { fetchAttachments, attachmentsRef } : {}),
      },
      key,
    );
    if (receipt.kind === 'unavailable') {
      this.seen.delete(key);
      this.log(`message ${key} not taken: ${receipt.reason}`);
    }
  }

  private async onSlashCommand(cmd: SlashCommand, text: string): Promise<void> {
    const bare: MessageSource = {
      platform: 'slack',
      chatType: chatTypeOf(cmd.channel_id),
      chatId: cmd.channel_id,
      userId: cmd.user_id,
    };
    const { userName, chat } = await this.namesOf(bare);
    const source: MessageSource = {
      ...bare,
      userName: userName ?? cmd.user_name,
      ...(chat ? { chatName: chat.name } : {}),
    };
    const key = `slash:${cmd.trigger_id}`;
    const receipt = await this.emitMessageWithReceipt({ source, text, dedupeKey: key }, key);
    if (receipt.kind === 'unavailable') this.log(`command ${key} not taken: ${receipt.reason}`);
  }

  /**
   * The sender's and channel's names (users.info, conversations.info, cached), asked only for a
   * sender the host admits: a stranger's message causes no lookup (its pairing code names no one).
   */
  private async namesOf(source: MessageSource): Promise<{ userName?: string; chat?: ChatInfo }> {
    if (!this.senderAdmitted(source)) return {};
    const [userName, chat] = await Promise.all([
      this.directory.userName(source.userId!),
      source.chatType === 'dm' ? undefined : this.directory.chatInfo(source.chatId!),
    ]);
    return { ...(userName ? { userName } : {}), ...(chat ? { chat } : {}) };
  }

  private remember(key: string, userId: string): void {
    this.senders.set(key, userId);
    if (this.senders.size > 5_000) this.senders.delete(this.senders.keys().next().value!);
  }

  private async onButton(body: BlockAction, action: ButtonAction): Promise<void> {
    const channel = body.channel?.id ?? body.container?.channel_id;
    const user = body.user.id;
    if (!channel) return;
    const parsed = parseButtonValue(action.value);
    const q = parsed ? this.questions.get(parsed.token) : undefined;
    const threadTs = (body.message as { thread_ts?: string } | undefined)?.thread_ts;
    const ephemeral = (text: string): Promise<unknown> =>
      this.web.chat
        .postEphemeral({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) })
        .catch((e: Error) => this.log(`ephemeral failed: ${e.message}`));
    if (!q || q.done || !parsed) return void (await ephemeral('This question is closed.'));
    if (q.owner && q.owner !== user) return void (await ephemeral(`Only <@${q.owner}> can answer this.`));
    const value = q.values[parsed.index];
    if (value === undefined) return;
    q.pressedBy = user;
    q.pressedValue = value;
    const bare: MessageSource = {
      platform: 'slack',
      chatType: this.chatTypeFor(q.channel, q.threadId),
      chatId: q.channel,
      userId: user,
      ...(q.threadId ? { threadId: q.threadId } : {}),
    };
    const userName = this.senderAdmitted(bare) ? await this.directory.userName(user) : undefined;
    const source: MessageSource = { ...bare, ...(userName ? { userName } : {}) };
    await this.emitButton({ source, requestId: q.requestId, value });
  }

  /** The chat type a reply target maps to (as inbound.ts maps messages). */
  private chatTypeFor(channel: string, threadId?: string): MessageSource['chatType'] {
    const base = chatTypeOf(channel);
    return base !== 'dm' && threadId ? 'thread' : base;
  }

  // ── lookups ────────────────────────────────────────────────────────────────────────────

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return this.directory.fetchChat(chatId);
  }

  // ── outbound ───────────────────────────────────────────────────────────────────────────

  private failure(err: unknown): SendResult {
    const code = slackErrorCode(err);
    // the bot token stopped working (revoked, app uninstalled): the connection is not usable
    // although the socket (the app token) may still be up — report it, so the status is honest
    if (code && TOKEN_GONE.has(code) && this.conn && !this.tokenLost) {
      this.tokenLost = true;
      this.emitFatal(Object.assign(new Error(`Slack refused the bot token: ${code}`), { permanent: true }));
    }
    return {
      ok: false,
      error: code ? `Slack: ${code}` : (err as Error).message,
      ...(code && FINAL_ERRORS.has(code) ? { retryable: false } : {}),
    };
  }

  private thread(chatId: string, opts?: SendOptions): { thread_ts?: string } {
    if (!opts?.threadId) return {};
    if (chatTypeOf(chatId) !== 'dm') this.activeThreads.add(`${chatId}:${opts.threadId}`);
    return { thread_ts: opts.threadId };
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    try {
      const r = await this.web.chat.postMessage({
        channel: chatId,
        text: toMrkdwn(text),
        ...this.thread(chatId, opts),
        unfurl_links: false,
      });
      if (opts?.kind === 'reply' || !text.endsWith(STREAMING_CURSOR))
        this.working.done(chatId, opts?.replyTo);
      return { ok: true, ...(r.ts ? { messageId: r.ts } : {}) };
    } catch (err) {
      return this.failure(err);
    }
  }

  override async editMessage(
    chatId: string,
    messageId: string,
    text: string,
    opts?: SendOptions,
  ): Promise<SendResult> {
    try {
      await this.web.chat.update({ channel: chatId, ts: messageId, text: toMrkdwn(text) });
      if (!text.endsWith(STREAMING_CURSOR)) this.working.done(chatId, opts?.replyTo);
      return { ok: true, messageId };
    } catch (err) {
      return this.failure(err);
    }
  }

  /** The working reaction on the message that started the turn (working.ts). */
  override async sendTyping(chatId: string, opts?: SendOptions): Promise<void> {
    if (this.settings.workingReaction && opts?.replyTo && this.conn)
      await this.working.typing(chatId, opts.replyTo);
  }

  /** Uploads a file (files.getUploadURLExternal → upload → files.completeUploadExternal). */
  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    try {
      const r = await this.web.filesUploadV2({
        channel_id: chatId,
        file: file.data,
        filename: file.name,
        title: file.name,
        ...(file.caption ? { initial_comment: toMrkdwn(file.caption) } : {}),
        ...this.thread(chatId, opts),
      } as Parameters<typeof this.web.filesUploadV2>[0]);
      const id = (r.files as Array<{ files?: Array<{ id?: string }> }> | undefined)?.[0]?.files?.[0]?.id;
      return { ok: true, ...(id ? { messageId: id } : {}) };
    } catch (err) {
      return this.failure(err);
    }
  }

  private async postQuestion(
    chatId: string,
    q: ShownQuestion,
    text: string,
    blocks: unknown[],
    opts?: SendOptions,
  ): Promise<SendResult> {
    try {
      const r = await this.web.chat.postMessage({
        channel: chatId,
        text,
        blocks: blocks as never,
        ...this.thread(chatId, opts),
      });
      q.ts = r.ts;
      return { ok: true, ...(r.ts ? { messageId: r.ts } : {}) };
    } catch (err) {
      return this.failure(err);
    }
  }

  private owner(chatId: string, opts?: SendOptions): string | undefined {
    return opts?.replyTo ? this.senders.get(`${chatId}:${opts.replyTo}`) : undefined;
  }

  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    const owner = this.owner(chatId, opts);
    const q = this.questions.add({
      requestId: prompt.requestId,
      kind: 'approval',
      values: [...prompt.choices],
      channel: chatId,
      ...(opts?.threadId ? { threadId: opts.threadId } : {}),
      ...(owner ? { owner } : {}),
      section: approvalSection(prompt),
    });
    const fallback = `Approval needed to ${prompt.diff !== undefined ? 'write' : 'run'}: ${prompt.command.slice(0, 200)}`;
    return this.postQuestion(chatId, q, fallback, approvalBlocks(prompt, q.token), opts);
  }

  override async sendClarify(chatId: string, prompt: ClarifyPrompt, opts?: SendOptions): Promise<SendResult> {
    if (!prompt.choices?.length) return this.send(chatId, clarifyText(prompt), opts);
    const owner = this.owner(chatId, opts);
    const q = this.questions.add({
      requestId: prompt.requestId,
      kind: 'clarify',
      values: [...prompt.choices].slice(0, 25),
      channel: chatId,
      ...(opts?.threadId ? { threadId: opts.threadId } : {}),
      ...(owner ? { owner } : {}),
      section: clarifySection(prompt),
    });
    return this.postQuestion(
      chatId,
      q,
      `Question: ${prompt.question.slice(0, 200)}`,
      clarifyBlocks(prompt, q.token),
      opts,
    );
  }

  /** A settled question's message loses its buttons and names the answer and who gave it. */
  override onTurnEvent(_chatId: string, event: TurnEvent): void {
    if (event.type !== 'request.resolved') return;
    const q = this.questions.byRequest(String(event.payload.request_id ?? ''));
    if (!q || q.done || !q.ts || !this.conn) return;
    q.done = true;
    const choice = event.payload.choice === null ? null : String(event.payload.choice ?? '');
    const by = String(event.payload.by ?? '');
    const who =
      q.pressedBy && q.pressedValue === choice
        ? `by <@${q.pressedBy}>`
        : by.startsWith('client:') || by.startsWith('connection:')
          ? 'in a terminal'
          : by === 'timeout'
            ? '(timed out)'
            : '';
    const blocks = answeredBlocks(q.kind, q.section, choice, who);
    void this.web.chat
      .update({
        channel: q.channel,
        ts: q.ts,
        text: `Answered: ${choice ?? 'no answer'}`,
        blocks: blocks as never,
      })
      .catch((e: Error) => this.log(`could not mark the question answered: ${e.message}`));
  }
}
