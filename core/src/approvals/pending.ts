/**
 * The one owner of open approval and clarify requests: the choices and how an answer is checked,
 * the deadline, and the rule that the first answer wins. The approval guard opens a
 * `PendingRequest` for every question it asks (guard.ts `ask`), the daemon shows that same
 * request to its clients and files it in the session's `RequestBook` (tui-gateway
 * sessions/open-requests.ts), and every way of answering — an in-process prompt's return value,
 * a client's reply to `approval.request`, the `approval.answer` / `clarify.answer` methods —
 * goes through `PendingRequest.answer`. Nothing else keeps a timer or validates an answer.
 *
 * The rules (docs/protocol.md "Server requests"):
 * - A request settles once. The first usable answer applies; every later answer, and every
 *   answer after the deadline, an interrupt or a withdrawal, gets `resolved` with what settled it.
 * - No answer within `timeoutMs` → the fail-closed value (`deny`; clarify: `null`, cancelled) by
 *   `timeout`. An aborted `signal` (interrupt) → the same value by `interrupt`.
 * - An unusable answer settles the request at once, fail closed, by whoever gave it: an approval
 *   choice that was not offered (exact strings: `"ONCE"` and `"once "` are not `once`), a clarify
 *   answer that is not text or null, a reply of the wrong shape, or a refusal (`refuse`, e.g. a
 *   JSON-RPC error reply). Keeping it open for a better answer would leave the command waiting for
 *   the whole timeout because one client sent garbage. The settlement's `message` says what was
 *   wrong and what was allowed, for the session's clients.
 */
import { randomBytes } from 'node:crypto';
import {
  APPROVAL_CHOICES,
  APPROVAL_DENY_REASONS,
  APPROVAL_FALLBACK,
  isApprovalChoice,
  type ApprovalChoice,
  type ApprovalDenyReason,
  type RequestKind,
} from '../protocol/approval-choices.js';

export { APPROVAL_CHOICES, APPROVAL_DENY_REASONS, APPROVAL_FALLBACK, isApprovalChoice };
export type { ApprovalChoice, ApprovalDenyReason, RequestKind };

/** What a request of each kind settles with: an approval choice, or clarify text (null: cancelled). */
export interface AnswerValues {
  approval: ApprovalChoice;
  clarify: string | null;
}

/** The value of a request of kind `K`. */
export type AnswerValue<K extends RequestKind> = AnswerValues[K];

/**
 * How a request was settled: `answered` (a usable answer), `refused` (an unusable answer: the
 * fail-closed value), `timeout` (no answer in time), `withdrawn` (interrupt, unload, shutdown).
 */
export type SettledHow = 'answered' | 'refused' | 'timeout' | 'withdrawn';

/** The outcome of a request. */
export interface Settlement<K extends RequestKind = RequestKind> {
  value: AnswerValue<K>;
  /**
   * Who settled it: the answerer's label (`client:<instance>`, `connection:<id>`, `user`, …),
   * `timeout`, or what withdrew it (`interrupt`, `unload` …).
   */
  by: string;
  how: SettledHow;
  /**
   * For an `answered` approval `deny`: why, when it was not a person's decision (`no_approver`:
   * the answering frontend had no one who could approve). Absent: a person denied it.
   */
  reason?: ApprovalDenyReason;
  /** For `refused`: one line naming the request, what was wrong, the allowed values and the outcome. */
  message?: string;
}

/**
 * What one answer did: `accepted` (it was first and usable: it applies), `resolved` (the request
 * was settled before: `settlement` says by whom and with what), `refused` (it was first but
 * unusable: the request is now settled fail closed by it, `settlement.message` says why).
 */
export type AnswerOutcome<K extends RequestKind = RequestKind> = {
  status: 'accepted' | 'resolved' | 'refused';
  settlement: Settlement<K>;
};

/** Options of a `PendingRequest`. */
export interface PendingRequestOptions<K extends RequestKind> {
  kind: K;
  /** The request's id; default `<kind>-<12 hex digits>`. */
  id?: string;
  /**
   * Approval: the offered choices, the only answers accepted (default all of `APPROVAL_CHOICES`).
   * Clarify: suggested answers, shown to the user; any text is accepted.
   */
  choices?: readonly string[];
  /** How long it waits for an answer, ms; then it settles with the fail-closed value by `timeout`. */
  timeoutMs: number;
  /** Aborting it (an interrupt) settles the request with the fail-closed value by `interrupt`. */
  signal?: AbortSignal;
  /** Clock for `createdAt` / `expiresAt`, epoch ms (default `Date.now`). */
  now?: () => number;
}

/** A new request id: `<kind>-<12 hex digits>`. */
export function newRequestId(kind: RequestKind): string {
  return `${kind}-${randomBytes(6).toString('hex')}`;
}

/** One open question, settled once (see the file comment for the rules). */
export class PendingRequest<K extends RequestKind = RequestKind> {
  readonly id: string;
  readonly kind: K;
  /** See `PendingRequestOptions.choices`. */
  readonly choices: readonly string[];
  /** Epoch ms when it was opened. */
  readonly createdAt: number;
  /** Epoch ms when it settles by `timeout` if nobody answered. */
  readonly expiresAt: number;
  /** Resolves with the settlement (never rejects). */
  readonly settled: Promise<Settlement<K>>;
  private result: Settlement<K> | undefined;
  private readonly aborter = new AbortController();
  private readonly timer: NodeJS.Timeout;
  // typed without K so that a PendingRequest<K> is a PendingRequest (the book holds both kinds)
  private readonly listeners: Array<(s: Settlement) => void> = [];
  private resolveSettled!: (s: Settlement) => void;
  private readonly signal_: AbortSignal | undefined;
  private readonly onAbort = (): void => void this.withdraw('interrupt');

  constructor(opts: PendingRequestOptions<K>) {
    this.kind = opts.kind;
    this.id = opts.id ?? newRequestId(opts.kind);
    this.choices = [...(opts.choices ?? (opts.kind === 'approval' ? APPROVAL_CHOICES : []))];
    this.createdAt = (opts.now ?? Date.now)();
    this.expiresAt = this.createdAt + opts.timeoutMs;
    this.settled = new Promise<Settlement<K>>(
      (resolve) => (this.resolveSettled = resolve as (s: Settlement) => void),
    );
    this.timer = setTimeout(() => this.settle(this.fallback, 'timeout', 'timeout'), opts.timeoutMs);
    this.timer.unref?.();
    this.signal_ = opts.signal;
    if (opts.signal?.aborted) this.withdraw('interrupt');
    else opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Aborted once the request is settled (for whatever reason): frontends drop their prompt. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** The settlement, once settled. */
  get settlement(): Settlement<K> | undefined {
    return this.result;
  }

  /** The fail-closed value: `deny`, or `null` (cancelled) for clarify. */
  get fallback(): AnswerValue<K> {
    return (this.kind === 'approval' ? APPROVAL_FALLBACK : null) as AnswerValue<K>;
  }

  /** Calls `cb` once with the settlement: synchronously when it settles, or now if it has. */
  onSettled(cb: (s: Settlement<K>) => void): void {
    if (this.result) cb(this.result);
    else this.listeners.push(cb as (s: Settlement) => void);
  }

  /**
   * An answer: the approval choice, or the clarify text (null cancels).
   * @param by the answerer's label, as `request.resolved` names it.
   * @param reason with an approval `deny` only: why it was not a person's decision
   *   (`APPROVAL_DENY_REASONS`); any other value, or one given with another choice or with a
   *   clarify answer, makes the answer unusable (denied, fail closed).
   */
  answer(raw: unknown, by: string, reason?: unknown): AnswerOutcome<K> {
    if (this.result) return { status: 'resolved', settlement: this.result };
    const problem = this.problemWith(raw) ?? this.problemWithReason(raw, reason);
    if (problem !== undefined) return this.refuse(by, problem);
    this.settle(raw as AnswerValue<K>, by, 'answered', undefined, reason as ApprovalDenyReason | undefined);
    return { status: 'accepted', settlement: this.result! };
  }

  /**
   * A reply to the server request: `{choice, reason?}` for an approval, `{answer}` for clarify.
   * Anything else (a bare string, an array, a missing field) is unusable.
   */
  answerReply(result: unknown, by: string): AnswerOutcome<K> {
    const field = this.kind === 'approval' ? 'choice' : 'answer';
    const isObject = typeof result === 'object' && result !== null && !Array.isArray(result);
    if (!isObject || !(field in result)) {
      if (this.result) return { status: 'resolved', settlement: this.result };
      return this.refuse(by, `a reply of the wrong shape (${describe(result)}; expected {"${field}": …})`);
    }
    const r = result as Record<string, unknown>;
    return this.answer(r[field], by, r.reason);
  }

  /**
   * An answer that cannot be used at all (e.g. a JSON-RPC error reply): settles the request with
   * the fail-closed value by `by`, unless it was settled before.
   * @param what what was wrong, for the settlement's message.
   */
  refuse(by: string, what: string): AnswerOutcome<K> {
    if (this.result) return { status: 'resolved', settlement: this.result };
    const message =
      `${this.kind} request ${this.id}: ${by} gave no usable answer (${what}; ${this.allowed()}): ` +
      (this.kind === 'approval' ? 'the command was denied' : 'the question was cancelled');
    this.settle(this.fallback, by, 'refused', message);
    return { status: 'refused', settlement: this.result! };
  }

  /**
   * Settles with the fail-closed value because nobody may answer any more.
   * @param by why: `interrupt`, `unload`, `shutdown` …
   * @returns false when it was settled before.
   */
  withdraw(by: string): boolean {
    if (this.result) return false;
    this.settle(this.fallback, by, 'withdrawn');
    return true;
  }

  /** What `answer` accepts, for messages. */
  private allowed(): string {
    if (this.kind === 'clarify') return 'allowed: a text answer, or null to cancel';
    return `allowed: ${this.choices.map((c) => `"${c}"`).join(', ')}`;
  }

  private problemWith(raw: unknown): string | undefined {
    if (this.kind === 'clarify') {
      return typeof raw === 'string' || raw === null ? undefined : `the answer ${describe(raw)} is not text`;
    }
    if (typeof raw !== 'string') return `the answer ${describe(raw)} is not a choice`;
    if (!isApprovalChoice(raw) || !this.choices.includes(raw))
      return `the choice ${JSON.stringify(raw)} was not offered`;
    return undefined;
  }

  private problemWithReason(raw: unknown, reason: unknown): string | undefined {
    if (reason === undefined || reason === null) return undefined;
    if (this.kind !== 'approval') return `a reason (${describe(reason)}) given with a clarify answer`;
    if (typeof reason !== 'string' || !(APPROVAL_DENY_REASONS as readonly string[]).includes(reason))
      return `the reason ${describe(reason)} is not one of ${APPROVAL_DENY_REASONS.map((r) => `"${r}"`).join(', ')}`;
    if (raw !== APPROVAL_FALLBACK)
      return `the reason ${describe(reason)} given with ${describe(raw)}, not "deny"`;
    return undefined;
  }

  private settle(
    value: AnswerValue<K>,
    by: string,
    how: SettledHow,
    message?: string,
    reason?: ApprovalDenyReason,
  ): void {
    if (this.result) return;
    this.result = { value, by, how, ...(message ? { message } : {}), ...(reason ? { reason } : {}) };
    clearTimeout(this.timer);
    this.signal_?.removeEventListener('abort', this.onAbort);
    for (const cb of this.listeners.splice(0)) {
      try {
        cb(this.result);
      } catch {
        // a listener's failure must not keep the asker waiting
      }
    }
    this.aborter.abort();
    this.resolveSettled(this.result);
  }
}

/** A value as messages show it, shortened. */
function describe(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/** What the book knows of one request id: open, or settled (remembered for late answers). */
export type RequestLookup =
  | { state: 'open'; request: PendingRequest }
  | { state: 'settled'; kind: RequestKind; settlement: Settlement }
  | { state: 'unknown' };

/**
 * What an answer through the book did: an `AnswerOutcome`, or `unknown` (no such request open or
 * remembered), or `wrong_kind` (the id is a request of the other kind; nothing was settled).
 */
export type BookAnswerOutcome =
  AnswerOutcome | { status: 'unknown' } | { status: 'wrong_kind'; kind: RequestKind };

/** Options of a `RequestBook`. */
export interface RequestBookOptions {
  /** How many settled requests are remembered for late answers (default 200). */
  remember?: number;
  /** Told once per request, synchronously, when it settles. */
  onSettled?: (request: PendingRequest, settlement: Settlement) => void;
}

/** The open requests of one session, and the recently settled ones (late answers learn who won). */
export class RequestBook {
  private readonly open_ = new Map<string, PendingRequest>();
  private readonly recent = new Map<string, { kind: RequestKind; settlement: Settlement }>();
  private readonly remember: number;

  constructor(private readonly opts: RequestBookOptions = {}) {
    this.remember = opts.remember ?? 200;
  }

  /** Opens a request and files it. */
  open<K extends RequestKind>(opts: PendingRequestOptions<K>): PendingRequest<K> {
    const request = new PendingRequest(opts);
    this.add(request);
    return request;
  }

  /** Files a request opened elsewhere (the guard's). One already settled is only remembered. */
  add(request: PendingRequest): void {
    if (!request.settlement) this.open_.set(request.id, request);
    request.onSettled((s) => {
      this.open_.delete(request.id);
      this.recent.set(request.id, { kind: request.kind, settlement: s });
      while (this.recent.size > this.remember) this.recent.delete(this.recent.keys().next().value!);
      this.opts.onSettled?.(request, s);
    });
  }

  /** The open requests, oldest first. */
  list(): PendingRequest[] {
    return [...this.open_.values()];
  }

  /** What is known of `id`. */
  lookup(id: string): RequestLookup {
    const request = this.open_.get(id);
    if (request) return { state: 'open', request };
    const done = this.recent.get(id);
    return done ? { state: 'settled', ...done } : { state: 'unknown' };
  }

  /**
   * Answers request `id` of `kind` (see `PendingRequest.answer`, also for `reason`); a remembered one gets `resolved`
   * with its settlement.
   */
  answer(id: string, kind: RequestKind, raw: unknown, by: string, reason?: unknown): BookAnswerOutcome {
    const found = this.lookup(id);
    if (found.state === 'unknown') return { status: 'unknown' };
    const actual = found.state === 'open' ? found.request.kind : found.kind;
    if (actual !== kind) return { status: 'wrong_kind', kind: actual };
    if (found.state === 'settled') return { status: 'resolved', settlement: found.settlement };
    return found.request.answer(raw, by, reason);
  }

  /** Withdraws every open request (`by`: `interrupt`, `unload` …). */
  withdrawAll(by: string): void {
    for (const r of [...this.open_.values()]) r.withdraw(by);
  }
}
