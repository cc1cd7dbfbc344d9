/**
 * The delivery ledger of one platform: every inbound message the pipeline accepts gets a row
 * (state.db `platform_deliveries`, state/platform-tables.ts) that follows it to exactly one
 * outcome, and every reply is sent from that row.
 *
 * - `accept` records the message (a platform id seen before is a duplicate); `submitted` and
 *   `started` record the prompt it became and where its turn begins in the transcript, so a
 *   restart can tell a finished turn from one the crash cut (pipeline-recovery.ts).
 * - `deliver` stores the reply as `pending` and sends it: chunk by chunk (split at the
 *   platform's limit), each confirmed chunk counted at once, so a restart resumes after the last
 *   confirmed one and never sends a confirmed chunk again. Replies to one chat go out in order.
 * - A failed send is retried with capped exponential backoff and jitter (`retryDelay`) unless the
 *   platform called it permanent (`SendResult.retryable === false`); after `maxAttempts` the row
 *   is `failed`. `close` ends a row that sends nothing (silence, drop, command, answer).
 * - Each outcome is logged in one line: `message outcome: platform=… chat=… msg=… outcome=…`.
 *
 * At-least-once window: between the platform's confirmation and the write of `chunks_sent` a
 * crash makes that chunk go out again after the restart. `SendOptions.deliveryId` is stable
 * across retries and restarts, so a platform that takes an idempotency key (the webhook's
 * `X-Hermes-Delivery`) lets the receiver drop the repeat.
 */
import { randomBytes } from 'node:crypto';
import type { DeliveryPatch, DeliveryRecord, DeliveryState, NewDelivery } from '../state/platform-tables.js';
import type { SendOptions, SendResult } from './adapter.js';
import { longReplyFile } from './long-reply.js';
import { splitMessage } from './split.js';

export type { DeliveryRecord, DeliveryState } from '../state/platform-tables.js';

/**
 * The outcome of an inbound message: the agent's `reply`, the model's `silence`, a visible
 * `error` sent to the sender, a logged `dropped` (with a reason), the `answer` to a pending
 * question, or `undeliverable` (a reply or error the platform never took).
 */
export type InboundOutcome = 'reply' | 'silence' | 'error' | 'dropped' | 'answer' | 'undeliverable';

/** How failed sends are retried. Times in ms. */
export interface RetryPolicy {
  /** Delay after the first failure. */
  baseMs: number;
  /** Longest delay between two attempts. */
  maxMs: number;
  /** Attempts (the first included) before the row is `failed`. */
  maxAttempts: number;
  /** Fraction of a delay that is taken off at random (0: none, 0.5: up to half). */
  jitter: number;
}

/** Default retries: 1 s, 2 s, 4 s … capped at 5 min, 12 attempts (about 25 min in all). */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1_000, maxMs: 300_000, maxAttempts: 12, jitter: 0.5 };

/**
 * Delay before the next attempt after `failures` failed ones (≥ 1):
 * `min(maxMs, baseMs · 2^(failures−1))` less up to `jitter` of it at random.
 * @returns ms, at least 1.
 */
export function retryDelay(
  failures: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.max(1, Math.round(exp * (1 - policy.jitter * random())));
}

/**
 * The one log line of a message's outcome:
 * `message outcome: platform=irc chat=alice msg=in-… [ext=…] outcome=reply [reason="…"]`.
 */
export function outcomeLine(
  platform: string,
  chatId: string,
  id: string,
  outcome: string,
  reason?: string,
  externalId?: string | null,
): string {
  const ext = externalId ? ` ext=${externalId}` : '';
  const why = reason ? ` reason="${reason.replace(/["\n]/g, "'").slice(0, 300)}"` : '';
  return `message outcome: platform=${platform} chat=${chatId} msg=${id}${ext} outcome=${outcome}${why}`;
}

/** A new inbound message id (`in-` + 12 hex). */
export function newInboundId(): string {
  return `in-${randomBytes(6).toString('hex')}`;
}

/** The rows the ledger reads and writes; `SessionDB.platforms` satisfies it. */
export interface DeliveryStore {
  insertDelivery(row: NewDelivery, now?: number): 'ok' | 'duplicate';
  updateDelivery(id: string, patch: DeliveryPatch, now?: number): boolean;
  getDelivery(id: string): DeliveryRecord | undefined;
  listDeliveries(platform: string, states: readonly DeliveryState[]): DeliveryRecord[];
  pruneDeliveries?(before: number): number;
}

/** Time and timers of the ledger (injected in tests). */
export interface LedgerClock {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** The real clock (timers do not keep the process alive). */
export const systemClock: LedgerClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};

/** What the ledger sends through (the platform adapter). */
export interface DeliverySender {
  send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult>;
  /** Uploads a file (a long reply, see `DeliveryLedgerOptions.fileAbove`). */
  sendFile?(
    chatId: string,
    file: { name: string; data: Buffer; mime?: string; caption?: string },
    opts?: SendOptions,
  ): Promise<SendResult>;
}

/** Options of a ledger. */
export interface DeliveryLedgerOptions {
  platform: string;
  store: DeliveryStore;
  sender: DeliverySender;
  /** Longest message of the platform, characters (0: no limit); read at every send. */
  maxLength: () => number;
  /**
   * A reply (not an error notice) longer than this many characters goes out as one file
   * (`sender.sendFile`, long-reply.ts) instead of split messages; 0 or absent: always split.
   * Read at every attempt.
   */
  fileAbove?: () => number;
  log: (line: string) => void;
  retry?: Partial<RetryPolicy>;
  clock?: LedgerClock;
  random?: () => number;
  /** Finished rows older than this are deleted at `start`, ms (default 7 days). */
  keepMs?: number;
}

/** The message a row is created for. */
export interface AcceptedMessage {
  id: string;
  chatId: string;
  send: SendOptions;
  /** The platform's unique id of the message (duplicates are refused). */
  externalId?: string;
  /** The chat's session key. */
  key: string;
  /** The message itself, to admit it again after a crash (`InboundMessage` as JSON). */
  inbound?: string;
}

interface Lane {
  ids: string[];
  busy: boolean;
  cancel?: () => void;
}

const KEEP_MS = 7 * 24 * 3600_000;
/** Pause of a chat's sending after the ledger itself failed (state.db unwritable), ms. */
const STORE_FAILURE_PAUSE_MS = 5_000;

/** One platform's ledger and sender. */
export class DeliveryLedger {
  private readonly policy: RetryPolicy;
  private readonly clock: LedgerClock;
  private running = false;
  private readonly lanes = new Map<string, Lane>();
  private readonly queued = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();
  private readonly settledListeners: Array<(id: string) => void> = [];

  constructor(private readonly opts: DeliveryLedgerOptions) {
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.clock = opts.clock ?? systemClock;
  }

  private get store(): DeliveryStore {
    return this.opts.store;
  }

  private update(id: string, patch: DeliveryPatch): void {
    this.store.updateDelivery(id, patch, this.clock.now());
  }

  /** Records an accepted message. @returns `duplicate` when its platform id was seen before. */
  accept(m: AcceptedMessage): 'ok' | 'duplicate' {
    const sendOpts = Object.keys(m.send).length > 0 ? JSON.stringify(m.send) : null;
    return this.store.insertDelivery(
      {
        id: m.id,
        platform: this.opts.platform,
        chat_id: m.chatId,
        send_opts: sendOpts,
        ...(m.externalId ? { external_id: m.externalId } : {}),
        session_key: m.key,
        ...(m.inbound ? { inbound: m.inbound } : {}),
        state: 'accepted',
      },
      this.clock.now(),
    );
  }

  /**
   * Replaces the stored message of a row (`AcceptedMessage.inbound`): the pipeline records a
   * message before fetching its attachments and stores what they added once fetched.
   */
  amendInbound(id: string, inbound: string): void {
    this.update(id, { inbound });
  }

  /** The message became a prompt of `sessionId` (submitted, maybe queued). */
  submitted(id: string, p: { sessionId: string; promptText: string }): void {
    this.update(id, { state: 'accepted', session_id: p.sessionId, prompt_text: p.promptText });
  }

  /** Its turn started; the turn's messages have ids above `afterMessageId`. */
  started(id: string, p: { promptId: string; afterMessageId: number }): void {
    this.update(id, { state: 'running', prompt_id: p.promptId, after_message_id: p.afterMessageId });
  }

  /** Its session continues under another id (context compression). */
  moved(id: string, sessionId: string): void {
    this.update(id, { session_id: sessionId });
  }

  /** One row, or undefined. */
  get(id: string): DeliveryRecord | undefined {
    return this.store.getDelivery(id);
  }

  /**
   * Calls `fn(id)` each time a row's turn is over — its reply or error is stored for sending
   * (`deliver`), it was streamed (`delivered`), or it was closed (`close`): from then on a restart
   * never runs or admits the message again. A listener that throws is logged and ignored.
   */
  onSettled(fn: (id: string) => void): void {
    this.settledListeners.push(fn);
  }

  private settled(id: string): void {
    for (const fn of this.settledListeners)
      try {
        fn(id);
      } catch (err) {
        this.opts.log(`after the turn of ${id}: ${(err as Error).message}`);
      }
  }

  /** Rows whose turn has not ended (`accepted`, `running`), oldest first: the restart's work. */
  unfinished(): DeliveryRecord[] {
    return this.store.listDeliveries(this.opts.platform, ['accepted', 'running']);
  }

  /**
   * Stores the reply (or the visible error) and sends it.
   * @returns a promise that settles after the first attempt (at once while not started).
   */
  deliver(id: string, text: string, outcome: 'reply' | 'error'): Promise<void> {
    this.update(id, { state: 'pending', reply: text, outcome, next_attempt_at: null });
    this.settled(id);
    const row = this.store.getDelivery(id);
    if (!row) return Promise.resolve();
    const settled = this.running
      ? new Promise<void>((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]))
      : Promise.resolve();
    this.enqueue(row);
    return settled;
  }

  /** A reply the platform already holds (streamed by edits): recorded as sent. */
  delivered(id: string): void {
    const row = this.store.getDelivery(id);
    this.update(id, { state: 'sent', outcome: 'reply' });
    this.settled(id);
    if (row) this.logOutcome(row, 'reply');
  }

  /** Ends a row that sends nothing (silence, a drop, a command, an answer), logging the outcome. */
  close(id: string, outcome: InboundOutcome, reason?: string): void {
    const row = this.store.getDelivery(id);
    this.update(id, { state: 'closed', outcome: reason ? `${outcome}:${reason}` : outcome });
    this.settled(id);
    if (row) this.logOutcome(row, outcome, reason);
  }

  /** Logs the outcome of a message that has no row (refused before it was accepted). */
  note(chatId: string, id: string, outcome: InboundOutcome, reason?: string): void {
    this.opts.log(outcomeLine(this.opts.platform, chatId, id, outcome, reason));
  }

  private logOutcome(row: DeliveryRecord, outcome: string, reason?: string): void {
    this.opts.log(outcomeLine(this.opts.platform, row.chat_id, row.id, outcome, reason, row.external_id));
  }

  /**
   * Starts sending (the adapter is connected): the replies a previous daemon left unconfirmed
   * are sent first, in the order they were accepted. Old finished rows are pruned.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    try {
      this.store.pruneDeliveries?.(this.clock.now() - (this.opts.keepMs ?? KEEP_MS));
    } catch (err) {
      this.opts.log(`cannot prune the delivery ledger: ${(err as Error).message}`);
    }
    // a reply the previous daemon left waiting for a retry is tried at once: the wait was for a
    // platform that may have recovered while nobody was running
    for (const row of this.store.listDeliveries(this.opts.platform, ['pending'])) {
      if (row.next_attempt_at !== null && row.next_attempt_at > this.clock.now()) {
        this.update(row.id, { next_attempt_at: null });
        row.next_attempt_at = null;
      }
      this.enqueue(row);
    }
    for (const chat of this.lanes.keys()) void this.pump(chat);
  }

  /** Stops sending (shutdown): retry timers are cancelled; unconfirmed replies stay `pending`. */
  stop(): void {
    this.running = false;
    for (const lane of this.lanes.values()) {
      lane.cancel?.();
      lane.cancel = undefined;
    }
    for (const id of [...this.waiters.keys()]) this.wake(id);
  }

  /** Replies waiting to be sent or retried (all chats). */
  get backlog(): number {
    return this.queued.size;
  }

  private enqueue(row: DeliveryRecord): void {
    if (this.queued.has(row.id)) return;
    this.queued.add(row.id);
    let lane = this.lanes.get(row.chat_id);
    if (!lane) {
      lane = { ids: [], busy: false };
      this.lanes.set(row.chat_id, lane);
    }
    lane.ids.push(row.id);
    if (this.running) void this.pump(row.chat_id);
  }

  private wake(id: string): void {
    const ws = this.waiters.get(id);
    this.waiters.delete(id);
    for (const w of ws ?? []) w();
  }

  private finishHead(chat: string, lane: Lane, id: string): void {
    if (lane.ids[0] === id) lane.ids.shift();
    this.queued.delete(id);
    this.wake(id);
    if (lane.ids.length === 0 && !lane.busy) this.lanes.delete(chat);
  }

  private later(chat: string, lane: Lane, ms: number): void {
    lane.cancel = this.clock.setTimer(() => {
      lane.cancel = undefined;
      void this.pump(chat);
    }, ms);
  }

  /** Sends the chat's replies in order; a reply waiting for its retry holds the ones behind it. */
  private async pump(chat: string): Promise<void> {
    const lane = this.lanes.get(chat);
    if (!lane || lane.busy || lane.cancel) return;
    lane.busy = true;
    try {
      while (this.running && lane.ids.length > 0) {
        const id = lane.ids[0]!;
        let row: DeliveryRecord | undefined;
        try {
          row = this.store.getDelivery(id);
          if (!row || row.state !== 'pending') {
            this.finishHead(chat, lane, id);
            continue;
          }
          const wait = (row.next_attempt_at ?? 0) - this.clock.now();
          if (wait > 0) {
            this.later(chat, lane, wait);
            return;
          }
          const done = await this.attempt(row);
          if (done) this.finishHead(chat, lane, id);
          else this.wake(id);
        } catch (err) {
          // the ledger itself failed (state.db): the reply stays pending, tried again later
          this.opts.log(`delivery ledger failed: ${(err as Error).message}`);
          this.wake(id);
          this.later(chat, lane, STORE_FAILURE_PAUSE_MS);
          return;
        }
      }
    } finally {
      lane.busy = false;
      if (lane.ids.length === 0 && !lane.cancel) this.lanes.delete(chat);
    }
  }

  /**
   * The stored reply options of a row (thread, message replied to). Damaged ones (not a JSON
   * object) are logged and left out: the reply still goes to the chat, only not threaded.
   */
  private sendOptionsOf(row: DeliveryRecord): SendOptions {
    if (!row.send_opts) return {};
    try {
      const v: unknown = JSON.parse(row.send_opts);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as SendOptions;
    } catch {
      // named below
    }
    this.opts.log(`reply ${row.id}: its stored send options are damaged; sent without them`);
    return {};
  }

  /** One attempt at the unconfirmed chunks of a row. @returns true when the row is settled. */
  private async attempt(row: DeliveryRecord): Promise<boolean> {
    const text = row.reply ?? '';
    const above = row.outcome !== 'error' && this.opts.sender.sendFile ? (this.opts.fileAbove?.() ?? 0) : 0;
    // a long reply is one step: the file with its summary caption
    const asFile = above > 0 && text.length > above;
    const chunks = asFile ? [text] : splitMessage(text, this.opts.maxLength());
    const base = this.sendOptionsOf(row);
    for (let i = row.chunks_sent; i < chunks.length; i++) {
      let r: SendResult;
      try {
        const opts: SendOptions = { ...base, kind: 'reply', deliveryId: `${row.id}#${i}` };
        r = asFile
          ? await this.opts.sender.sendFile!(row.chat_id, longReplyFile(text), opts)
          : await this.opts.sender.send(row.chat_id, chunks[i]!, opts);
      } catch (err) {
        r = { ok: false, error: (err as Error).message };
      }
      if (r.ok) {
        // the last chunk's confirmation settles the row in the same write
        if (i + 1 === chunks.length) break;
        this.update(row.id, { chunks_sent: i + 1 });
        continue;
      }
      const failures = row.attempts + 1;
      const error = (r.error ?? 'send failed').split('\n')[0]!.slice(0, 300);
      if (r.retryable === false || failures >= this.policy.maxAttempts) {
        this.update(row.id, {
          state: 'failed',
          attempts: failures,
          last_error: error,
          next_attempt_at: null,
        });
        const what = row.outcome === 'error' ? 'the error notice' : 'the reply';
        this.logOutcome(row, 'undeliverable', `${what} was not taken after ${failures} attempt(s): ${error}`);
        return true;
      }
      const delay = retryDelay(failures, this.policy, this.opts.random);
      this.update(row.id, {
        attempts: failures,
        last_error: error,
        next_attempt_at: this.clock.now() + delay,
      });
      this.opts.log(
        `reply ${row.id} to ${row.chat_id} failed (attempt ${failures}: ${error}); next try in ${delay} ms`,
      );
      return false;
    }
    this.update(row.id, { state: 'sent', chunks_sent: chunks.length, next_attempt_at: null });
    this.logOutcome(row, row.outcome ?? 'reply');
    return true;
  }
}

export { MemoryDeliveryStore } from './memory-delivery-store.js';
