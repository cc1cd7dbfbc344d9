/**
 * The platform adapter base. Four operations are required — `connect`,
 * `disconnect`, `send`, `getChatInfo` — and everything else has a default that degrades to
 * plain text: images and voice become a line of text, approval and clarify questions become a
 * message that names the `/approve` / `/deny` commands, typing indicators do nothing, and a
 * platform that cannot edit messages gets the reply in one piece at the end instead of a
 * streaming edit.
 *
 * The host of the pipeline (pipeline.ts) sets the handlers; an adapter calls `emitMessage` for every inbound
 * message and `emitButton` for a pressed approval button. Errors thrown by handlers are caught
 * and logged so a bad message never kills a listener loop.
 */
import type { ApprovalChoice, ApprovalDenyReason } from '../protocol/approval-choices.js';
import type { ChatType, MessageSource } from './source.js';
import type { FetchedAttachments, InboundMessage, InboundReceipt } from './inbound-message.js';

export type {
  FetchedAttachments,
  InboundFile,
  InboundMessage,
  InboundReceipt,
  SeedMessage,
} from './inbound-message.js';

/** Choices of an approval question (the protocol's one list, protocol/approval-choices.ts). */
export type ApprovalChoiceName = ApprovalChoice;

/**
 * An approval answer with why it was denied, when no person decided: `no_approver` — the chat
 * (or API) has no one who could approve (`PlatformAdapter.canAskApprovals` false).
 */
export interface ApprovalReply {
  choice: ApprovalChoiceName;
  reason?: ApprovalDenyReason;
}

/** Options of an outbound message. */
export interface SendOptions {
  /** Thread / topic inside the chat. */
  threadId?: string;
  /** Platform id of the message this one answers. */
  replyTo?: string;
  /**
   * `reply`: the agent's final reply of a turn. An adapter that already streamed the turn's text
   * through `onTurnEvent` may skip it (or send only what was not streamed, e.g. the footer).
   */
  kind?: 'reply';
  /**
   * The delivery ledger's id of this outbound message (`<inbound id>#<chunk>`), the same on every
   * retry and after a restart: an idempotency key for platforms that can pass one on.
   */
  deliveryId?: string;
}

/** Outcome of a send or edit. Adapters report failures here instead of throwing. */
export interface SendResult {
  ok: boolean;
  /** Platform id of the message sent (needed for edits). */
  messageId?: string;
  /** What went wrong (no secrets in it). */
  error?: string;
  /**
   * False when the platform refused for good (unknown chat, forbidden, malformed): retrying
   * cannot help. A failure without it is retried (delivery-ledger.ts).
   */
  retryable?: boolean;
}

/** What `getChatInfo` reports; names and topics are untrusted text. */
export interface ChatInfo {
  name: string;
  type: ChatType;
  topic?: string;
}

/** An approval question to show in a chat. */
export interface ApprovalPrompt {
  /** Id to echo back in a button press. */
  requestId: string;
  /** The command to approve (written by the model). */
  command: string;
  /** Why it needs approval. */
  description: string;
  choices: readonly ApprovalChoiceName[];
  /** A file edit waiting to be written (`approvals.edits: ask`): its unified diff. */
  diff?: string;
}

/** Most characters of an edit's diff put into a chat message (head kept). */
export const CHAT_DIFF_MAX_CHARS = 3_000;

/** A clarify question to show in a chat. */
export interface ClarifyPrompt {
  requestId: string;
  question: string;
  choices?: readonly string[];
}

/** A pressed button of an approval or clarify prompt. */
export interface ButtonPress {
  /** Who pressed it, where (authorization is checked against this). */
  source: MessageSource;
  requestId: string;
  /** The choice (`once`/`session`/`always`/`deny`, or a clarify answer). */
  value: string;
}

/**
 * What the host did with a pressed button, so an adapter can answer the presser (an ephemeral
 * note, an edited prompt): `answered` — the question took the value; `refused` — the presser may
 * not answer it (`reason` is safe to show to the presser); `closed` — no such question is open
 * (answered before, timed out, or unknown).
 */
export type ButtonOutcome = { kind: 'answered' } | { kind: 'refused'; reason: string } | { kind: 'closed' };

/** An agent event the adapter may render (tool progress and the like). */
export interface TurnEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** Set by the host on every adapter (the message pipeline and reconnects). */
export interface AdapterHandlers {
  onMessage(message: InboundMessage): void | Promise<void>;
  onButton?(press: ButtonPress): void | ButtonOutcome | Promise<void | ButtonOutcome>;
  /**
   * Whether the platform's access rules admit `source` now, without side effects (the pipeline's
   * `isAuthorized`). Adapters ask it before a request that only an admitted sender should cause
   * (a user's or room's name, a mail's body): a cost filter, never the decision itself.
   */
  isAuthorized?(source: MessageSource): boolean;
  /**
   * The adapter lost its established connection and will not reconnect by itself: the host
   * disconnects it and calls `connect` again on its reconnect schedule.
   */
  onFatalError?(error: Error): void;
}

/** Text form of an approval question, used by adapters without buttons. */
export function approvalText(prompt: ApprovalPrompt): string {
  const lines = [
    prompt.diff !== undefined
      ? `Approval needed to write: ${prompt.command}`
      : `Approval needed to run: ${prompt.command}`,
  ];
  if (prompt.description) lines.push(`Reason: ${prompt.description}`);
  if (prompt.diff !== undefined)
    lines.push(
      prompt.diff.length > CHAT_DIFF_MAX_CHARS
        ? `${prompt.diff.slice(0, CHAT_DIFF_MAX_CHARS)}\n… (${prompt.diff.length - CHAT_DIFF_MAX_CHARS} more characters)`
        : prompt.diff,
    );
  const opts: string[] = [];
  if (prompt.choices.includes('once')) opts.push('/approve');
  if (prompt.choices.includes('session')) opts.push('/approve session');
  if (prompt.choices.includes('always')) opts.push('/approve always');
  if (prompt.choices.includes('deny')) opts.push('/deny');
  lines.push(`Reply ${opts.join(', ')}.`);
  return lines.join('\n');
}

/** Text form of a clarify question, used by adapters without buttons. */
export function clarifyText(prompt: ClarifyPrompt): string {
  const choices = prompt.choices?.length
    ? `\n${prompt.choices.map((c, i) => `${i + 1}. ${c}`).join('\n')}\nReply with a number or your own answer.`
    : '\nReply with your answer.';
  return `Question: ${prompt.question}${choices}`;
}

/** Options every adapter takes. */
export interface AdapterOptions {
  /** Longest message the platform accepts, characters (0: no limit). */
  maxMessageLength?: number;
  /** Operational log (never pass secrets or pairing codes). */
  log?: (line: string) => void;
}

/** Base class of every platform adapter. */
export abstract class PlatformAdapter {
  /** Registry name (`irc`, `telegram` …). */
  readonly platform: string;
  /** Longest message the platform accepts, characters (0: no limit); the pipeline splits above it. */
  maxMessageLength: number;
  protected readonly log: (line: string) => void;
  private handlers: AdapterHandlers | undefined;

  constructor(platform: string, opts: AdapterOptions = {}) {
    this.platform = platform;
    this.maxMessageLength = opts.maxMessageLength ?? 0;
    this.log = opts.log ?? (() => undefined);
  }

  /** Installs the host's handlers (before `connect`). */
  setHandlers(handlers: AdapterHandlers): void {
    this.handlers = handlers;
  }

  /**
   * Whether the host admits `source` now (`AdapterHandlers.isAuthorized`); true when the host does
   * not say or the check fails, so a lookup is skipped only for a sender known to be refused.
   */
  protected senderAdmitted(source: MessageSource): boolean {
    try {
      return this.handlers?.isAuthorized?.(source) ?? true;
    } catch {
      return true;
    }
  }

  /** Hands an inbound message to the host; never throws. */
  protected async emitMessage(message: InboundMessage): Promise<void> {
    try {
      await this.handlers?.onMessage(message);
    } catch (err) {
      this.log(`${this.platform}: message handler failed: ${(err as Error).message}`);
    }
  }

  /**
   * Hands an inbound message to the host and resolves with its receipt (see `InboundReceipt`) as
   * soon as the pipeline decided — before the turn runs. `unavailable` when no host is set, the
   * handler failed or finished without deciding, or no decision came within `timeoutMs` (not
   * counting the time the message's `fetchAttachments` runs: downloads have their own timeouts).
   * Never throws; the turn goes on in the background.
   */
  protected emitMessageWithReceipt(
    message: Omit<InboundMessage, 'onReceipt'>,
    id: string,
    timeoutMs = 10_000,
  ): Promise<InboundReceipt> {
    return new Promise<InboundReceipt>((resolve) => {
      let done = false;
      const settle = (r: InboundReceipt): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(r);
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        timer = setTimeout(
          () => settle({ kind: 'unavailable', id, reason: 'no decision in time' }),
          timeoutMs,
        );
        timer.unref?.();
      };
      arm();
      if (!this.handlers) return settle({ kind: 'unavailable', id, reason: 'the adapter has no host' });
      const fetch = message.fetchAttachments;
      const timed = fetch
        ? {
            fetchAttachments: async (): Promise<FetchedAttachments> => {
              clearTimeout(timer);
              try {
                return await fetch();
              } finally {
                if (!done) arm();
              }
            },
          }
        : {};
      void this.emitMessage({ ...message, ...timed, onReceipt: settle }).finally(() =>
        settle({ kind: 'unavailable', id, reason: 'the message was not handled' }),
      );
    });
  }

  /**
   * Hands a button press to the host; never throws.
   * @returns what the host did with it (undefined: a host that does not say, or a failure).
   */
  protected async emitButton(press: ButtonPress): Promise<ButtonOutcome | undefined> {
    try {
      return (await this.handlers?.onButton?.(press)) ?? undefined;
    } catch (err) {
      this.log(`${this.platform}: button handler failed: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Reports a permanent connection loss to the host. */
  protected emitFatal(error: Error): void {
    try {
      this.handlers?.onFatalError?.(error);
    } catch {
      /* reporting must not throw */
    }
  }

  // ── required ─────────────────────────────────────────────────────────────────────────────

  /**
   * Connects and starts listening.
   * @throws Error when the platform cannot be reached or refuses the credentials. The host then
   *   calls `disconnect()` so a half-open connection or a started poller does not leak.
   */
  abstract connect(): Promise<void>;

  /** Stops listening and closes connections; idempotent, never throws. */
  abstract disconnect(): Promise<void>;

  /**
   * Downloads again the attachments of a message whose download a restart cut short, from the
   * `InboundMessage.attachmentsRef` it was received with (read back from the delivery ledger: a
   * damaged one gives a note, never a throw). Absent on platforms without lazy attachments.
   */
  refetchAttachments?(ref: unknown): Promise<FetchedAttachments>;

  /** Sends one text message (already split to `maxMessageLength`). */
  abstract send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult>;

  /** Name and type of a chat (at least). */
  abstract getChatInfo(chatId: string): Promise<ChatInfo>;

  // ── optional, with plain-text defaults ───────────────────────────────────────────────────

  /** True when `editMessage` works (enables edit-streaming). */
  get canEdit(): boolean {
    return false;
  }

  /**
   * True for a machine-to-machine lane (a webhook) whose replies are judged by the autonomous
   * silence rule (a marker on the first or last line also means "send nothing"); false for chats,
   * which use the exact rule (messaging/silence.ts).
   */
  get autonomous(): boolean {
    return false;
  }

  /** True when approvals are shown with buttons (then `/approve` still works as a fallback). */
  get hasButtons(): boolean {
    return false;
  }

  /**
   * False for a lane where no one can answer an approval (the HTTP API server): the pipeline then
   * denies each request at once as `no_approver` — the model is told no one could approve it
   * there, not that the user denied it — and `sendApproval` only tells the caller.
   */
  get canAskApprovals(): boolean {
    return true;
  }

  /** True when the adapter overrides `sendFile` with a real upload (long replies may go as files). */
  get canUploadFiles(): boolean {
    return this.sendFile !== PlatformAdapter.prototype.sendFile;
  }

  /** Replaces the text of a sent message. Default: not supported. */
  async editMessage(
    _chatId: string,
    _messageId: string,
    _text: string,
    _opts?: SendOptions,
  ): Promise<SendResult> {
    return { ok: false, error: 'editing is not supported on this platform' };
  }

  /** Shows a typing indicator. Default: nothing. */
  async sendTyping(_chatId: string, _opts?: SendOptions): Promise<void> {}

  /** Sends an image. Default: a text line with the caption and the location. */
  async sendImage(
    chatId: string,
    image: { url?: string; path?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    const where = image.url ?? image.path ?? '';
    return this.send(chatId, `[image] ${image.caption ?? ''} ${where}`.replace(/\s+/g, ' ').trim(), opts);
  }

  /**
   * Sends a file (a long reply, a document the agent made). Default: a text line naming it; an
   * adapter whose platform takes uploads overrides it.
   */
  async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    return this.send(
      chatId,
      `[file] ${file.name} (${file.data.length} bytes) ${file.caption ?? ''}`.trim(),
      opts,
    );
  }
  /** Sends a voice message. Default: the transcript as text. */
  async sendVoice(
    chatId: string,
    audio: { url?: string; path?: string; transcript?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    return this.send(chatId, `[voice] ${audio.transcript ?? audio.url ?? audio.path ?? ''}`.trim(), opts);
  }

  /** Asks for approval of a command. Default: a text message naming /approve and /deny. */
  async sendApproval(chatId: string, prompt: ApprovalPrompt, opts?: SendOptions): Promise<SendResult> {
    return this.send(chatId, approvalText(prompt), opts);
  }

  /** Asks a clarify question. Default: the question with numbered choices as text. */
  async sendClarify(chatId: string, prompt: ClarifyPrompt, opts?: SendOptions): Promise<SendResult> {
    return this.send(chatId, clarifyText(prompt), opts);
  }

  /**
   * Receives every agent event of a turn running for `chatId`, raw (`message.delta` …). Default:
   * nothing. For adapters that stream in their own way (an HTTP API writing server-sent events).
   */
  onTurnEvent(_chatId: string, _event: TurnEvent): void {}

  /**
   * Renders an agent event (tool start/progress …) for the chat, or null to swallow it.
   * Default: swallow everything; the reply itself is sent by the pipeline.
   */
  formatEvent(_event: TurnEvent): string | null {
    return null;
  }
}
