/**
 * The Matrix adapter, on matrix-js-sdk's `MatrixClient` (client-server API): login or an access
 * token, its own /sync long-poll loop resuming from the stored `since` token (sync-state.ts) — the
 * token moves on only once the pipeline took every message of a batch, and a message seen again
 * is dropped by its event id (`dedupeKey`) — replies and thread replies (`m.thread`),
 * edit-streaming with `m.replace`, approvals asked with reactions (✅ once, 🔁 session, ♾️ always,
 * ❌ deny) or a reply `/approve`, invites accepted from allowed users, attachments in (media API
 * downloads: `m.image` to the model, `m.file`/`m.audio`/`m.video` saved) and out (upload + `m.file`).
 *
 * Rooms of two members (or invited as direct) are DMs; in other rooms a message must mention the
 * bot (`require_mention`), except in a thread the bot already answers in. End-to-end encryption is
 * not supported: an encrypted room gets one notice saying so. The members and name of a room no
 * sync described (after a restart) are asked of the server only for a sender the host admits.
 * The /sync loop: sync-loop.ts.
 */
import {
  PlatformAdapter,
  approvalText,
  type ApprovalPrompt,
  type ChatInfo,
  type FetchedAttachments,
  type MessageSource,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { MatrixClient, MemoryStore } from 'matrix-js-sdk';
import { downloadMedia, sdkLogger, type SyncResponse } from './sdk.js';
import {
  MatrixAttachmentRef,
  mentionsBot,
  parseMessage,
  parseReaction,
  stripMention,
  type MatrixEvent,
} from './events.js';
import { RoomDirectory } from './rooms.js';
import { SyncStateFile } from './sync-state.js';
import { saveSince, syncLoop, syncOnce } from './sync-loop.js';

/** Longest text message sent, characters (events are capped at 65,536 bytes). */
export const MATRIX_MAX_LENGTH = 16_000;

/** The reaction keys of an approval and the choice each stands for. */
export const APPROVAL_REACTIONS: Record<string, string> = {
  '✅': 'once',
  '🔁': 'session',
  '♾': 'always',
  '❌': 'deny',
};

/** What the adapter is built with. */
export interface MatrixSettings {
  homeserver: string;
  userId: string;
  deviceId?: string;
  accessToken?: string;
  password?: string;
  requireMention: boolean;
  autoJoin: boolean;
  /** Long-poll timeout of /sync, ms. */
  syncTimeoutMs: number;
  /** Users whose invites are accepted (ids as written in config/.env); `allowAll` accepts anyone's. */
  allowedUsers: string[];
  allowAll: boolean;
  /** Largest downloaded file, bytes. */
  maxFileBytes: number;
  /** Largest image for the model, bytes. */
  maxImageBytes: number;
  /** The state file (`since` token). */
  stateFile: string;
  /** First wait after a failed /sync, ms, doubling up to 60 s (default 1,000). */
  retryBaseMs?: number;
}

/**
 * `m.mentions` of everything the bot sends: nobody. With it, clients and servers apply only
 * intentional mentions, so model text saying `@room` or a member's name never notifies anyone
 * (without it the body is matched against the legacy `@room` and display-name push rules).
 */
export const NO_MENTIONS = { 'm.mentions': {} } as const;

/** Commands that answer the bot's question; they need no mention in a room. */
const ANSWER_COMMAND = /^\/(approve|deny|stop)\b/i;

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Matrix adapter. */
export class MatrixAdapter extends PlatformAdapter {
  private client: MatrixClient | undefined;
  private readonly rooms: RoomDirectory;
  private readonly approvals = new Map<string, { requestId: string; choices: string[]; threadId?: string }>();
  /** Threads the bot answers in (no mention needed there), as `roomKey(room, thread root)`. */
  private readonly threads = new Set<string>();
  /**
   * Recent events the bot sent (a reply to one addresses the bot), as `roomKey(room, event)`: a
   * reply pointing at the bot's event in another room does not count.
   */
  private readonly sentIds = new Set<string>();
  private readonly state: SyncStateFile;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private me = '';
  private txn = 0;

  constructor(
    private readonly settings: MatrixSettings,
    opts: { log?: (line: string) => void; maxMessageLength?: number } = {},
  ) {
    super('matrix', {
      maxMessageLength: opts.maxMessageLength ?? MATRIX_MAX_LENGTH,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.state = new SyncStateFile(settings.stateFile);
    this.rooms = new RoomDirectory(() => ({ client: this.client, me: this.me }), this.log);
  }

  override get canEdit(): boolean {
    return true;
  }
  override get hasButtons(): boolean {
    return true;
  }

  /** The bot's user id (after connect). */
  get userId(): string {
    return this.me;
  }

  async connect(): Promise<void> {
    const s = this.settings;
    const base = {
      baseUrl: s.homeserver.replace(/\/+$/, ''),
      userId: s.userId,
      ...(s.deviceId ? { deviceId: s.deviceId } : {}),
      store: new MemoryStore(),
      timelineSupport: false,
      logger: sdkLogger(this.log),
    };
    let client = new MatrixClient({ ...base, ...(s.accessToken ? { accessToken: s.accessToken } : {}) });
    await client.getVersions();
    if (!s.accessToken) {
      const login = await client
        .loginRequest({
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user: s.userId },
          password: s.password ?? '',
          ...(s.deviceId ? { device_id: s.deviceId } : {}),
          initial_device_display_name: 'Hermes',
        })
        .catch((err: unknown) => {
          throw Object.assign(new Error(`login refused: ${(err as Error).message}`), { permanent: true });
        });
      client = new MatrixClient({ ...base, accessToken: login.access_token, deviceId: login.device_id });
    }
    const who = await client.whoami().catch((err: { httpStatus?: number; message: string }) => {
      const e = new Error(`whoami failed: ${err.message}`);
      if (err.httpStatus === 401) Object.assign(e, { permanent: true });
      throw e;
    });
    this.me = who.user_id;
    this.client = client;
    const filter = await client.createFilter({
      room: { timeline: { limit: 50 }, state: { lazy_load_members: false } },
      presence: { types: [] },
    });
    let { since } = this.state.load();
    if (!since) {
      // first start: history before it is not answered; invites are
      const first = await syncOnce(client, undefined, filter.filterId!, 0);
      await this.handleSync(first, true);
      const next = String(first.next_batch);
      saveSince(this.state, next, this.log);
      since = next;
    }
    this.abort = new AbortController();
    this.loop = syncLoop(
      {
        client,
        state: this.state,
        filter: filter.filterId!,
        timeoutMs: s.syncTimeoutMs,
        retryBaseMs: s.retryBaseMs ?? 1_000,
        handle: (res) => this.handleSync(res, false),
        fatal: (err) => this.emitFatal(err),
        log: this.log,
      },
      since,
      this.abort.signal,
    );
    this.log(`connected as ${this.me}`);
  }

  async disconnect(): Promise<void> {
    this.abort?.abort();
    await this.loop?.catch(() => undefined);
    this.loop = undefined;
    this.client?.stopClient();
  }

  /**
   * Handles one /sync answer: invites, then each joined room's state and timeline in order.
   * @param initial the first sync of a new bot: messages are history, not answered.
   * @returns why a message could not be taken (the batch is then fetched again), or undefined.
   */
  private async handleSync(res: SyncResponse, initial: boolean): Promise<string | undefined> {
    for (const [roomId, inv] of Object.entries(res.rooms?.invite ?? {}))
      await this.onInvite(roomId, inv.invite_state?.events ?? []);
    for (const [roomId, j] of Object.entries(res.rooms?.join ?? {})) {
      const r = this.rooms.get(roomId);
      const count = j.summary?.['m.joined_member_count'];
      if (typeof count === 'number') r.members = count;
      for (const ev of j.state?.events ?? []) this.rooms.apply(roomId, ev);
      for (const ev of j.timeline?.events ?? []) {
        if (ev.state_key !== undefined) this.rooms.apply(roomId, ev);
        if (initial || ev.sender === this.me) continue;
        const why = await this.onTimeline(roomId, ev);
        if (why !== undefined) return why;
      }
    }
    return undefined;
  }

  private allowedInviter(userId: string): boolean {
    return this.settings.allowAll || this.settings.allowedUsers.includes(userId);
  }

  private async onInvite(roomId: string, events: MatrixEvent[]): Promise<void> {
    const mine = events.find((e) => e.type === 'm.room.member' && e.state_key === this.me);
    if (!mine || mine.content.membership !== 'invite') return;
    for (const e of events) this.rooms.apply(roomId, e);
    if (!this.settings.autoJoin || !this.allowedInviter(mine.sender)) {
      this.log(`invite to ${roomId} not accepted (the inviter is not an allowed user)`);
      return;
    }
    await this.client!.joinRoom(roomId).then(
      () => this.log(`joined ${roomId}`),
      (err: Error) => this.log(`joining ${roomId} failed: ${err.message}`),
    );
  }

  /** One timeline event of another user. @returns why it was not taken, or undefined. */
  /**
   * Downloads a message's attachment from its reference (the `mxc://` URI, kept in the delivery
   * ledger): when the pipeline first asks, and again after a restart cut the download. Never throws.
   */
  override async refetchAttachments(ref: unknown): Promise<FetchedAttachments> {
    const r = MatrixAttachmentRef.safeParse(ref);
    if (!r.success) return { notes: ['(The attachment could not be downloaded: its record is damaged.)'] };
    const a = r.data;
    const asImage = a.kind === 'image' && (!a.mime || IMAGE_MIMES.has(a.mime));
    const max = asImage
      ? Math.min(this.settings.maxImageBytes, this.settings.maxFileBytes)
      : this.settings.maxFileBytes;
    let data: Buffer;
    try {
      if (!this.client) throw new Error('not connected');
      data = await downloadMedia(this.client, a.mxc, max);
    } catch (err) {
      return { notes: [`(The attachment could not be downloaded: ${(err as Error).message}.)`] };
    }
    const mime = a.mime ? { mime: a.mime } : {};
    if (asImage) return { images: [{ kind: 'image', data: data.toString('base64'), name: a.name, ...mime }] };
    return { files: [{ name: a.name, data, kind: a.kind, ...mime }] };
  }

  private async onTimeline(roomId: string, ev: MatrixEvent): Promise<string | undefined> {
    if (ev.type === 'm.room.encrypted') return void (await this.encryptedNotice(roomId));
    if (ev.type === 'm.reaction') return void (await this.onReaction(roomId, ev));
    if (ev.type !== 'm.room.message') return undefined;
    const msg = parseMessage(ev);
    if (!msg || msg.notice) return undefined;
    await this.learnRoom(roomId, ev.sender);
    const dm = this.rooms.isDm(roomId);
    const names = [this.rooms.get(roomId).names.get(this.me) ?? '', this.me.slice(1).split(':')[0]!];
    let text = msg.text;
    if (!dm) {
      // addressed: a mention, a reply to the bot, a thread it answers in, or an answer command
      const addressed =
        (msg.threadId !== undefined && this.threads.has(roomKey(roomId, msg.threadId))) ||
        (msg.replyTo !== undefined && this.sentIds.has(roomKey(roomId, msg.replyTo))) ||
        ANSWER_COMMAND.test(text) ||
        mentionsBot(ev, text, { userId: this.me, names });
      if (this.settings.requireMention && !addressed) return undefined;
      text = stripMention(text, { userId: this.me, names });
    }
    const r = this.rooms.get(roomId);
    const userName = r.names.get(ev.sender);
    const source: MessageSource = {
      platform: 'matrix',
      chatType: dm ? 'dm' : msg.threadId ? 'thread' : 'group',
      chatId: roomId,
      ...(!dm && r.name ? { chatName: r.name } : {}),
      userId: ev.sender,
      ...(userName ? { userName } : {}),
      ...(msg.threadId ? { threadId: msg.threadId } : {}),
      messageId: ev.event_id,
    };
    const a = msg.attachment;
    // downloaded only when the pipeline asks, after it authorized the sender
    const fetchAttachments = (): Promise<FetchedAttachments> => this.refetchAttachments(a);
    if (!text.trim() && !a) return undefined;
    if (msg.threadId) this.threads.add(roomKey(roomId, msg.threadId));
    const receipt = await this.emitMessageWithReceipt(
      {
        source,
        text,
        dedupeKey: ev.event_id,
        ...(a ? { fetchAttachments, attachmentsRef: a } : {}),
      },
      ev.event_id,
    );
    return receipt.kind === 'unavailable' ? receipt.reason : undefined;
  }

  /**
   * Asks the server for a room's members and name when no sync described them — only for a
   * sender the host admits. A stranger in such a room (one the bot was in before a restart) causes
   * no request; the room then counts as a group, so the stranger gets no pairing code there.
   */
  private async learnRoom(roomId: string, sender: string): Promise<void> {
    if (!this.rooms.unknown(roomId)) return;
    if (!this.senderAdmitted({ platform: 'matrix', chatType: 'group', chatId: roomId, userId: sender }))
      return;
    await this.rooms.ensure(roomId);
  }

  private async encryptedNotice(roomId: string): Promise<void> {
    const st = this.state.load();
    if (st.noticed.includes(roomId)) return;
    try {
      this.state.save({ ...st, noticed: [...st.noticed, roomId] });
    } catch {
      /* the notice may then come once more after a restart */
    }
    await this.send(
      roomId,
      'This room is end-to-end encrypted, and this agent cannot read encrypted messages yet. ' +
        'Please talk to it in an unencrypted room or direct chat.',
    );
  }

  private async onReaction(roomId: string, ev: MatrixEvent): Promise<void> {
    const r = parseReaction(ev);
    const entry = r ? this.approvals.get(r.target) : undefined;
    if (!r || !entry) return;
    const value = APPROVAL_REACTIONS[r.key];
    if (!value || !entry.choices.includes(value)) return;
    await this.learnRoom(roomId, ev.sender);
    const dm = this.rooms.isDm(roomId);
    const source: MessageSource = {
      platform: 'matrix',
      chatType: dm ? 'dm' : entry.threadId ? 'thread' : 'group',
      chatId: roomId,
      userId: ev.sender,
      ...(entry.threadId ? { threadId: entry.threadId } : {}),
    };
    await this.emitButton({ source, requestId: entry.requestId, value });
  }

  private txnId(opts?: SendOptions): string {
    // the ledger's delivery id is stable across retries: the homeserver drops a repeat
    return opts?.deliveryId
      ? `hermes-${opts.deliveryId.replace(/[^A-Za-z0-9._-]/g, '_')}`
      : `hermes-${Date.now()}-${++this.txn}`;
  }

  private relation(opts?: SendOptions): Record<string, unknown> {
    if (!opts?.threadId) return {};
    return {
      'm.relates_to': {
        rel_type: 'm.thread',
        event_id: opts.threadId,
        is_falling_back: true,
        'm.in_reply_to': { event_id: opts.replyTo ?? opts.threadId },
      },
    };
  }

  private async sendContent(
    roomId: string,
    type: string,
    content: Record<string, unknown>,
    opts?: SendOptions,
  ): Promise<SendResult> {
    if (!this.client) return { ok: false, error: 'not connected' };
    if (opts?.threadId) this.threads.add(roomKey(roomId, opts.threadId));
    try {
      // the SDK types content per known event type; these are built to the spec above
      const r = await this.client.sendEvent(roomId, type as never, content as never, this.txnId(opts));
      this.sentIds.add(roomKey(roomId, r.event_id));
      if (this.sentIds.size > 1000) this.sentIds.delete(this.sentIds.values().next().value!);
      return { ok: true, messageId: r.event_id };
    } catch (err) {
      const status = (err as { httpStatus?: number }).httpStatus;
      // 400 (malformed), 403 (not in the room), 404 (unknown room) do not get better by retrying
      const final = status === 400 || status === 403 || status === 404;
      return { ok: false, error: (err as Error).message, ...(final ? { retryable: false } : {}) };
    }
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    return this.sendContent(
      chatId,
      'm.room.message',
      { msgtype: 'm.text', body: text, ...NO_MENTIONS, ...this.relation(opts) },
      opts,
    );
  }

  override async editMessage(chatId: string, messageId: string, text: string): Promise<SendResult> {
    const r = await this.sendContent(chatId, 'm.room.message', {
      msgtype: 'm.text',
      body: `* ${text}`,
      ...NO_MENTIONS,
      'm.new_content': { msgtype: 'm.text', body: text, ...NO_MENTIONS },
      'm.relates_to': { rel_type: 'm.replace', event_id: messageId },
    });
    return r.ok ? { ok: true, messageId } : r;
  }

  override async sendTyping(chatId: string): Promise<void> {
    await this.client?.sendTyping(chatId, true, 10_000).catch(() => undefined);
  }

  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    const keys = Object.entries(APPROVAL_REACTIONS).filter(([, v]) => prompt.choices.includes(v as never));
    const legend = keys.map(([k, v]) => `${k} ${v}`).join(' · ');
    const r = await this.send(chatId, `${approvalText(prompt)}\nOr react: ${legend}.`, opts);
    if (!r.ok || !r.messageId) return r;
    this.approvals.set(r.messageId, {
      requestId: prompt.requestId,
      choices: [...prompt.choices],
      ...(opts?.threadId ? { threadId: opts.threadId } : {}),
    });
    if (this.approvals.size > 500) this.approvals.delete(this.approvals.keys().next().value!);
    // the bot offers the reactions, so a click answers
    for (const [key] of keys)
      await this.sendContent(chatId, 'm.reaction', {
        'm.relates_to': { rel_type: 'm.annotation', event_id: r.messageId, key },
      });
    return r;
  }

  /** Uploads the file (media API) and sends it as `m.file`; the caption is the body (MSC2530). */
  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    if (!this.client) return { ok: false, error: 'not connected' };
    let uri: string;
    try {
      const up = await this.client.uploadContent(new Uint8Array(file.data), {
        name: file.name,
        type: file.mime ?? 'application/octet-stream',
        includeFilename: true,
      });
      uri = up.content_uri;
    } catch (err) {
      return { ok: false, error: `upload failed: ${(err as Error).message}` };
    }
    return this.sendContent(
      chatId,
      'm.room.message',
      {
        msgtype: 'm.file',
        body: file.caption ?? file.name,
        filename: file.name,
        url: uri,
        info: { mimetype: file.mime ?? 'application/octet-stream', size: file.data.length },
        ...NO_MENTIONS,
        ...this.relation(opts),
      },
      opts,
    );
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    await this.rooms.ensure(chatId);
    return { name: this.rooms.get(chatId).name ?? chatId, type: this.rooms.isDm(chatId) ? 'dm' : 'group' };
  }
}

/** A key of an event id within its room (event ids are global; what they address is per room). */
function roomKey(roomId: string, eventId: string): string {
  return `${roomId}\u0000${eventId}`;
}
