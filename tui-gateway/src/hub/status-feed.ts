/**
 * The daemon-wide status feed: one row per live session across profiles (and per running cron
 * job), pushed to the connections that called `status.subscribe` as `status.changed` events.
 *
 * Rules:
 * - Every change of a live session passes one place, its `emit` (plus the moment a server request
 *   is shown, which is not an event): `touch` marks the session dirty; nothing is computed there.
 * - Bursts are coalesced: the first change arms a timer of `coalesceMs` (default 100 ms); when it
 *   fires, the dirty rows are recomputed and only those that differ from what subscribers last got
 *   go out, in one event. A change is therefore pushed within `coalesceMs` (+ the event loop),
 *   never one event per delta.
 * - Rows: `approval` / `clarify` while such a request is open (the command / question shown),
 *   else `working` while a turn runs, `failed` after a turn ended in an error, else `idle`.
 * - Tokens: the session's stored totals when first seen, plus every turn's usage in this daemon.
 *   Cost: `session_cost_usd` of the latest `session.usage` when the daemon prices calls, else null.
 */
import type {
  OpenRequest,
  SessionInfo,
  SessionOrigin,
  LiveSessionStatus,
  WireEvent,
} from '@hermes/core/protocol';

/** How a session's cost is known (`LiveSessionStatus.cost_status`). */
type CostStatus = NonNullable<LiveSessionStatus['cost_status']>;
import { wireEvent } from '@hermes/core/protocol';
import type { Connection } from '../rpc/types.js';

/** Default coalescing window of `status.changed`, ms. */
export const STATUS_COALESCE_MS = 100;

/** What the feed reads of a live session (LiveSession satisfies it). */
export interface FeedSession {
  readonly id: string;
  readonly profile: string;
  readonly busy: boolean;
  readonly clients: ReadonlySet<unknown>;
  info(): SessionInfo;
  openRequests(): OpenRequest[];
  /** Stored prompt + completion tokens of the session (before this daemon counted). */
  storedTokens(): number;
}

/** A running cron job as the feed shows it. */
export interface CronRow {
  profile: string;
  session_id: string;
  title: string;
  started_at: number;
  tokens: number;
  cost_usd: number | null;
  /** How `cost_usd` is known (`session_cost_status` of the run's last `session.usage`). */
  cost_status?: CostStatus;
}

interface Tracked {
  /** Usage of finished turns of this daemon plus the stored totals when first seen. */
  baseTokens: number;
  turnTokens: number;
  cost: number | null;
  costStatus: CostStatus | undefined;
  turnStartedAt: number | null;
  failed: boolean;
  /** Request id → platform it was escalated to. */
  escalated: Map<string, string>;
}

/** The kind of a stored session source. */
export function originOf(source: string): SessionOrigin {
  if (source === 'tui' || source === 'cli') return 'tui';
  if (source === 'cron') return 'cron';
  if (source === 'acp') return 'acp';
  if (source === 'api' || source.startsWith('api_') || source === 'api-server') return 'api';
  if (source === 'unknown' || source === '') return 'other';
  return 'platform';
}

const rowKey = (profile: string, id: string): string => `${profile}/${id}`;

/** The status feed of one daemon. */
export class StatusFeed {
  private readonly sessions = new Map<FeedSession, Tracked>();
  /** Row key a session was last shown under (its id changes on compression). */
  private readonly shownAs = new Map<FeedSession, string>();
  private readonly cron = new Map<string, CronRow>();
  private readonly dirty = new Set<FeedSession>();
  private readonly removed = new Set<string>();
  private readonly sent = new Map<string, string>();
  private readonly subscribers = new Set<Connection>();
  private readonly listeners = new Set<(rows: LiveSessionStatus[], removed: string[]) => void>();
  private dirtyCron = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly coalesceMs: number;
  private readonly now: () => number;

  constructor(opts: { coalesceMs?: number; now?: () => number; log?: (line: string) => void } = {}) {
    this.coalesceMs = opts.coalesceMs ?? STATUS_COALESCE_MS;
    this.now = opts.now ?? Date.now;
    this.log = opts.log;
  }
  private readonly log: ((line: string) => void) | undefined;

  /** A live session changed (an event it emitted, or a request it showed). Cheap: marks it dirty. */
  touch(s: FeedSession, ev?: WireEvent): void {
    let t = this.sessions.get(s);
    if (!t) {
      let stored = 0;
      try {
        stored = s.storedTokens();
      } catch {
        /* a failing read shows 0 */
      }
      t = {
        baseTokens: stored,
        turnTokens: 0,
        cost: null,
        costStatus: undefined,
        turnStartedAt: null,
        failed: false,
        escalated: new Map(),
      };
      this.sessions.set(s, t);
    }
    if (ev) this.apply(t, ev);
    this.dirty.add(s);
    this.arm();
  }

  private apply(t: Tracked, ev: WireEvent): void {
    switch (ev.type) {
      case 'turn.start':
        t.turnStartedAt = ev.ts ?? this.now();
        t.failed = false;
        break;
      case 'turn.end':
        t.turnStartedAt = null;
        t.failed = ev.payload.status === 'error';
        t.baseTokens += t.turnTokens;
        t.turnTokens = 0;
        break;
      case 'session.usage': {
        t.turnTokens = ev.payload.usage.total_tokens;
        // present once the daemon prices model calls
        const cost = ev.payload.session_cost_usd;
        if (typeof cost === 'number') t.cost = cost;
        if (ev.payload.session_cost_status) t.costStatus = ev.payload.session_cost_status;
        break;
      }
      case 'request.resolved':
        t.escalated.delete(ev.payload.request_id);
        break;
      default:
        break;
    }
  }

  /** A waiting approval of `s` was also sent to `platform` (escalation). */
  escalated(s: FeedSession, requestId: string, platform: string): void {
    this.touch(s);
    this.sessions.get(s)?.escalated.set(requestId, platform);
  }

  /** A live session was unloaded: its row leaves. */
  gone(s: FeedSession): void {
    const k = this.shownAs.get(s);
    this.sessions.delete(s);
    this.shownAs.delete(s);
    this.dirty.delete(s);
    if (k) this.removed.add(k);
    this.arm();
  }

  /** A cron job started running (its row shows `working`) or reported progress. */
  cronRunning(row: CronRow): void {
    this.cron.set(rowKey(row.profile, row.session_id), row);
    this.dirtyCron = true;
    this.arm();
  }

  /** A cron run ended: its row leaves. */
  cronEnded(profile: string, sessionId: string): void {
    const k = rowKey(profile, sessionId);
    if (this.cron.delete(k)) this.removed.add(k);
    this.arm();
  }

  /** Every row now, oldest turn first. */
  snapshot(): LiveSessionStatus[] {
    const rows: LiveSessionStatus[] = [];
    for (const [s, t] of this.sessions) {
      const r = this.row(s, t);
      if (r) rows.push(r);
    }
    for (const c of this.cron.values()) rows.push(this.cronRow(c));
    return rows;
  }

  /**
   * `status.subscribe`: the snapshot; with `watch` the connection gets `status.changed` until
   * it closes.
   */
  subscribe(conn: Connection, watch = true): { sessions: LiveSessionStatus[]; at: number } {
    const sessions = this.snapshot();
    if (watch && !this.subscribers.has(conn)) {
      this.subscribers.add(conn);
      conn.onClose(() => this.subscribers.delete(conn));
    }
    return { sessions, at: this.now() };
  }

  /** In-process listener of the changes (escalation, tests). @returns its removal. */
  onChange(cb: (rows: LiveSessionStatus[], removed: string[]) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** Sends what is pending now (tests, shutdown). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const changed: LiveSessionStatus[] = [];
    for (const s of this.dirty) {
      const t = this.sessions.get(s);
      const r = t ? this.row(s, t) : undefined;
      if (r) changed.push(r);
    }
    this.dirty.clear();
    if (this.dirtyCron) for (const c of this.cron.values()) changed.push(this.cronRow(c));
    this.dirtyCron = false;
    const fresh: LiveSessionStatus[] = [];
    for (const r of changed) {
      const k = rowKey(r.profile, r.session_id);
      const { updated_at: _u, ...shape } = r;
      const text = JSON.stringify(shape);
      if (this.sent.get(k) === text) continue;
      this.sent.set(k, text);
      this.removed.delete(k);
      fresh.push(r);
    }
    const removed = [...this.removed];
    this.removed.clear();
    for (const k of removed) this.sent.delete(k);
    if (fresh.length === 0 && removed.length === 0) return;
    for (const cb of this.listeners) {
      try {
        cb(fresh, removed);
      } catch (err) {
        this.log?.(`status feed: a listener failed: ${(err as Error).message}`);
      }
    }
    if (this.subscribers.size === 0) return;
    const ev = wireEvent(
      'status.changed',
      '*',
      0,
      { sessions: fresh, removed, at: this.now() },
      this.now(),
      this.log,
    );
    for (const c of this.subscribers) if (!c.closed) c.notify(ev);
  }

  /** Stops the timer (daemon stop). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.subscribers.clear();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.coalesceMs);
    this.timer.unref();
  }

  private row(s: FeedSession, t: Tracked): LiveSessionStatus | undefined {
    let info: SessionInfo;
    try {
      info = s.info();
    } catch {
      return undefined;
    }
    const k = rowKey(s.profile, s.id);
    const before = this.shownAs.get(s);
    if (before && before !== k) this.removed.add(before); // compression moved it to a child id
    this.shownAs.set(s, k);
    const open = s.openRequests();
    const approval = open.find((r) => r.kind === 'approval');
    const clarify = open.find((r) => r.kind === 'clarify');
    const state = approval
      ? 'approval'
      : clarify
        ? 'clarify'
        : s.busy
          ? 'working'
          : t.failed
            ? 'failed'
            : 'idle';
    const escalatedTo = approval ? t.escalated.get(approval.request_id) : undefined;
    const params = (approval ?? clarify)?.params as { command?: unknown; question?: unknown } | undefined;
    return {
      profile: s.profile,
      session_id: s.id,
      title: info.title,
      source: info.source,
      origin: originOf(info.source),
      state,
      ...(approval && typeof params?.command === 'string' ? { command: params.command } : {}),
      ...(!approval && clarify && typeof params?.question === 'string' ? { question: params.question } : {}),
      ...(escalatedTo ? { escalated_to: escalatedTo } : {}),
      turn_started_at: s.busy ? t.turnStartedAt : null,
      tokens: t.baseTokens + t.turnTokens,
      cost_usd: t.cost,
      ...(t.costStatus ? { cost_status: t.costStatus } : {}),
      clients: s.clients.size,
      updated_at: this.now(),
    };
  }

  private cronRow(c: CronRow): LiveSessionStatus {
    return {
      profile: c.profile,
      session_id: c.session_id,
      title: c.title,
      source: 'cron',
      origin: 'cron',
      state: 'working',
      turn_started_at: c.started_at,
      tokens: c.tokens,
      cost_usd: c.cost_usd,
      ...(c.cost_status ? { cost_status: c.cost_status } : {}),
      clients: 0,
      updated_at: this.now(),
    };
  }
}
