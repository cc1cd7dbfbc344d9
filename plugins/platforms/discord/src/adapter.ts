/**
 * The Discord adapter: discord.js for the gateway (messages, interactions, RESUME after a drop)
 * and its REST client for everything sent (messages, edits, typing, uploads), so replies go out
 * while the gateway reconnects.
 *
 * - DMs are `dm`, guild text channels `group`, threads `thread` (chat = the parent channel,
 *   thread = the thread's channel; replies go into the thread). In guilds a message must mention
 *   the bot or reply to it (`require_mention`); `guilds` / `channels` restrict where it answers.
 * - Edit-streaming: at most one edit per message per `minEditGapMs` (Discord's limit is about
 *   5 edits in 5 s per channel), typing refreshed at most every `typingEveryMs`.
 * - Approvals and clarify choices are buttons; a press goes to the pipeline, which decides
 *   whether the presser may answer (a refusal is shown to the presser only) — an answered
 *   prompt is edited to say who answered and loses its buttons.
 * - The product's slash commands are registered on connect and run as typed commands.
 * - Every message sent carries the delivery id as its `nonce` with `enforce_nonce`, so a retried
 *   send (a lost response, a restart) never posts the reply twice; inbound messages are
 *   deduplicated by their id.
 * - A drop discord.js resumes is invisible to the host; one that is not back within
 *   `resumeGraceMs` is reported (`emitFatal`), and the new session reads the channel history for
 *   what came meanwhile. A refused token or disallowed intents fail for good (`permanent`).
 */
import {
  PlatformAdapter,
  approvalText,
  clarifyText,
  type ApprovalPrompt,
  type ChatInfo,
  type ClarifyPrompt,
  type FetchedAttachments,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { Client, DiscordAPIError, Events, REST, Routes, type Interaction, type Message } from 'discord.js';
import { discordClientOptions } from './client-options.js';
import { applicationCommands } from './commands.js';
import { ButtonTable, approvalRows, clarifyFits, clarifyRows } from './components.js';
import {
  attachmentsRefOf,
  fetchAttachmentsOfRef,
  botRoleIds,
  channelOf,
  displayName,
  isAddressed,
  sourceOf,
  stripBotMention,
  type ChannelLike,
  type MessageLike,
} from './inbound.js';
import { handleButton, handleCommand, type InteractionHost } from './interactions.js';
import { DISCORD_MAX_LENGTH, fit, nonceOf } from './limits.js';
import { MAX_CHANNELS, ReadPositionFile } from './read-position.js';
import type { DiscordSettings } from './settings.js';

export { DISCORD_MAX_LENGTH, nonceOf } from './limits.js';

/** Gateway close codes that no retry fixes, and what to tell the user. */
const FATAL_CLOSE: Record<number, string> = {
  4004: 'the bot token was refused (4004 authentication failed)',
  4010: 'invalid shard (4010)',
  4011: 'sharding required (4011)',
  4012: 'invalid API version (4012)',
  4013: 'invalid intents (4013)',
  4014: 'disallowed intents (4014): enable the Message Content intent for the bot in the Discord developer portal',
};

/** Options of the adapter. */
export interface DiscordAdapterOptions {
  token: string;
  settings: DiscordSettings;
  /** Whether the model takes images now (else images arrive as files). */
  acceptsImages?: () => boolean;
  log?: (line: string) => void;
  maxMessageLength?: number;
  /**
   * Where the newest message taken per channel is kept across restarts (read-position.ts); a
   * restarted daemon reads what was sent while it was down. Without it, only a new gateway
   * session of the same daemon catches up.
   */
  readPositionFile?: string;
  /** Least time between two edits (or the send and first edit) of one message, ms (default 1,000). */
  minEditGapMs?: number;
  /** Least time between two typing indicators in one channel, ms (default 8,000; one lasts ~10 s). */
  typingEveryMs?: number;
  /** How long a dropped gateway may take to come back before the host is told, ms (default 30,000). */
  resumeGraceMs?: number;
}

/** Orders two snowflakes (ids grow with time): negative when `a` is older. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** An error the host does not retry. */
function permanent(message: string): Error {
  return Object.assign(new Error(message), { permanent: true });
}

/** A send failure as a result; 4xx refusals (unknown channel, missing access) are final. */
function failure(err: unknown): SendResult {
  const e = err as Error;
  if (err instanceof DiscordAPIError) {
    const final = err.status >= 400 && err.status < 500 && err.status !== 429;
    return {
      ok: false,
      error: `Discord ${err.status}: ${err.message}`,
      ...(final ? { retryable: false } : {}),
    };
  }
  return { ok: false, error: e?.message ?? String(err) };
}

/** Discord adapter. */
export class DiscordAdapter extends PlatformAdapter {
  private client: Client | undefined;
  private readonly rest: REST;
  private botId: string | undefined;
  private online = false;
  private lostTimer: NodeJS.Timeout | undefined;
  private readonly buttons = new ButtonTable();
  private readonly lastEdit = new Map<string, number>();
  private readonly editChains = new Map<string, Promise<SendResult>>();
  private readonly lastTyping = new Map<string, number>();
  private readonly lanes = new Map<string, Promise<void>>();
  /** Newest message id seen per channel (bounded), for the catch-up after a new session. */
  private readonly seen = new Map<string, string>();
  /** Newest message taken per channel (kept in `readPositionFile`). */
  private readonly taken: Map<string, string>;
  private readonly positions: ReadPositionFile | undefined;
  private readonly minEditGapMs: number;
  private readonly typingEveryMs: number;
  private readonly resumeGraceMs: number;

  constructor(private readonly opts: DiscordAdapterOptions) {
    super('discord', {
      maxMessageLength: opts.maxMessageLength ?? DISCORD_MAX_LENGTH,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.minEditGapMs = opts.minEditGapMs ?? 1_000;
    this.typingEveryMs = opts.typingEveryMs ?? 8_000;
    this.resumeGraceMs = opts.resumeGraceMs ?? 30_000;
    this.positions = opts.readPositionFile
      ? new ReadPositionFile(opts.readPositionFile, this.log)
      : undefined;
    this.taken = this.positions?.load() ?? new Map();
    // the first session after a restart reads what came while the daemon was down
    for (const [channel, id] of this.taken) this.seen.set(channel, id);
    this.rest = new REST(this.clientOptions().rest).setToken(opts.token);
  }

  private clientOptions() {
    const s = this.opts.settings;
    return discordClientOptions({
      apiBase: s.api_base,
      ...(s.gateway_url ? { gatewayUrl: s.gateway_url } : {}),
    });
  }

  override get canEdit(): boolean {
    return true;
  }
  override get hasButtons(): boolean {
    return true;
  }

  /** The bot's user id (after connect). */
  get userId(): string | undefined {
    return this.botId;
  }

  async connect(): Promise<void> {
    const client = new Client(this.clientOptions());
    this.client = client;
    client.on(Events.Error, (e) => this.log(`client error: ${e.message}`));
    client.on(Events.MessageCreate, (m) => this.onMessage(m));
    client.on(Events.InteractionCreate, (i) => void this.onInteraction(i));
    client.on(Events.ShardReconnecting, () => this.onDropped());
    client.on(Events.ShardResume, (_id, replayed) => this.onBack(`resumed (${replayed} events replayed)`));
    client.on(Events.ShardReady, () => this.onBack('identified again'));
    const ready = new Promise<void>((resolve, reject) => {
      client.once(Events.ClientReady, (c) => {
        this.botId = c.user.id; // before the events queued behind READY are emitted
        resolve();
      });
      client.on(Events.ShardDisconnect, (ev) => {
        const why = FATAL_CLOSE[ev.code] ?? `the gateway closed for good (${ev.code})`;
        if (!this.online) reject(permanent(why));
        else this.lost(why);
      });
    });
    ready.catch(() => undefined);
    const login = client.login(this.opts.token).catch((err: unknown) => {
      const e = err as Error & { code?: string; status?: number };
      if (e.code === 'TokenInvalid' || e.status === 401)
        throw permanent('the bot token was refused (401): check DISCORD_BOT_TOKEN');
      throw err;
    });
    login.catch(() => undefined);
    // a close the client does not retry (4004, 4014) leaves `login` waiting: `ready` says why
    await Promise.race([login.then(() => ready), ready]);
    this.online = true;
    this.log(`connected as ${client.user!.tag} (${this.botId})`);
    await this.registerCommands(client);
    // a new session after a lost one: Discord replays nothing, so read what came meanwhile
    if (this.seen.size) void this.catchUp(client);
  }

  /**
   * Fetches, per channel heard from before, the messages newer than the last one seen (at most
   * 50 each) and takes them like live ones; messages taken before are dropped as duplicates by
   * their id. Failures are logged.
   */
  private async catchUp(client: Client): Promise<void> {
    let found = 0;
    for (const [channelId, after] of [...this.seen]) {
      try {
        const channel = await client.channels.fetch(channelId);
        if (!channel?.isTextBased() || this.client !== client) continue;
        const got = await channel.messages.fetch({ after, limit: 50 });
        const list = [...got.values()].sort((a, b) => compareIds(a.id, b.id));
        for (const m of list) {
          if (m.author.bot) continue;
          found++;
          this.onMessage(m);
        }
      } catch (err) {
        this.log(`catch-up of channel ${channelId} failed: ${(err as Error).message}`);
      }
    }
    if (found) this.log(`read ${found} message(s) sent while disconnected`);
  }

  private noteSeen(channelId: string, messageId: string): void {
    const prev = this.seen.get(channelId);
    if (prev && compareIds(prev, messageId) >= 0) return;
    this.seen.delete(channelId);
    this.seen.set(channelId, messageId);
    if (this.seen.size > 200) this.seen.delete(this.seen.keys().next().value!);
  }

  async disconnect(): Promise<void> {
    this.online = false;
    clearTimeout(this.lostTimer);
    this.lostTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    client.removeAllListeners();
    client.on(Events.Error, () => undefined);
    await client.destroy().catch(() => undefined);
  }

  /** The gateway dropped: discord.js resumes it itself; the host hears of it only if that fails. */
  private onDropped(): void {
    if (!this.online || this.lostTimer) return;
    this.log('gateway connection dropped; resuming');
    this.lostTimer = setTimeout(() => {
      this.lostTimer = undefined;
      this.lost(`the gateway did not come back within ${Math.round(this.resumeGraceMs / 1000)} s`);
    }, this.resumeGraceMs);
    this.lostTimer.unref?.();
  }

  private onBack(how: string): void {
    if (!this.lostTimer) return;
    clearTimeout(this.lostTimer);
    this.lostTimer = undefined;
    this.log(`gateway ${how}`);
  }

  private lost(why: string): void {
    if (!this.online) return;
    this.online = false;
    clearTimeout(this.lostTimer);
    this.lostTimer = undefined;
    this.emitFatal(new Error(why));
  }

  /** Bulk-overwrites the slash commands (global or per guild); a failure is logged only. */
  private async registerCommands(client: Client): Promise<void> {
    const mode = this.opts.settings.slash_commands;
    if (mode === 'off' || !client.application) return;
    const defs = applicationCommands();
    const appId = client.application.id;
    try {
      if (mode === 'global') {
        await this.rest.put(Routes.applicationCommands(appId), { body: defs });
      } else {
        const ids = this.opts.settings.guilds.length
          ? this.opts.settings.guilds
          : [...client.guilds.cache.keys()];
        for (const g of ids) await this.rest.put(Routes.applicationGuildCommands(appId, g), { body: defs });
      }
      this.log(`registered ${defs.length} slash commands (${mode})`);
    } catch (err) {
      this.log(`slash commands not registered: ${(err as Error).message}`);
    }
  }

  /** True when the guild and channel allow-lists admit a place (DMs always). */
  private allowedPlace(guildId: string | null, channel: ChannelLike): boolean {
    const { guilds, channels } = this.opts.settings;
    if (!guildId) return true;
    if (guilds.length && !guilds.includes(guildId)) return false;
    return !channels.length || channels.includes(channelOf(channel));
  }

  /** Runs `fn` after the earlier inbound work of `lane` (a channel keeps its order). */
  private inLane(lane: string, fn: () => Promise<void>): void {
    const run = (this.lanes.get(lane) ?? Promise.resolve()).then(fn).catch((err: Error) => {
      this.log(`inbound message failed: ${err.message}`);
    });
    this.lanes.set(lane, run);
    void run.then(() => {
      if (this.lanes.get(lane) === run) this.lanes.delete(lane);
    });
  }

  private onMessage(message: Message): void {
    const msg = message as unknown as MessageLike;
    const botId = this.botId ?? this.client?.user?.id;
    if (!botId || msg.author.bot || msg.webhookId || msg.system) return;
    this.noteSeen(msg.channelId, msg.id);
    if (!this.allowedPlace(msg.guildId, msg.channel)) return;
    if (!isAddressed(msg, botId, this.opts.settings.require_mention)) return;
    this.inLane(msg.channelId, () => this.takeMessage(msg, botId));
  }

  /**
   * Downloads a message's attachments from their reference (CDN URLs, kept in the delivery
   * ledger): the first time the pipeline asks, and again after a restart cut the download.
   * Never throws: what cannot be had is a note.
   */
  override refetchAttachments(ref: unknown): Promise<FetchedAttachments> {
    return fetchAttachmentsOfRef(ref, {
      maxBytes: this.opts.settings.max_attachment_bytes,
      acceptsImages: this.opts.acceptsImages?.() ?? false,
    });
  }

  private async takeMessage(msg: MessageLike, botId: string): Promise<void> {
    const text = stripBotMention(msg.content, botId, botRoleIds(msg, botId));
    const attachments = [...msg.attachments.values()];
    if (!text && !attachments.length) return;
    const source = sourceOf(msg.channel, { id: msg.author.id, name: displayName(msg) }, msg.id);
    const dedupeKey = `message:${msg.id}`;
    // downloaded only when the pipeline asks, after it authorized the sender
    const attachmentsRef = attachmentsRefOf(!!text, attachments);
    const fetchAttachments = (): Promise<FetchedAttachments> => this.refetchAttachments(attachmentsRef);
    const receipt = await this.emitMessageWithReceipt(
      { source, text, dedupeKey, ...(attachments.length ? { fetchAttachments, attachmentsRef } : {}) },
      dedupeKey,
    );
    if (receipt.kind === 'unavailable') this.log(`message ${msg.id} not taken: ${receipt.reason}`);
    else this.noteTaken(msg.channelId, msg.id);
  }

  /** Records the newest message the pipeline took in a channel (for a restart's catch-up). */
  private noteTaken(channelId: string, messageId: string): void {
    if (!this.positions) return;
    const prev = this.taken.get(channelId);
    if (prev && compareIds(prev, messageId) >= 0) return;
    this.taken.delete(channelId);
    this.taken.set(channelId, messageId);
    if (this.taken.size > MAX_CHANNELS) this.taken.delete(this.taken.keys().next().value!);
    this.positions.save(this.taken);
  }

  private async onInteraction(i: Interaction): Promise<void> {
    const host: InteractionHost = {
      buttons: this.buttons,
      allowedPlace: (g, c) => this.allowedPlace(g, c),
      press: (p) => this.emitButton(p),
      message: (m, id) => this.emitMessageWithReceipt(m, id),
    };
    try {
      if (i.isButton()) await handleButton(i, host);
      else if (i.isChatInputCommand()) await handleCommand(i, host);
    } catch (err) {
      this.log(`interaction failed: ${(err as Error).message}`);
    }
  }

  // ── outbound ────────────────────────────────────────────────────────────────────────────────

  private channelFor(chatId: string, opts?: SendOptions): string {
    return opts?.threadId ?? chatId;
  }

  private envelope(opts?: SendOptions): Record<string, unknown> {
    return {
      allowed_mentions: { parse: [] },
      ...(opts?.replyTo
        ? { message_reference: { message_id: opts.replyTo, fail_if_not_exists: false } }
        : {}),
      ...(opts?.deliveryId ? { nonce: nonceOf(opts.deliveryId), enforce_nonce: true } : {}),
    };
  }

  private async post(
    channelId: string,
    body: Record<string, unknown>,
    files?: Array<{ name: string; data: Buffer; contentType?: string }>,
  ): Promise<SendResult> {
    try {
      const m = (await this.rest.post(Routes.channelMessages(channelId), {
        body,
        ...(files ? { files } : {}),
      })) as { id: string };
      this.noteEdit(m.id);
      this.lastTyping.delete(channelId); // a message ends the typing indicator in its channel
      return { ok: true, messageId: m.id };
    } catch (err) {
      return failure(err);
    }
  }

  private noteEdit(messageId: string): void {
    this.lastEdit.delete(messageId);
    this.lastEdit.set(messageId, Date.now());
    if (this.lastEdit.size > 1_000) this.lastEdit.delete(this.lastEdit.keys().next().value!);
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.post(this.channelFor(chatId, opts), { content: text, ...this.envelope(opts) });
  }

  override async editMessage(
    chatId: string,
    messageId: string,
    text: string,
    opts?: SendOptions,
  ): Promise<SendResult> {
    // edits of one message run one after another, each at least `minEditGapMs` after the last
    const prev = this.editChains.get(messageId) ?? Promise.resolve();
    const run = prev.then(async (): Promise<SendResult> => {
      const wait = (this.lastEdit.get(messageId) ?? 0) + this.minEditGapMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        await this.rest.patch(Routes.channelMessage(this.channelFor(chatId, opts), messageId), {
          body: { content: text, allowed_mentions: { parse: [] } },
        });
        return { ok: true, messageId };
      } catch (err) {
        return failure(err);
      } finally {
        // counted from the answer: the next edit reaches Discord at least the gap after this one
        this.noteEdit(messageId);
      }
    });
    this.editChains.set(messageId, run);
    void run.then(() => {
      if (this.editChains.get(messageId) === run) this.editChains.delete(messageId);
    });
    return run;
  }

  override async sendTyping(chatId: string, opts?: SendOptions): Promise<void> {
    const channel = this.channelFor(chatId, opts);
    const now = Date.now();
    if (now - (this.lastTyping.get(channel) ?? 0) < this.typingEveryMs) return;
    this.lastTyping.set(channel, now);
    if (this.lastTyping.size > 1_000) this.lastTyping.delete(this.lastTyping.keys().next().value!);
    await this.rest.post(Routes.channelTyping(channel)).catch(() => undefined);
  }

  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    const body = {
      ...(file.caption ? { content: fit(file.caption) } : {}),
      attachments: [{ id: 0, filename: file.name }],
      ...this.envelope(opts),
    };
    return this.post(this.channelFor(chatId, opts), body, [
      { name: file.name, data: file.data, ...(file.mime ? { contentType: file.mime } : {}) },
    ]);
  }

  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    const values = [...prompt.choices];
    const token = this.buttons.add({ kind: 'a', requestId: prompt.requestId, values });
    return this.post(this.channelFor(chatId, opts), {
      content: fit(approvalText(prompt)),
      components: approvalRows(token, values),
      ...this.envelope(opts),
    });
  }

  override async sendClarify(chatId: string, prompt: ClarifyPrompt, opts?: SendOptions): Promise<SendResult> {
    if (!prompt.choices || !clarifyFits(prompt.choices))
      return this.send(chatId, fit(clarifyText(prompt)), opts);
    const values = [...prompt.choices];
    const token = this.buttons.add({ kind: 'c', requestId: prompt.requestId, values });
    return this.post(this.channelFor(chatId, opts), {
      content: fit(clarifyText(prompt)),
      components: clarifyRows(token, values),
      ...this.envelope(opts),
    });
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    const c = (await this.rest.get(Routes.channel(chatId))) as {
      type: number;
      name?: string;
      topic?: string | null;
      recipients?: Array<{ username?: string; global_name?: string | null }>;
    };
    const dm = c.type === 1 || c.type === 3;
    const thread = c.type === 10 || c.type === 11 || c.type === 12;
    const peer = c.recipients?.[0];
    return {
      name: c.name ?? peer?.global_name ?? peer?.username ?? chatId,
      type: dm ? 'dm' : thread ? 'thread' : 'group',
      ...(c.topic ? { topic: c.topic } : {}),
    };
  }
}
