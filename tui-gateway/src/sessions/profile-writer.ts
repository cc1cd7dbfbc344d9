/**
 * The daemon's writes to one profile's SessionDB, never blocking the event loop. The profile's
 * database is opened with `waitForLocks: false` (busy_timeout 0, one attempt per write), and
 * every write of the turn path (transcript messages, usage, session state, the prompt queue)
 * goes through this writer:
 *
 * - When nothing of this profile waits, the write runs at once (the common case, same as before).
 * - When it finds the file locked by another process (`SQLITE_BUSY`), it and every later write
 *   of the profile wait in one FIFO queue — order is kept per profile, hence per session — that
 *   is retried from a timer with jittered backoff (write-retry.ts `jitterDelayMs`: 10–100 ms for
 *   2 s, then 100–500 ms) until `budgetMs` has passed without progress; then the write at the
 *   head is reported lost and the next one tried.
 * - A write that fails for another reason is thrown when it ran at once (callers see a full disk
 *   as before) and reported through `log` when it ran from the queue.
 *
 * Other profiles have their own writer and connection, so one profile's locked file stalls
 * nothing else. `appendMessage` returns the stored id when the write ran at once and a
 * provisional (negative) id while it waits; `updateMessage` accepts either (the queue runs the
 * append first, which maps the provisional id to the stored one).
 */
import {
  type SessionDB,
  isLockError,
  jitterDelayMs,
  TRANSCRIPT_WRITE_BUDGET_MS,
  type CreateSessionOptions,
  type MessagePatch,
  type ModelCallInput,
  type NewMessage,
  type SessionRecord,
} from '@hermes/core/state';

/** Provisional ids remembered after their append was stored. */
const MAX_MAPPED_IDS = 1024;

interface Job {
  op: string;
  run: () => void;
}

/** One profile's never-blocking writer (see the module comment). */
export class ProfileWriter {
  private readonly jobs: Job[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the head of the queue first found the file locked, ms (`now`). */
  private lockedSince = 0;
  private nextProvisional = -1;
  /** Provisional id → stored id, for appends that waited. */
  private readonly ids = new Map<number, number>();

  /**
   * @param db the profile's SessionDB (opened with `waitForLocks: false`).
   * @param log where writes given up or failed from the queue are reported.
   * @param budgetMs how long the queue waits without progress before dropping its head, ms.
   */
  constructor(
    private readonly db: () => SessionDB,
    private readonly log: (line: string) => void,
    private readonly budgetMs = TRANSCRIPT_WRITE_BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Writes waiting for the lock. */
  get pending(): number {
    return this.jobs.length;
  }

  /** Resolves once no write waits (tests, shutdown). */
  async flushed(pollMs = 20): Promise<void> {
    while (this.jobs.length > 0) await new Promise((r) => setTimeout(r, pollMs));
  }

  /**
   * Runs `run` now when nothing waits and the file is not locked; queues it otherwise.
   * @throws the error of an immediate attempt that failed for another reason than a lock.
   */
  write(op: string, run: () => void): void {
    if (this.jobs.length === 0) {
      try {
        run();
        return;
      } catch (err) {
        if (!isLockError(err)) throw err;
      }
      this.lockedSince = this.now();
    }
    this.jobs.push({ op, run });
    this.schedule();
  }

  appendMessage(sessionId: string, msg: NewMessage, opts: { unqueuePromptId?: string } = {}): number {
    const provisional = this.nextProvisional--;
    let stored: number | undefined;
    this.write('appendMessage', () => {
      stored = this.db().appendMessage(sessionId, msg, opts);
      if (this.jobs.length > 0) this.ids.set(provisional, stored);
    });
    return stored ?? provisional;
  }

  /**
   * Appends several messages in one transaction (a compressed continuation).
   * @returns their ids, or `[]` while the write waits (callers do not use them).
   */
  appendMessages(sessionId: string, msgs: readonly NewMessage[]): number[] {
    let ids: number[] = [];
    this.write('appendMessages', () => {
      ids = this.db().appendMessages(sessionId, msgs);
    });
    return ids;
  }

  /** Reads a session row (straight from the database; reads do not wait for writers in WAL). */
  getSession(id: string): SessionRecord | undefined {
    return this.db().getSession(id);
  }

  /**
   * Creates a session at once — its id is needed now — so it fails with `SQLITE_BUSY` while
   * another process holds the lock (context compression then leaves the history unchanged).
   */
  createSession(opts: CreateSessionOptions): SessionRecord {
    return this.db().createSession(opts);
  }

  endSession(id: string, reason: string): void {
    this.write('endSession', () => this.db().endSession(id, reason));
  }

  updateMessage(id: number, patch: MessagePatch): void {
    this.write('updateMessage', () => {
      const real = id < 0 ? this.ids.get(id) : id;
      if (real === undefined) throw new Error(`message ${id} was never stored`);
      this.db().updateMessage(real, patch);
    });
  }

  addUsage(sessionId: string, promptTokens: number, completionTokens: number): void {
    this.write('addUsage', () => this.db().addUsage(sessionId, promptTokens, completionTokens));
  }

  /** Stores a model call's tokens and cost; a provisional `messageId` is mapped to the stored one. */
  recordModelCall(sessionId: string, call: ModelCallInput): void {
    this.write('recordModelCall', () => {
      const id = call.messageId;
      const real = id !== undefined && id !== null && id < 0 ? (this.ids.get(id) ?? null) : id;
      this.db().modelCalls.record(sessionId, { ...call, messageId: real ?? null });
    });
  }

  setSessionState(id: string, state: string): void {
    this.write('setSessionState', () => this.db().setSessionState(id, state));
  }

  queuePrompt(sessionId: string, p: { promptId: string; text: string; by?: string; origin?: string }): void {
    this.write('queuePrompt', () => this.db().queuePrompt(sessionId, p));
  }

  /** @returns true (whether a row existed is not known while the write waits). */
  unqueuePrompt(promptId: string): boolean {
    this.write('unqueuePrompt', () => void this.db().unqueuePrompt(promptId));
    return true;
  }

  moveQueuedPrompts(fromId: string, toId: string): void {
    this.write('moveQueuedPrompts', () => this.db().moveQueuedPrompts(fromId, toId));
  }

  /**
   * Runs the waiting writes now, once each, without waiting for a lock (before the database is
   * closed). @returns how many could not be written (reported through `log`).
   */
  drainNow(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let lost = 0;
    for (const job of this.jobs.splice(0)) {
      try {
        job.run();
      } catch (err) {
        lost++;
        this.log(`${this.db().file}: ${job.op} lost at close: ${(err as Error).message}`);
      }
    }
    return lost;
  }

  private schedule(): void {
    if (this.timer || this.jobs.length === 0) return;
    this.timer = setTimeout(() => this.drain(), jitterDelayMs(this.now() - this.lockedSince));
    this.timer.unref?.();
  }

  private drain(): void {
    this.timer = undefined;
    while (this.jobs.length > 0) {
      const job = this.jobs[0]!;
      try {
        job.run();
      } catch (err) {
        if (isLockError(err) && this.now() - this.lockedSince < this.budgetMs) {
          this.schedule();
          return;
        }
        this.log(`${this.db().file}: ${job.op} lost: ${(err as Error).message}`);
      }
      this.jobs.shift();
      this.lockedSince = this.now();
    }
    // a streaming reply keeps its provisional id until it is final: keep the newest mappings
    for (const old of this.ids.keys()) {
      if (this.ids.size <= MAX_MAPPED_IDS) break;
      this.ids.delete(old);
    }
  }
}
