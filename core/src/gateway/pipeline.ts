/**
 * The message pipeline of one platform in one profile (seed 000 §2): for every inbound message,
 * in order —
 *
 * 1. authorize (authz.ts; unknown DMs get a pairing code);
 * 2. slash commands (pipeline-commands.ts), and answers to a pending clarify question;
 * 3. interrupt the session's running turn when `interrupt_on_message` is set;
 * 4. get or create the session (session-store.ts: reset policies, recovery);
 * 5. build the context: the untrusted context block goes into a new session's system prompt;
 *    in a shared session the sender's name prefixes the user message;
 * 6. run the agent (backend.ts), streaming by edits where the platform can edit, asking
 *    approvals in the chat;
 * 7. send the reply: silence filter, optional runtime footer, split at the platform's limit.
 *
 * Rendering failures and hooks are contained: they are logged and never break a turn.
 */
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type {
  ApprovalChoiceName,
  ButtonPress,
  GatewayEvent,
  InboundMessage,
  PlatformAdapter,
  SendOptions,
} from './adapter.js';
import { authorize } from './authz.js';
import type { AgentBackend, TurnOutcome } from './backend.js';
import { buildSessionContextPrompt, prefixSender } from './context-prompt.js';
import { EditStreamer } from './edit-stream.js';
import { withFooter } from './footer.js';
import type { HookPayload, HookRegistry } from './hooks.js';
import type { PairingStore } from './pairing.js';
import { PendingQuestions } from './pending-questions.js';
import { runPlatformCommand } from './pipeline-commands.js';
import { platformConfigOf, type PlatformConfig } from './platform-config.js';
import type { PlatformEntry } from './registry.js';
import { resolveResetPolicy } from './reset-policy.js';
import { buildSessionKey, isSharedMultiUserSession } from './session-key.js';
import type { GatewaySessionStore } from './session-store.js';
import { isIntentionalSilence } from './silence.js';
import { parseCommand, SlashAccessPolicy } from './slash.js';
import type { MessageSource } from './source.js';
import { splitMessage } from './split.js';
import { hashPiiId } from './untrusted.js';

/** Everything one pipeline works with. */
export interface PipelineOptions {
  profile: string;
  home: HermesHome;
  entry: PlatformEntry;
  adapter: PlatformAdapter;
  backend: AgentBackend;
  store: GatewaySessionStore;
  pairing: PairingStore;
  hooks: HookRegistry;
  /** The profile's current config (read per message: allow-lists change without a restart). */
  config: () => HermesConfig;
  /** The profile's current secrets. */
  secrets: () => Secrets;
  /** Working directory of new sessions when `platforms.<p>.cwd` is not set. */
  defaultCwd: string;
  log: (line: string) => void;
}

/** A turn running for a chat (for shutdown notices). */
interface ActiveTurn {
  chatId: string;
  send: SendOptions;
}

/** Interval of repeated typing indicators while a turn runs, ms. */
const TYPING_EVERY_MS = 4_000;

/** The pipeline of one platform. */
export class MessagePipeline {
  readonly questions = new PendingQuestions();
  private readonly active = new Map<string, ActiveTurn>();
  private accepting = true;

  constructor(readonly opts: PipelineOptions) {}

  /** The platform's settings with defaults. */
  platformConfig(): PlatformConfig {
    return platformConfigOf(this.opts.config().platforms, this.opts.entry.name);
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
    const max = this.platformConfig().max_message_length ?? this.opts.adapter.maxMessageLength;
    for (const chunk of splitMessage(text, max)) {
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

  /** Tells every chat with a running turn that the daemon restarts (shutdown step ①). */
  async notifyShutdown(
    text = 'The agent is restarting; your request will be picked up again when it is back.',
  ): Promise<number> {
    const turns = [...this.active.values()];
    await Promise.all(turns.map((t) => this.say(t.chatId, text, t.send)));
    return turns.length;
  }

  /** Handles one inbound message (the seven steps). Never throws. */
  async handleMessage(msg: InboundMessage): Promise<void> {
    try {
      await this.handle(msg);
    } catch (err) {
      this.opts.log(`${this.opts.entry.name}: message handling failed: ${(err as Error).message}`);
      const chatId = msg.source.chatId;
      if (chatId)
        await this.say(chatId, `Sorry, that failed: ${(err as Error).message}`, sendOptions(msg.source));
    }
  }

  private async handle(msg: InboundMessage): Promise<void> {
    const { source } = msg;
    const text = msg.text.trim();
    if (!text || !this.accepting) return;
    const cfg = this.platformConfig();
    const chatId = source.chatId ?? source.userId;
    if (!chatId) return;
    const send = sendOptions(source);

    // 1. authorize
    const decision = authorize(source, {
      entry: this.opts.entry,
      config: cfg,
      secrets: this.opts.secrets(),
      pairing: this.opts.pairing,
    });
    if (!decision.allowed) {
      if (decision.action === 'pair') await this.offerPairing(source, chatId, send);
      return;
    }
    const key = this.keyOf(source, cfg);

    // 2. slash commands; a pending clarify question takes the next plain message as its answer
    const command = parseCommand(text);
    if (command) {
      const policy = new SlashAccessPolicy(cfg.admins, cfg.user_commands);
      await runPlatformCommand(this, { command, source, key, chatId, send, policy, cfg });
      return;
    }
    if (this.questions.answerClarify(key, text)) return;

    // 3. interrupt a running turn when configured
    const indexed = this.opts.store.get(key);
    if (cfg.interrupt_on_message && indexed && this.opts.backend.isBusy(indexed.session_id))
      this.opts.backend.interrupt(indexed.session_id);

    // 4. get or create the session
    const config = this.opts.config();
    const shared = isSharedMultiUserSession(source, {
      groupSessionsPerUser: cfg.group_sessions_per_user,
      threadSessionsPerUser: cfg.thread_sessions_per_user,
    });
    const redact = this.redactPii(cfg);
    const resolution = this.opts.store.getOrCreate({
      key,
      source,
      policy: resolveResetPolicy(cfg, source.chatType, config.gateway.session_reset),
      ...(config.timezone ? { timeZone: config.timezone } : {}),
      create: () =>
        this.opts.backend.createSession({
          key,
          source,
          // 5a. the untrusted context block, written once into the session's system prompt
          systemPromptExtra: buildSessionContextPrompt(source, {
            platformLabel: this.opts.entry.label,
            shared,
            redactPii: redact,
            ...(this.opts.entry.platformHint ? { platformHint: this.opts.entry.platformHint } : {}),
          }),
          title: sessionTitle(this.opts.entry.name, source, shared),
          cwd: cfg.cwd ?? this.opts.defaultCwd,
        }),
    });
    const sessionId = resolution.entry.session_id;
    if (resolution.resetReason && !this.opts.entry.quietResets) {
      const why = resolution.resetReason === 'idle' ? 'after a quiet period' : 'for the new day';
      await this.say(chatId, `(Started a new conversation ${why}.)`, send);
    }
    if (resolution.created)
      await this.emitHook('session:start', {
        session_id: sessionId,
        session_key: key,
        chat_type: source.chatType,
      });

    // 5b. the user message: in a shared session prefixed with the sender's name
    const userText = shared ? prefixSender(text, source, redact) : text;

    // 6. run the agent, 7. send the reply
    await this.runAndReply({ sessionId, key, source, chatId, send, userText, cfg, redact });
    if (msg.ephemeral) this.opts.store.reset(key, 'ephemeral');
  }

  private async offerPairing(source: MessageSource, chatId: string, send: SendOptions): Promise<void> {
    const userId = source.userIdAlt || source.userId!;
    let result;
    try {
      result = this.opts.pairing.generateCode(this.opts.entry.name, userId, source.userName ?? '');
    } catch (err) {
      this.opts.log(`${this.opts.entry.name}: pairing failed: ${(err as Error).message}`);
      return;
    }
    if (result.ok) {
      // The code goes to this user only, never into a log line.
      this.opts.log(`${this.opts.entry.name}: pairing code issued to an unknown user (${hashPiiId(userId)})`);
      const profileFlag = this.opts.profile === 'default' ? '' : ` -p ${this.opts.profile}`;
      await this.say(
        chatId,
        `I don't know you yet. Your pairing code is ${result.code} (valid for 1 hour). ` +
          `Ask the owner of this agent to run: hermes${profileFlag} pairing approve ${result.code}`,
        send,
      );
    } else if (result.reason !== 'rate_limited') {
      await this.say(chatId, 'Pairing is not possible right now; please try again later.', send);
    }
  }

  private async runAndReply(t: {
    sessionId: string;
    key: string;
    source: MessageSource;
    chatId: string;
    send: SendOptions;
    userText: string;
    cfg: PlatformConfig;
    redact: boolean;
  }): Promise<void> {
    const { adapter, backend, entry } = this.opts;
    const { sessionId, key, chatId, send, cfg } = t;
    const turnId = `${sessionId}:${Math.random().toString(36).slice(2)}`;
    this.active.set(turnId, { chatId, send });
    const streamer =
      adapter.canEdit && cfg.streaming
        ? new EditStreamer({ adapter, chatId, send, intervalMs: cfg.edit_interval_ms })
        : undefined;
    // outbound side messages (tool lines, approval notes) keep their order
    let outbound: Promise<void> = Promise.resolve();
    const queue = (fn: () => Promise<unknown>): void => {
      outbound = outbound.then(fn).then(
        () => undefined,
        (err: Error) => this.opts.log(`${entry.name}: rendering failed: ${err.message}`),
      );
    };
    const answeredHere = new Set<string>();
    const typing = (): void => void adapter.sendTyping(chatId, send).catch(() => undefined);
    typing();
    const typingTimer = setInterval(typing, TYPING_EVERY_MS);
    typingTimer.unref?.();

    const onEvent = (ev: GatewayEvent): void => {
      try {
        if (ev.type === 'message.start') streamer?.restart();
        else if (ev.type === 'message.delta' && typeof ev.payload.text === 'string')
          streamer?.push(ev.payload.text);
        else if (ev.type === 'session.compressed')
          this.opts.store.moved(
            String(ev.payload.parent_session_id ?? ''),
            String(ev.payload.session_id ?? ''),
          );
        else if (ev.type === 'tool.complete')
          void this.emitHook('agent:step', { session_id: sessionId, ...ev.payload });
        else if (ev.type === 'request.resolved') {
          const id = String(ev.payload.request_id ?? '');
          if (id && !answeredHere.has(id) && String(ev.payload.by ?? '').startsWith('connection:')) {
            const choice = String(ev.payload.choice ?? '');
            queue(() => this.say(chatId, `(Answered in a terminal: ${choice || 'no answer'}.)`, send));
          }
        }
        adapter.onTurnEvent(chatId, ev);
        const line = adapter.formatEvent(ev);
        if (line) queue(() => this.say(chatId, line, send));
      } catch (err) {
        this.opts.log(`${entry.name}: event rendering failed: ${(err as Error).message}`);
      }
    };

    await this.emitHook('agent:start', { session_id: sessionId, session_key: key });
    let outcome: TurnOutcome;
    try {
      outcome = await backend.runTurn(sessionId, t.userText, {
        onEvent,
        onApproval: async (prompt, signal) => {
          const answer = this.questions.ask(
            {
              kind: 'approval',
              requestId: prompt.requestId,
              key,
              onAnswered: () => answeredHere.add(prompt.requestId),
            },
            signal,
          );
          queue(() => adapter.sendApproval(chatId, prompt, send));
          return (await answer) as ApprovalChoiceName;
        },
        onClarify: async (prompt, signal) => {
          const answer = this.questions.ask(
            {
              kind: 'clarify',
              requestId: prompt.requestId,
              key,
              ...(prompt.choices ? { choices: prompt.choices } : {}),
              onAnswered: () => answeredHere.add(prompt.requestId),
            },
            signal,
          );
          queue(() => adapter.sendClarify(chatId, prompt, send));
          return answer;
        },
      });
    } catch (err) {
      outcome = { status: 'error', text: '', error: (err as Error).message };
    } finally {
      clearInterval(typingTimer);
      this.active.delete(turnId);
    }
    await outbound;
    await this.reply(t, outcome, streamer);
    this.opts.store.touch(key);
    await this.emitHook('agent:end', { session_id: sessionId, session_key: key, status: outcome.status });
  }

  /** Step 7: silence filter, footer, split, send (or the final edit of a streamed reply). */
  private async reply(
    t: { sessionId: string; chatId: string; send: SendOptions; cfg: PlatformConfig },
    outcome: TurnOutcome,
    streamer: EditStreamer | undefined,
  ): Promise<void> {
    let text: string;
    if (outcome.status === 'error') {
      text = `Sorry, something went wrong: ${outcome.error ?? 'unknown error'}`;
    } else if (isIntentionalSilence(outcome.text)) {
      text = '';
    } else if (outcome.status === 'interrupted') {
      text = outcome.text.trim() ? `${outcome.text.trim()}\n[stopped]` : '';
    } else if (!outcome.text.trim()) {
      text = 'The agent finished without a reply.';
    } else {
      text = outcome.text;
    }
    if (text && outcome.status !== 'error' && t.cfg.footer) {
      const s = this.opts.backend.status(t.sessionId);
      if (s)
        text = withFooter(text, {
          model: s.model,
          contextTokens: s.contextTokens,
          contextWindow: s.contextWindow,
          cwd: s.cwd,
        });
    }
    if (streamer) {
      await streamer
        .finish(text, '(no reply)')
        .catch((err: Error) => this.opts.log(`stream finish failed: ${err.message}`));
      return;
    }
    if (text) await this.say(t.chatId, text, { ...t.send, kind: 'reply' });
  }

  /** Handles a pressed approval/clarify button. Never throws. */
  async handleButton(press: ButtonPress): Promise<void> {
    try {
      const q = this.questions.get(press.requestId);
      const chatId = press.source.chatId ?? press.source.userId;
      const send = sendOptions(press.source);
      if (!q || !chatId) return;
      const cfg = this.platformConfig();
      const decision = authorize(press.source, {
        entry: this.opts.entry,
        config: cfg,
        secrets: this.opts.secrets(),
        pairing: this.opts.pairing,
      });
      if (!decision.allowed) return;
      if (this.keyOf(press.source, cfg) !== q.key) {
        await this.say(chatId, 'That question belongs to another conversation.', send);
        return;
      }
      const policy = new SlashAccessPolicy(cfg.admins, cfg.user_commands);
      if (q.kind === 'approval' && !policy.allows(press.source.userId, 'approve')) {
        await this.say(chatId, 'You may not answer approvals here.', send);
        return;
      }
      q.answer(press.value);
    } catch (err) {
      this.opts.log(`${this.opts.entry.name}: button handling failed: ${(err as Error).message}`);
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

/** Session title for lists: `irc #hermes · alice`. */
function sessionTitle(platform: string, source: MessageSource, shared: boolean): string {
  const chat = source.chatName || source.chatId || '';
  const user = source.userName || source.userId || '';
  if (source.chatType === 'dm') return `${platform} · ${user || chat}`;
  return shared || !user ? `${platform} · ${chat}` : `${platform} · ${chat} · ${user}`;
}
