/**
 * Steps 2–6 of the pipeline (pipeline.ts) for one accepted message, up to the submission of its
 * prompt: a slash command or the answer to a pending clarify question ends there; else the
 * session's running turn is interrupted when `interrupt_on_message` is set, the session is got
 * or created (reset policies; a new one gets the untrusted context block in its system prompt),
 * attachments are saved and named, the sender's name prefixes the text in a shared session, and
 * the turn starts (pipeline-turn.ts).
 */
import type { InboundMessage, SendOptions } from './adapter.js';
import { buildSessionContextPrompt, prefixSender } from './context-prompt.js';
import type { MessagePipeline } from './pipeline.js';
import { runPlatformCommand } from './pipeline-commands.js';
import { prepareAttachments } from './pipeline-files.js';
import { recordPromptImages } from './pipeline-spool.js';
import { startTurn } from './pipeline-turn.js';
import type { PlatformConfig } from './platform-config.js';
import { resolveResetPolicy } from './reset-policy.js';
import { isSharedMultiUserSession } from './session-key.js';
import { parseCommand, slashPolicyFor } from './slash.js';
import type { MessageSource } from './source.js';
import { untrustedLabel } from './untrusted.js';

/** An accepted message on its way to a turn. */
export interface AdmittedMessage {
  /** The inbound message id (its ledger row). */
  id: string;
  /** The message text (trimmed). */
  text: string;
  chatId: string;
  send: SendOptions;
  /** The platform's config when the message was accepted. */
  cfg: PlatformConfig;
  /** The session key of the message's source. */
  key: string;
}

/**
 * Steps 2–6 for one accepted message of `p`, up to the submission of its prompt (run in the
 * message's lane: one message at a time per session key).
 * @returns the running turn, or undefined when none started (a command, a clarify answer).
 */
export async function admitMessage(
  p: MessagePipeline,
  msg: InboundMessage,
  m: AdmittedMessage,
): Promise<{ turn: Promise<void> } | undefined> {
  const { source } = msg;
  const { id, text, chatId, send, cfg, key } = m;

  // 2. slash commands; a pending clarify question takes its asker's next plain message as its answer
  const command = parseCommand(text);
  if (command) {
    const policy = slashPolicyFor(cfg, source.chatType);
    await runPlatformCommand(p, { command, source, key, chatId, send, policy, cfg });
    p.ledger.close(id, 'reply', `command /${command.name}`);
    return undefined;
  }
  const asker = source.userIdAlt || source.userId;
  if (text && p.questions.answerClarify(key, text, asker)) {
    p.ledger.close(id, 'answer');
    return undefined;
  }

  // 3. interrupt a running turn when configured
  const indexed = p.opts.store.get(key);
  if (cfg.interrupt_on_message && indexed && p.opts.backend.isBusy(indexed.session_id))
    p.opts.backend.interrupt(indexed.session_id);

  // 4. get or create the session
  const config = p.opts.config();
  const shared = isSharedMultiUserSession(source, {
    groupSessionsPerUser: cfg.group_sessions_per_user,
    threadSessionsPerUser: cfg.thread_sessions_per_user,
  });
  const redact = p.redactPii(cfg);
  const resolution = p.opts.store.getOrCreate({
    key,
    source,
    policy: resolveResetPolicy(
      cfg,
      source.chatType,
      p.opts.entry.defaultReset ?? config.gateway.session_reset,
    ),
    ...(config.timezone ? { timeZone: config.timezone } : {}),
    create: () =>
      p.opts.backend.createSession({
        key,
        source,
        // 5a. the untrusted context block, written once into the session's system prompt
        systemPromptExtra:
          buildSessionContextPrompt(source, {
            platformLabel: p.opts.entry.label,
            shared,
            redactPii: redact,
            ...(p.opts.entry.platformHint ? { platformHint: p.opts.entry.platformHint } : {}),
          }) + (msg.instructions ? `\n\n${msg.instructions}` : ''),
        title: sessionTitle(p.opts.entry.name, source, shared),
        cwd: cfg.cwd ?? p.opts.defaultCwd,
        ...(msg.history?.length ? { history: msg.history } : {}),
      }),
  });
  const sessionId = resolution.entry.session_id;
  if (resolution.resetReason && !p.opts.entry.quietResets) {
    const why = resolution.resetReason === 'idle' ? 'after a quiet period' : 'for the new day';
    await p.say(chatId, `(Started a new conversation ${why}.)`, send);
  }
  if (resolution.created)
    await p.emitHook('session:start', {
      session_id: sessionId,
      session_key: key,
      chat_type: source.chatType,
    });

  // 5b. attachments: files saved and named as untrusted data; images the model cannot see as files
  const att = await prepareAttachments(msg, sessionId, {
    home: p.opts.home,
    entry: p.opts.entry,
    backend: p.opts.backend,
    config,
    cfg,
    log: p.opts.log,
    ...(p.opts.transcribe ? { transcribe: p.opts.transcribe } : {}),
  });
  const fullText = att.filesText ? (text ? `${text}\n\n${att.filesText}` : att.filesText) : text;

  // 5c. the user message: in a shared session prefixed with the sender's name
  const userText = shared ? prefixSender(fullText, source, redact) : fullText;

  // 6. run the agent, 7. send the reply (pipeline-turn.ts)
  await p.emitHook('agent:start', { session_id: sessionId, session_key: key });
  const images = att.images.length ? { images: att.images } : {};
  // which of the message's images the turn has: a turn run again after a restart gets the same
  recordPromptImages(
    p,
    id,
    att.images.map((img) => (msg.images ?? []).indexOf(img)).filter((i) => i >= 0),
    msg.images,
  );
  const askerId = asker ? { askerId: asker } : {};
  // only the asker may answer the turn's approvals: when they may not approve, nobody here can
  const noApprover = slashPolicyFor(cfg, source.chatType).allows(source.userId, 'approve')
    ? {}
    : { mayApprove: false };
  return {
    turn: startTurn(p, {
      id,
      sessionId,
      key,
      chatId,
      send,
      userText,
      cfg,
      ...images,
      ...askerId,
      ...noApprover,
    }),
  };
}

/** Longest session title, in code points (the session store keeps at most 200 characters). */
const MAX_TITLE_CHARS = 120;

/**
 * Session title for lists: `irc #hermes · alice`. Names come from the chat: each is an inert
 * one-line label (`untrustedLabel`: no newlines, terminal escapes or bidi overrides), and the
 * title is capped at 120 code points.
 */
export function sessionTitle(platform: string, source: MessageSource, shared: boolean): string {
  // a name that is nothing but controls falls back to the id
  const chat = untrustedLabel(source.chatName) || untrustedLabel(source.chatId);
  const user = untrustedLabel(source.userName) || untrustedLabel(source.userId);
  const title =
    source.chatType === 'dm'
      ? `${platform} · ${user || chat}`
      : shared || !user
        ? `${platform} · ${chat}`
        : `${platform} · ${chat} · ${user}`;
  return untrustedLabel(title, MAX_TITLE_CHARS);
}
