/**
 * Steps 6 and 7 of the pipeline for one accepted message: run the agent (streaming by edits
 * where the platform can edit, asking approvals in the chat) and turn its outcome into exactly
 * one outcome of the message — a reply or a visible error handed to the delivery ledger, the
 * model's silence, or a logged drop. A prompt a shutdown kept (`held`, or cut by the drain)
 * stays open in the ledger for the restart (pipeline-recovery.ts).
 */
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import { approvalText, type ApprovalChoiceName, type TurnEvent, type SendOptions } from './adapter.js';
import type { TurnOutcome, TurnSink } from './backend.js';
import { EditStreamer } from './edit-stream.js';
import { withFooter } from './footer.js';
import type { MessagePipeline } from './pipeline.js';
import type { PlatformConfig } from './platform-config.js';
import { STREAMED_AS_FILE_TEXT } from './long-reply.js';
import { isSilenceFor } from './silence.js';

/** Interval of repeated typing indicators while a turn runs, ms. */
const TYPING_EVERY_MS = 4_000;

/** One turn to run for an accepted message. */
export interface TurnRequest {
  /** The inbound message id: its ledger row and the prompt's `origin`. */
  id: string;
  sessionId: string;
  key: string;
  chatId: string;
  send: SendOptions;
  /** The user message as the model sees it (prefixed with the sender in shared sessions). */
  userText: string;
  cfg: PlatformConfig;
  /** Images sent with the message, handed to the backend. */
  images?: ImageAttachmentInput[];
  /** The sender's user id (`userIdAlt || userId`): the only chat user who may answer its questions. */
  askerId?: string;
  /**
   * False when the sender may not answer approvals in this chat (`admins` set, they are not one,
   * and `approve` is not among the user commands): nobody in the chat can approve this turn's
   * commands. Absent: they may.
   */
  mayApprove?: boolean;
}

/**
 * Submits the prompt — synchronously, so prompts of one session queue in the order of the
 * calls — and returns a promise that settles once the message's outcome is decided and its
 * reply had a first delivery attempt.
 */
export function startTurn(p: MessagePipeline, t: TurnRequest): Promise<void> {
  const { adapter, backend, entry } = p.opts;
  const { key, chatId, send, cfg, id } = t;
  let sessionId = t.sessionId;
  const streamer =
    adapter.canEdit && cfg.streaming
      ? new EditStreamer({ adapter, chatId, send, intervalMs: cfg.edit_interval_ms })
      : undefined;
  // outbound side messages (tool lines, approval notes) keep their order
  let outbound: Promise<void> = Promise.resolve();
  const queue = (fn: () => Promise<unknown>): void => {
    outbound = outbound.then(fn).then(
      () => undefined,
      (err: Error) => p.opts.log(`${entry.name}: rendering failed: ${err.message}`),
    );
  };
  const answeredHere = new Set<string>();
  let typingTimer: NodeJS.Timeout | undefined;

  const onEvent = (ev: TurnEvent): void => {
    try {
      if (ev.type === 'message.start') streamer?.restart();
      else if (ev.type === 'message.delta' && typeof ev.payload.text === 'string')
        streamer?.push(ev.payload.text);
      else if (ev.type === 'session.compressed') {
        const next = String(ev.payload.session_id ?? '');
        p.opts.store.moved(String(ev.payload.parent_session_id ?? ''), next);
        if (next) {
          sessionId = next;
          p.ledger.moved(id, next);
        }
      } else if (ev.type === 'tool.complete')
        void p.emitHook('agent:step', { session_id: sessionId, ...ev.payload });
      else if (ev.type === 'request.resolved') {
        const rid = String(ev.payload.request_id ?? '');
        // answered by a client of the daemon (a TUI: `client:<instance>`, else `connection:<id>`)
        const by = String(ev.payload.by ?? '');
        if (rid && !answeredHere.has(rid) && (by.startsWith('client:') || by.startsWith('connection:'))) {
          const choice = String(ev.payload.choice ?? '');
          queue(() => p.say(chatId, `(Answered in a terminal: ${choice || 'no answer'}.)`, send));
        }
      }
      adapter.onTurnEvent(chatId, ev);
      const line = adapter.formatEvent(ev);
      if (line) queue(() => p.say(chatId, line, send));
    } catch (err) {
      p.opts.log(`${entry.name}: event rendering failed: ${(err as Error).message}`);
    }
  };

  const sink: TurnSink = {
    onEvent,
    onStart: (promptId) => {
      try {
        p.ledger.started(id, { promptId, afterMessageId: p.lastMessageId(sessionId) });
      } catch (err) {
        p.opts.log(`${entry.name}: cannot record the start of ${id}: ${(err as Error).message}`);
      }
      const typing = (): void => void adapter.sendTyping(chatId, send).catch(() => undefined);
      typing();
      clearInterval(typingTimer);
      typingTimer = setInterval(typing, TYPING_EVERY_MS);
      typingTimer.unref?.();
    },
    onApproval: async (prompt, signal) => {
      if (!adapter.canAskApprovals) {
        // nobody on this lane can answer: say so to the caller, deny as `no_approver`
        answeredHere.add(prompt.requestId);
        queue(() => adapter.sendApproval(chatId, prompt, send));
        return { choice: 'deny', reason: 'no_approver' };
      }
      if (t.mayApprove === false && !p.opts.config().approvals.escalate_to) {
        // the asker may not approve and nothing escalates it to someone who may: deny at once
        // rather than leave buttons nobody may press until the timeout
        answeredHere.add(prompt.requestId);
        const what = prompt.command.length > 200 ? `${prompt.command.slice(0, 199)}…` : prompt.command;
        queue(() =>
          p.say(
            chatId,
            `This needs an approval that you may not approve in this chat, so it was denied: ${what}\n` +
              'An admin of this chat, or a terminal (hermes tui), can run it.',
            send,
          ),
        );
        return { choice: 'deny', reason: 'no_approver' };
      }
      const answer = p.questions.ask(
        {
          kind: 'approval',
          requestId: prompt.requestId,
          key,
          ...(t.askerId ? { askerId: t.askerId } : {}),
          onAnswered: () => answeredHere.add(prompt.requestId),
        },
        signal,
      );
      queue(async () => {
        const sent = await adapter.sendApproval(chatId, prompt, send).catch((e: Error) => ({
          ok: false,
          error: e.message,
        }));
        // a question the chat refused (buttons, length) goes again as plain text, answerable by
        // /approve or /deny, rather than waiting unseen until the timeout denies it
        if (sent.ok || !p.questions.has(prompt.requestId)) return;
        p.opts.log(
          `${entry.name}: the approval question could not be sent (${sent.error ?? 'unknown'}); sent as text`,
        );
        await p.say(chatId, approvalText(prompt), send);
      });
      return (await answer) as ApprovalChoiceName;
    },
    onClarify: async (prompt, signal) => {
      const answer = p.questions.ask(
        {
          kind: 'clarify',
          requestId: prompt.requestId,
          key,
          ...(t.askerId ? { askerId: t.askerId } : {}),
          ...(prompt.choices ? { choices: prompt.choices } : {}),
          onAnswered: () => answeredHere.add(prompt.requestId),
        },
        signal,
      );
      queue(() => adapter.sendClarify(chatId, prompt, send));
      return answer;
    },
  };

  p.trackTurn(id, chatId, send);
  p.ledger.submitted(id, { sessionId, promptText: t.userText });
  let running: Promise<TurnOutcome>;
  try {
    running = backend.runTurn(sessionId, t.userText, sink, {
      origin: id,
      ...(t.images?.length ? { images: t.images } : {}),
    });
  } catch (err) {
    running = Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  return (async () => {
    let outcome: TurnOutcome;
    try {
      outcome = await running;
    } catch (err) {
      outcome = { status: 'error', text: '', error: (err as Error).message };
    } finally {
      clearInterval(typingTimer);
      p.untrackTurn(id);
    }
    await outbound;
    await finishTurn(p, { ...t, sessionId }, outcome, streamer);
    p.opts.store.touch(key);
    await p.emitHook('agent:end', { session_id: sessionId, session_key: key, status: outcome.status });
  })();
}

/** The reply to send for a turn's outcome (`''`: nothing), and whether it is an error notice. */
export function replyFor(
  p: MessagePipeline,
  t: { sessionId: string; cfg: PlatformConfig },
  outcome: TurnOutcome,
): { text: string; error: boolean } {
  let text: string;
  if (outcome.status === 'error') {
    return { text: `Sorry, something went wrong: ${outcome.error ?? 'unknown error'}`, error: true };
  } else if (isSilenceFor(outcome.text, p.opts.adapter.autonomous ? 'autonomous' : 'interactive')) {
    text = '';
  } else if (outcome.status === 'interrupted') {
    text = outcome.text.trim() ? `${outcome.text.trim()}\n[stopped]` : '';
  } else if (!outcome.text.trim()) {
    text = 'The agent finished without a reply.';
  } else {
    text = outcome.text;
  }
  if (text && t.cfg.footer) {
    const s = p.opts.backend.status(t.sessionId);
    if (s)
      text = withFooter(text, {
        model: s.model,
        contextTokens: s.contextTokens,
        contextWindow: s.contextWindow,
        cwd: s.cwd,
      });
  }
  return { text, error: false };
}

/**
 * Step 7: decides the message's outcome from the turn's and sends the reply through the ledger
 * (or by the final edit of a streamed reply).
 */
export async function finishTurn(
  p: MessagePipeline,
  t: Pick<TurnRequest, 'id' | 'sessionId' | 'cfg'>,
  outcome: TurnOutcome,
  streamer?: EditStreamer,
): Promise<void> {
  const { ledger } = p;
  if (streamer) await streamer.stop();
  // a shutdown kept the prompt, or its drain cut the turn: the restart picks it up again
  const keptForRestart = outcome.status === 'held' || (outcome.status === 'interrupted' && !p.isAccepting);
  if (keptForRestart && p.durable) {
    // a reply streamed so far is finished as stopped; the message is answered after the restart
    if (streamer?.started)
      await streamer
        .finish(replyFor(p, t, outcome).text, '(stopped)')
        .catch((e: Error) => p.opts.log(`stream finish failed: ${e.message}`));
    return;
  }
  // the turn is over: the message's attachments are no longer needed for a restart (the ledger's
  // close or deliver below drops them too; this covers an outcome that sends nothing at all)
  p.spool?.drop(t.id);
  if (outcome.status === 'held' || outcome.status === 'dropped') {
    ledger.close(
      t.id,
      'dropped',
      outcome.status === 'held' ? 'the daemon stopped' : 'discarded from the queue',
    );
    return;
  }
  const { text, error } = replyFor(p, t, outcome);
  if (!text) {
    if (streamer?.started)
      await streamer
        .finish('', '(no reply)')
        .catch((e: Error) => p.opts.log(`stream finish failed: ${e.message}`));
    if (outcome.status === 'interrupted') ledger.close(t.id, 'dropped', 'stopped before a reply');
    else ledger.close(t.id, 'silence');
    return;
  }
  const fileAbove = p.longReplyFileAbove();
  if (streamer?.started && !error && fileAbove > 0 && text.length > fileAbove) {
    // the streamed message gives way to the file the ledger sends
    await streamer
      .finish(STREAMED_AS_FILE_TEXT)
      .catch((e: Error) => p.opts.log(`stream finish failed: ${e.message}`));
    await ledger.deliver(t.id, text, 'reply');
    return;
  }
  if (streamer?.started) {
    await streamer
      .finish(text, '(no reply)')
      .then(() => ledger.delivered(t.id))
      .catch((e: Error) => {
        p.opts.log(`stream finish failed: ${e.message}`);
        return ledger.deliver(t.id, text, error ? 'error' : 'reply');
      });
    return;
  }
  await ledger.deliver(t.id, text, error ? 'error' : 'reply');
}
