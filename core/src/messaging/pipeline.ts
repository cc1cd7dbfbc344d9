/**
 * The message pipeline of one platform in one profile: for every inbound message,
 * in order —
 *
 * 1. authorize (authz.ts; unknown DMs get a pairing code), record the message in the delivery
 *    ledger (a platform id seen before is a duplicate, dropped); only then are its attachments
 *    fetched from the platform (`fetchAttachments`, inbound-attachments.ts) and kept in the
 *    inbound spool until its turn has them (inbound-spool.ts: a restart loses none of them);
 * 2. slash commands (pipeline-commands.ts), and answers to a pending clarify question;
 * 3. interrupt the session's running turn when `interrupt_on_message` is set;
 * 4. get or create the session (chat-sessions.ts: reset policies, recovery);
 * 5. build the context: the untrusted context block goes into a new session's system prompt;
 *    in a shared session the sender's name prefixes the user message;
 * 6. run the agent (backend.ts), streaming by edits where the platform can edit, asking
 *    approvals in the chat;
 * 7. send the reply: silence filter, optional runtime footer, split at the platform's limit.
 *
 * Every inbound message gets an id (`in-…`) and exactly one outcome, logged in one line (a reply,
 * the model's silence, a visible error, or a drop with its reason); an accepted message gets a
 * row in the platform's delivery ledger (delivery-ledger.ts) that carries it to that outcome —
 * across a restart (pipeline-recovery.ts). The id travels with the prompt through the session's
 * queue to `turn.start` / `turn.end`, which is how a reply is matched to its message. Steps 1–6
 * run one message at a time per session key (in arrival order) up to the submission of the
 * prompt; the turns then queue in the session in that order. Steps 2–6: pipeline-admit.ts;
 * steps 6–7: pipeline-turn.ts.
 *
 * Rendering failures and hooks are contained: they are logged and never break a turn.
 */
import type { ButtonOutcome, ButtonPress, InboundMessage, InboundReceipt, SendOptions } from './adapter.js';
import { authorize, type AuthDecision } from './authz.js';
import type { AgentBackend } from './backend.js';
import {
  DeliveryLedger,
  MemoryDeliveryStore,
  newInboundId,
  type DeliveryRecord,
  type InboundOutcome,
} from './delivery-ledger.js';
import type { HookPayload, HookRegistry } from './hooks.js';
import { mayAnswer, NOT_THE_ASKER, NOT_THE_ASKER_CLARIFY, PendingQuestions } from './pending-questions.js';
import { admitMessage } from './pipeline-admit.js';
import { offerPairing } from './pipeline-pairing.js';
import { platformConfigOf, type PlatformConfig } from './platform-config.js';
import { buildSessionKey } from './session-key.js';
import { slashPolicyFor } from './slash.js';
import { sourceFromJson, sourceToJson, type MessageSource } from './source.js';
import { splitMessage } from './split.js';
import { wellFormedText } from './untrusted.js';
import { attachmentNotes } from './pipeline-files.js';
import { resolveInboundAttachments } from './inbound-attachments.js';
import type { PipelineOptions } from './pipeline-options.js';
import { InboundSpool, type SpoolManifest } from './inbound-spool.js';
import { restoredMessage, spoolAttachments, type InboundAttachmentsJson } from './pipeline-spool.js';

export type { PipelineOptions, TranscriptReader } from './pipeline-options.js';

/** A turn running for a chat (for shutdown notices). */
interface ActiveTurn {
  chatId: string;
  send: SendOptions;
}

/** The pipeline of one platform. */
export class MessagePipeline {
  readonly questions = new PendingQuestions();
  /** Where every accepted message is followed to its outcome. */
  readonly ledger: DeliveryLedger;
  /** Where accepted messages' attachments wait for their turn; only when replies are durable. */
  readonly spool: InboundSpool | undefined;
  private readonly active = new Map<string, ActiveTurn>();
  private readonly lanes = new Map<string, Promise<void>>();
  /** Messages this pipeline accepted whose outcome is not decided yet (never a restart's work). */
  private readonly acceptedHere = new Set<string>();
  private accepting = true;

  constructor(readonly opts: PipelineOptions) {
    this.ledger =
      opts.ledger ??
      new DeliveryLedger({
        platform: opts.entry.name,
        store: new MemoryDeliveryStore(),
        sender: opts.adapter,
        maxLength: () => this.maxLength(),
        fileAbove: () => this.longReplyFileAbove(),
        log: opts.log,
        retry: { maxAttempts: 1 },
      });
    if (!opts.ledger) this.ledger.start();
    this.spool = this.durable ? new InboundSpool(opts.home.inboundSpoolDir(opts.entry.name)) : undefined;
    // a message's attachments are kept until its outcome is decided, whatever decided it (a turn,
    // a command, a clarify answer, a notice after a restart)
    const spool = this.spool;
    if (spool) this.ledger.onSettled((id) => spool.drop(id));
    this.ledger.onSettled((id) => this.acceptedHere.delete(id));
  }

  /** True when replies are kept across restarts (the ledger is stored). */
  get durable(): boolean {
    return this.opts.ledger !== undefined && this.opts.entry.durableReplies !== false;
  }

  /** False once shutdown began. */
  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Longest message of the platform (config over adapter), characters; 0: no limit. */
  maxLength(): number {
    return this.platformConfig().max_message_length ?? this.opts.adapter.maxMessageLength;
  }

  /**
   * Characters above which a reply goes out as a file (config over registry); 0 when replies are
   * split (no threshold, or the adapter has no upload).
   */
  longReplyFileAbove(): number {
    if (!this.opts.adapter.canUploadFiles) return 0;
    return this.platformConfig().long_reply_as_file_above ?? this.opts.entry.longReplyAsFileAbove ?? 0;
  }

  /** The session's newest message id (0 without a transcript reader). */
  lastMessageId(sessionId: string): number {
    return this.opts.transcript?.lastMessageId(sessionId) ?? 0;
  }

  /**
   * Whether this pipeline itself accepted message `id` and is still on it: recovery leaves such a
   * message alone (it arrived after the start, while the previous daemon's rows were being read).
   */
  acceptedInThisLife(id: string): boolean {
    return this.acceptedHere.has(id);
  }

  /** Remembers a running turn for the shutdown notice. */
  trackTurn(id: string, chatId: string, send: SendOptions): void {
    this.active.set(id, { chatId, send });
  }

  /** Forgets a turn that ended. */
  untrackTurn(id: string): void {
    this.active.delete(id);
  }

  /**
   * Runs `fn` after every earlier call for `key` settled: messages of one chat pass steps 2–6
   * one at a time, in the order they arrived.
   */
  private inLane<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.lanes.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(key, tail);
    void tail.then(() => {
      if (this.lanes.get(key) === tail) this.lanes.delete(key);
    });
    return run;
  }

  /** Logs the outcome of a message: closes its ledger row, or logs it when it has none. */
  outcome(chatId: string, id: string, outcome: InboundOutcome, reason?: string): void {
    if (this.ledger.get(id)) this.ledger.close(id, outcome, reason);
    else this.ledger.note(chatId, id, outcome, reason);
  }

  /** The platform's settings with defaults. */
  platformConfig(): PlatformConfig {
    return platformConfigOf(this.opts.config().platforms, this.opts.entry.name);
  }

  /**
   * Whether this platform's access rules admit a source now (no side effect: no pairing code).
   * Adapters ask it before a lookup the sender would cause (a name, a mail body): a cost filter —
   * `handleMessage` still decides.
   */
  isAuthorized(source: MessageSource): boolean {
    return this.authorizeSource(source).allowed;
  }

  /**
   * Whether `source` may answer approvals here: the access rules admit it and, with `admins` set,
   * it is one (or `approve` is among the user commands) — as for `/approve` and the chat's buttons.
   */
  mayApprove(source: MessageSource): boolean {
    const cfg = this.platformConfig();
    if (!this.authorizeSource(source, cfg).allowed) return false;
    return slashPolicyFor(cfg, source.chatType).allows(source.userId, 'approve');
  }

  /** Whether this platform's access rules (allow-lists, pairing, adapter-side checks) admit a source. */
  private authorizeSource(source: MessageSource, cfg = this.platformConfig()): AuthDecision {
    return authorize(source, {
      entry: this.opts.entry,
      config: cfg,
      secrets: this.opts.secrets(),
      pairing: this.opts.pairing,
    });
  }

  /** The session key of a source under this platform's isolation settings. */
  keyOf(source: MessageSource, cfg = this.platformConfig()): string {
    return buildSessionKey(source, {
      groupSessionsPerUser: cfg.group_sessions_per_user,
      threadSessionsPerUser: cfg.thread_sessions_per_user,
      profile: this.opts.profile,
    });
  }

  /** Whether ids are hashed for the model on this platform (config and registry must agree). */
  redactPii(cfg = this.platformConfig()): boolean {
    return cfg.redact_pii && this.opts.entry.piiSafe === true;
  }

  /** Sends text to a chat, split at the platform's limit. Failures are logged, not thrown. */
  async say(chatId: string, text: string, send: SendOptions = {}): Promise<void> {
    for (const chunk of splitMessage(text, this.maxLength())) {
      try {
        const r = await this.opts.adapter.send(chatId, chunk, send);
        if (!r.ok)
          this.opts.log(`${this.opts.entry.name}: send to ${chatId} failed: ${r.error ?? 'unknown'}`);
      } catch (err) {
        this.opts.log(`${this.opts.entry.name}: send to ${chatId} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Fires a hook event without letting it fail or delay the caller's error handling. */
  emitHook(event: Parameters<HookRegistry['emit']>[0], payload: HookPayload): Promise<void> {
    return this.opts.hooks
      .emit(event, { profile: this.opts.profile, platform: this.opts.entry.name, ...payload })
      .catch(() => undefined);
  }

  /** Stops taking new messages (shutdown); running turns continue. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Tells every chat with a running or waiting turn that the daemon restarts (shutdown step ①). */
  async notifyShutdown(
    text = 'The agent is restarting; your request will be picked up again when it is back.',
  ): Promise<number> {
    // once per chat (and thread), however many of its messages wait
    const chats = new Map<string, ActiveTurn>();
    for (const t of this.active.values()) chats.set(`${t.chatId}\u0000${t.send.threadId ?? ''}`, t);
    await Promise.all([...chats.values()].map((t) => this.say(t.chatId, text, t.send)));
    return chats.size;
  }

  /**
   * Handles one inbound message (the seven steps). Never throws. Resolves once the message's
   * outcome is decided and its reply had a first delivery attempt.
   */
  async handleMessage(msg: InboundMessage): Promise<void> {
    const id = newInboundId();
    const chatId = msg.source.chatId ?? msg.source.userId;
    let receipted = false;
    const receipt = (r: InboundReceipt): void => {
      if (receipted) return;
      receipted = true;
      try {
        msg.onReceipt?.(r);
      } catch (err) {
        this.opts.log(`${this.opts.entry.name}: receipt handler failed: ${(err as Error).message}`);
      }
    };
    try {
      await this.handle({ ...msg, onReceipt: receipt }, id);
    } catch (err) {
      this.opts.log(`${this.opts.entry.name}: message handling failed: ${(err as Error).message}`);
      receipt({ kind: 'unavailable', id, reason: (err as Error).message });
      if (!chatId) return;
      await this.say(chatId, `Sorry, that failed: ${(err as Error).message}`, sendOptions(msg.source));
      this.outcome(chatId, id, 'error', (err as Error).message);
    }
  }

  private async handle(pending: InboundMessage, id: string): Promise<void> {
    const { source } = pending;
    let msg = pending;
    let text = wellFormedText(msg.text).trim();
    const chatId = source.chatId ?? source.userId;
    const receipt = msg.onReceipt ?? ((): void => undefined);
    /** Refuses the message: its sender's receipt and the logged drop name the same reason. */
    const refuse = (chat: string, reason: string): void => {
      receipt({ kind: 'refused', id, reason });
      this.ledger.note(chat, id, 'dropped', reason);
    };
    if (!chatId) return refuse('?', 'no chat to answer');
    let notes = attachmentNotes(msg);
    if (!text && !notes.length && !msg.fetchAttachments) return refuse(chatId, 'empty message');
    const send = sendOptions(source);
    if (!this.accepting && !this.durable) {
      receipt({ kind: 'unavailable', id, reason: 'the daemon is shutting down' });
      await this.say(chatId, 'The agent is restarting; please send that again in a minute.', send);
      return this.ledger.note(chatId, id, 'error', 'the daemon is shutting down');
    }
    const cfg = this.platformConfig();

    // 1. authorize
    const decision = this.authorizeSource(source, cfg);
    if (!decision.allowed) {
      refuse(chatId, 'access denied');
      if (decision.action === 'pair') await offerPairing(this, source, chatId, send);
      return;
    }
    const key = this.keyOf(source, cfg);
    let spooled: SpoolManifest | undefined;
    const inbound = (): string =>
      JSON.stringify({
        text,
        source: sourceToJson(source),
        ...(msg.ephemeral ? { ephemeral: true } : {}),
        // names and sizes; the bytes are in the spool once written (else a replay names them lost)
        ...(notes.length ? { attachments: notes } : {}),
        ...(spooled ? { spool: spooled } : {}),
        // a download not finished yet: a restart does it again from the adapter's reference
        ...(msg.fetchAttachments
          ? { fetching: true, ...(msg.attachmentsRef !== undefined ? { ref: msg.attachmentsRef } : {}) }
          : {}),
      });
    // recorded before its attachments are fetched: a redelivered copy is dropped without a download
    const accepted = this.ledger.accept({
      id,
      chatId,
      send,
      key,
      ...(msg.dedupeKey ? { externalId: msg.dedupeKey } : {}),
      inbound: inbound(),
    });
    if (accepted === 'duplicate') {
      receipt({ kind: 'duplicate', id });
      return this.ledger.note(chatId, id, 'dropped', 'duplicate');
    }
    this.acceptedHere.add(id);
    // attachments are fetched from the platform only now, for an authorized sender, once
    const fetched = msg.fetchAttachments !== undefined;
    if (msg.fetchAttachments) {
      msg = await resolveInboundAttachments(msg);
      text = wellFormedText(msg.text).trim();
      notes = attachmentNotes(msg);
      if (!text && !notes.length) {
        receipt({ kind: 'refused', id, reason: 'empty message' });
        return this.ledger.close(id, 'dropped', 'empty message');
      }
    }
    // the bytes are kept until the turn has them: a restart admits the message with them again
    if (notes.length) spooled = spoolAttachments(this, id, msg);
    if (fetched || spooled) this.ledger.amendInbound(id, inbound());
    receipt({ kind: 'accepted', id, durable: this.durable });
    if (!this.accepting) {
      // kept in the ledger: the restarted daemon admits it (pipeline-recovery.ts)
      await this.say(chatId, 'The agent is restarting; it will answer this when it is back.', send);
      return;
    }

    // 2–6 in arrival order per chat, up to the submission; then the turn runs in its session
    const admitted = await this.inLane(key, () =>
      admitMessage(this, msg, { id, text, chatId, send, cfg, key }),
    );
    if (admitted) await admitted.turn;
    if (msg.ephemeral) this.opts.store.reset(key, 'ephemeral');
  }

  /**
   * Admits again a message a previous daemon accepted and crashed before submitting (its row has
   * `inbound` and no prompt): authorized again, then steps 2–7 as if it had just arrived.
   * @returns false when the row holds no usable message.
   */
  async readmit(row: DeliveryRecord): Promise<boolean> {
    let data: (Record<string, unknown> & InboundAttachmentsJson) | null;
    try {
      data = JSON.parse(row.inbound ?? 'null') as typeof data;
    } catch {
      return false;
    }
    const source = sourceFromJson(data?.source);
    if (!data || !source || typeof data.text !== 'string' || !row.session_key) return false;
    const cfg = this.platformConfig();
    const decision = this.authorizeSource(source, cfg);
    if (!decision.allowed) {
      this.ledger.close(row.id, 'dropped', 'access denied');
      return true;
    }
    // its images and files come back (spooled, or downloaded again); what cannot is named lost
    const base = { source, text: data.text, ...(data.ephemeral ? { ephemeral: true } : {}) };
    const msg = await restoredMessage(this, row.id, data, base);
    if (!msg) return false;
    const text = msg.text;
    const m = {
      id: row.id,
      text,
      chatId: row.chat_id,
      send: sendOptions(source),
      cfg,
      key: row.session_key,
    };
    const admitted = await this.inLane(m.key, () => admitMessage(this, msg, m));
    if (admitted) await admitted.turn;
    if (msg.ephemeral) this.opts.store.reset(m.key, 'ephemeral');
    return true;
  }

  /**
   * Handles a pressed approval/clarify button. Never throws.
   * @returns what became of the press (the adapter may tell the presser).
   */
  async handleButton(press: ButtonPress): Promise<ButtonOutcome> {
    try {
      const q = this.questions.get(press.requestId);
      const chatId = press.source.chatId ?? press.source.userId;
      const send = sendOptions(press.source);
      if (!q || !chatId) return { kind: 'closed' };
      const cfg = this.platformConfig();
      const decision = this.authorizeSource(press.source, cfg);
      if (!decision.allowed) return { kind: 'refused', reason: 'You may not answer this question.' };
      if (this.keyOf(press.source, cfg) !== q.key) {
        await this.say(chatId, 'That question belongs to another conversation.', send);
        return { kind: 'refused', reason: 'That question belongs to another conversation.' };
      }
      if (!mayAnswer(q, press.source.userIdAlt || press.source.userId)) {
        const reason = q.kind === 'approval' ? NOT_THE_ASKER : NOT_THE_ASKER_CLARIFY;
        await this.say(chatId, reason, send);
        return { kind: 'refused', reason };
      }
      const policy = slashPolicyFor(cfg, press.source.chatType);
      if (q.kind === 'approval' && !policy.allows(press.source.userId, 'approve')) {
        await this.say(chatId, 'You may not answer approvals here.', send);
        return { kind: 'refused', reason: 'You may not answer approvals here.' };
      }
      q.answer(press.value);
      return { kind: 'answered' };
    } catch (err) {
      this.opts.log(`${this.opts.entry.name}: button handling failed: ${(err as Error).message}`);
      return { kind: 'closed' };
    }
  }

  /** Turn-level helpers for the command module. */
  get backend(): AgentBackend {
    return this.opts.backend;
  }
}

/** Where replies to a source go inside its chat. */
export function sendOptions(source: MessageSource): SendOptions {
  return {
    ...(source.threadId ? { threadId: source.threadId } : {}),
    ...(source.messageId ? { replyTo: source.messageId } : {}),
  };
}
