/**
 * Test helpers of the messaging layer: an in-memory adapter that records what the pipeline sends.
 * Not exported from the package index.
 */
import {
  PlatformAdapter,
  type ApprovalPrompt,
  type ButtonOutcome,
  type ButtonPress,
  type ChatInfo,
  type InboundMessage,
  type SendOptions,
  type SendResult,
} from './adapter.js';

/** One recorded outbound operation. */
export type Sent =
  | { op: 'send'; chatId: string; text: string; id: string; opts?: SendOptions }
  | { op: 'edit'; chatId: string; text: string; id: string }
  | { op: 'approval'; chatId: string; prompt: ApprovalPrompt }
  | { op: 'file'; chatId: string; name: string; data: Buffer; caption?: string; id: string };

/** An adapter whose "platform" is an array. */
export class MemoryAdapter extends PlatformAdapter {
  readonly sent: Sent[] = [];
  connected = false;
  private nextId = 1;
  private readonly waiters: Array<{ pred: (s: Sent) => boolean; resolve: (s: Sent) => void }> = [];

  constructor(
    platform = 'memory',
    private readonly caps: {
      edit?: boolean;
      buttons?: boolean;
      max?: number;
      autonomous?: boolean;
      /** `sendFile` records an upload (else the base class's text line). */
      uploads?: boolean;
      /** `sendApproval` records the question and fails (a chat that refuses it). */
      approvalFails?: boolean;
    } = {},
  ) {
    super(platform, { maxMessageLength: caps.max ?? 0 });
  }

  override get canEdit(): boolean {
    return this.caps.edit === true;
  }
  override get autonomous(): boolean {
    return this.caps.autonomous === true;
  }

  override get canUploadFiles(): boolean {
    return this.caps.uploads === true;
  }

  override async sendFile(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult> {
    if (!this.caps.uploads) return super.sendFile(chatId, file, opts);
    const id = `m${this.nextId++}`;
    this.record({
      op: 'file',
      chatId,
      name: file.name,
      data: file.data,
      id,
      ...(file.caption ? { caption: file.caption } : {}),
    });
    return { ok: true, messageId: id };
  }

  override get hasButtons(): boolean {
    return this.caps.buttons === true;
  }

  async connect(): Promise<void> {
    this.connected = true;
  }
  async disconnect(): Promise<void> {
    this.connected = false;
  }
  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return { name: chatId, type: 'dm' };
  }

  private record(s: Sent): void {
    this.sent.push(s);
    for (const w of [...this.waiters]) {
      if (w.pred(s)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(s);
      }
    }
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    const id = `m${this.nextId++}`;
    this.record({ op: 'send', chatId, text, id, ...(opts ? { opts } : {}) });
    return { ok: true, messageId: id };
  }

  override async editMessage(chatId: string, messageId: string, text: string): Promise<SendResult> {
    if (!this.caps.edit) return super.editMessage(chatId, messageId, text);
    this.record({ op: 'edit', chatId, text, id: messageId });
    return { ok: true, messageId };
  }

  override async sendApproval(
    chatId: string,
    prompt: ApprovalPrompt,
    opts?: SendOptions,
  ): Promise<SendResult> {
    this.record({ op: 'approval', chatId, prompt });
    if (this.caps.approvalFails) return { ok: false, error: 'Bad Request: the question was refused' };
    return this.caps.buttons ? { ok: true, messageId: 'btn' } : super.sendApproval(chatId, prompt, opts);
  }

  /** Simulates an inbound message. */
  receive(message: InboundMessage): Promise<void> {
    return this.emitMessage(message);
  }

  /** Simulates a button press. */
  press(p: ButtonPress): Promise<ButtonOutcome | undefined> {
    return this.emitButton(p);
  }

  /** Resolves with the first recorded (past or future) operation matching `pred`. */
  waitFor(pred: (s: Sent) => boolean, timeoutMs = 10_000): Promise<Sent> {
    const have = this.sent.find(pred);
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out; sent so far: ${JSON.stringify(this.sent)}`)),
        timeoutMs,
      );
      this.waiters.push({
        pred,
        resolve: (s) => {
          clearTimeout(timer);
          resolve(s);
        },
      });
    });
  }

  /** Texts of plain sends to a chat. */
  texts(chatId?: string): string[] {
    return this.sent
      .filter((s): s is Extract<Sent, { op: 'send' }> => s.op === 'send' && (!chatId || s.chatId === chatId))
      .map((s) => s.text);
  }
}
