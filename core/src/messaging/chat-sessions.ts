/**
 * Which session each chat uses (the routing index of the messaging layer): session key → current
 * session id, in `<home>/sessions/sessions.json`.
 *
 * - Reset policies (reset-policy.ts) decide when a key gets a fresh session; the old one is
 *   ended in state.db (`end_reason` `reset:<why>`). Sessions with running work never expire.
 * - At start `prune()` drops entries whose session is missing or already ended (left by a hard
 *   crash), so messages are never routed into a closed session.
 * - A key missing from the index is looked up in state.db through its route record
 *   (route-record.ts) before a new session is created, so a deleted index loses nothing.
 * - The file starts with a `_README` key saying what it is; keys starting with `_` are skipped
 *   on load. Written atomically, mode 0600 (it holds platform user ids).
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';
import { resetReason, type ResetPolicy, type ResetReason } from './reset-policy.js';
import { findRouteSession, followCompression, writeRouteRecord, type RouteDb } from './route-record.js';
import { CHAT_TYPES, sourceFromJson, sourceToJson, type ChatType, type MessageSource } from './source.js';

/** The note at the top of sessions.json. */
export const SESSIONS_README =
  'Routing index of the messaging layer: which session each chat (session key) currently uses. ' +
  'It is not the list of sessions: every session and message lives in state.db next to this folder ' +
  '(see `hermes sessions list`). Deleting this file is safe; it is rebuilt from state.db.';

/** One routing entry. Times are epoch ms. */
export interface SessionEntry {
  session_key: string;
  session_id: string;
  created_at: number;
  /** Last activity (message in or out). */
  updated_at: number;
  platform: string;
  chat_type: ChatType;
  /** Where replies and `origin` deliveries go. */
  origin?: MessageSource;
}

/** Options of the store. */
export interface ChatSessionIndexOptions {
  /** Usually `home.sessionsIndexFile`. */
  file: string;
  db: RouteDb;
  now?: () => number;
  log?: (line: string) => void;
  /** True when the session has running work; such sessions never expire. Errors count as true. */
  hasActiveWork?: (sessionId: string) => boolean;
}

/** A lookup for an inbound message. */
export interface SessionRequest {
  key: string;
  source: MessageSource;
  policy: ResetPolicy;
  /** IANA zone of daily resets (config `timezone`). */
  timeZone?: string;
  /** Creates the stored session (system prompt, route record) and returns its id. */
  create: () => string;
}

/** What `getOrCreate` did. */
export interface SessionResolution {
  entry: SessionEntry;
  /** A new session was created for this message. */
  created: boolean;
  /** The previous session of the key expired by policy. */
  resetReason?: ResetReason;
  /** The id of the session that was replaced (reset or stale). */
  previousSessionId?: string;
  /** The entry was missing from the index and found in state.db. */
  recovered?: boolean;
}

function isEntry(v: unknown): v is SessionEntry {
  const e = v as SessionEntry;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.session_key === 'string' &&
    typeof e.session_id === 'string' &&
    typeof e.created_at === 'number' &&
    typeof e.updated_at === 'number' &&
    typeof e.platform === 'string' &&
    CHAT_TYPES.includes(e.chat_type)
  );
}

/** The routing index of one home. Synchronous: every operation completes before returning. */
export class ChatSessionIndex {
  private entries: Map<string, SessionEntry> | undefined;
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: ChatSessionIndexOptions) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => undefined);
  }

  private load(): Map<string, SessionEntry> {
    if (this.entries) return this.entries;
    const map = new Map<string, SessionEntry>();
    if (existsSync(this.opts.file)) {
      try {
        const data = JSON.parse(readFileSync(this.opts.file, 'utf8')) as Record<string, unknown>;
        for (const [key, value] of Object.entries(data ?? {})) {
          if (key.startsWith('_')) continue;
          if (!isEntry(value) || value.session_key !== key) continue;
          const origin = sourceFromJson(value.origin);
          map.set(key, { ...value, ...(origin ? { origin } : { origin: undefined }) });
        }
      } catch (err) {
        this.log(`sessions.json unreadable (${(err as Error).message}): rebuilding from state.db`);
      }
    }
    this.entries = map;
    return map;
  }

  private save(): void {
    const out: Record<string, unknown> = { _README: SESSIONS_README };
    for (const [key, e] of this.load()) {
      out[key] = { ...e, ...(e.origin ? { origin: sourceToJson(e.origin) } : {}) };
    }
    writeFileAtomic(this.opts.file, `${JSON.stringify(out, null, 2)}\n`, 0o600);
  }

  private activeWork(sessionId: string): boolean {
    try {
      return this.opts.hasActiveWork?.(sessionId) ?? false;
    } catch {
      return true; // fail safe: never drop the context of a session we cannot inspect
    }
  }

  private isLive(sessionId: string): boolean {
    const s = this.opts.db.getSession(sessionId);
    return !!s && s.ended_at === null;
  }

  /**
   * Points an entry whose session was compressed at the continuation (the newest live session
   * of the chain). @returns whether the entry now names a live session.
   */
  private followTip(entry: SessionEntry): boolean {
    if (this.isLive(entry.session_id)) return true;
    const tip = followCompression(this.opts.db, entry.session_id);
    if (!tip || tip.ended_at !== null || tip.id === entry.session_id) return false;
    this.moved(entry.session_id, tip.id);
    return true;
  }

  /**
   * Context compression continued session `oldId` in `newId`: every entry naming `oldId` now
   * names `newId`, and `newId` gets a route record so a lost index still finds it.
   */
  moved(oldId: string, newId: string): void {
    if (!oldId || !newId || oldId === newId) return;
    let changed = false;
    for (const e of this.load().values()) {
      if (e.session_id !== oldId) continue;
      e.session_id = newId;
      changed = true;
      try {
        if (e.origin) writeRouteRecord(this.opts.db, newId, e.session_key, e.origin);
      } catch (err) {
        this.log(`could not write the route record of ${newId}: ${(err as Error).message}`);
      }
    }
    if (changed) this.save();
  }

  /**
   * Routes `key` to `sessionId` from now on (a session handed off to this chat): the entry is
   * created or re-pointed, its times set to now.
   * @returns the session the key named before, if any.
   */
  point(key: string, sessionId: string, origin: MessageSource): string | undefined {
    const map = this.load();
    const before = map.get(key)?.session_id;
    const now = this.now();
    map.set(key, {
      session_key: key,
      session_id: sessionId,
      created_at: now,
      updated_at: now,
      platform: origin.platform,
      chat_type: origin.chatType,
      origin,
    });
    this.save();
    return before;
  }

  /** Drops the entry of `key`; the session itself is untouched (its next message starts anew). */
  forget(key: string): void {
    if (this.load().delete(key)) this.save();
  }

  /** The entry of a key, if indexed (no DB access, no policy check). */
  get(key: string): SessionEntry | undefined {
    return this.load().get(key);
  }

  /** Every indexed entry. */
  list(): SessionEntry[] {
    return [...this.load().values()];
  }

  /** The entry whose session is `sessionId`, if indexed. */
  findBySession(sessionId: string): SessionEntry | undefined {
    for (const e of this.load().values()) if (e.session_id === sessionId) return e;
    return undefined;
  }

  /**
   * Drops entries whose session is missing from state.db or already ended (run once at start).
   * @returns the number of entries dropped.
   */
  prune(): number {
    const map = this.load();
    let n = 0;
    for (const [key, e] of [...map]) {
      if (!this.followTip(e)) {
        map.delete(key);
        n++;
      }
    }
    if (n > 0) {
      this.save();
      this.log(`sessions.json: pruned ${n} stale entr${n === 1 ? 'y' : 'ies'} (session ended or missing)`);
    }
    return n;
  }

  /**
   * The session of an inbound message: the indexed one (touched), else the one found in state.db,
   * else a new one — replacing a session that expired by policy or was ended elsewhere.
   */
  getOrCreate(req: SessionRequest): SessionResolution {
    const map = this.load();
    const now = this.now();
    let previous: string | undefined;
    let reason: ResetReason | undefined;
    let recovered = false;

    let entry = map.get(req.key);
    if (entry && !this.followTip(entry)) {
      previous = entry.session_id; // ended elsewhere (/new in a TUI, `hermes sessions delete`)
      map.delete(req.key);
      entry = undefined;
    }
    if (!entry && !previous) {
      const found = findRouteSession(this.opts.db, req.key);
      if (found) {
        entry = {
          session_key: req.key,
          session_id: found.id,
          created_at: found.started_at,
          updated_at: found.updated_at,
          platform: req.source.platform,
          chat_type: req.source.chatType,
          origin: req.source,
        };
        recovered = true;
        this.log(`sessions.json: recovered ${req.key} → ${found.id} from state.db`);
      }
    }
    if (entry) {
      reason = resetReason(req.policy, entry.updated_at, now, {
        ...(req.timeZone ? { timeZone: req.timeZone } : {}),
        activeWork: this.activeWork(entry.session_id),
      });
      if (reason) {
        previous = entry.session_id;
        this.endQuietly(entry.session_id, `reset:${reason}`);
        map.delete(req.key);
        entry = undefined;
        recovered = false;
      }
    }
    if (entry) {
      entry.updated_at = now;
      entry.origin = req.source;
      map.set(req.key, entry);
      this.save();
      return { entry, created: false, ...(recovered ? { recovered } : {}) };
    }
    const sessionId = req.create();
    entry = {
      session_key: req.key,
      session_id: sessionId,
      created_at: now,
      updated_at: now,
      platform: req.source.platform,
      chat_type: req.source.chatType,
      origin: req.source,
    };
    map.set(req.key, entry);
    this.save();
    return {
      entry,
      created: true,
      ...(reason ? { resetReason: reason } : {}),
      ...(previous ? { previousSessionId: previous } : {}),
    };
  }

  /** Marks activity on a key now (a reply was sent). */
  touch(key: string): void {
    const e = this.load().get(key);
    if (!e) return;
    e.updated_at = this.now();
    this.save();
  }

  /**
   * Explicit reset (`/new`, `/reset`): ends the key's session in state.db and forgets the key,
   * so the next message starts a new session.
   * @returns the id of the session that was ended, if any.
   */
  reset(key: string, reason = 'session_reset'): string | undefined {
    const map = this.load();
    const e = map.get(key);
    if (!e) return undefined;
    this.endQuietly(e.session_id, reason);
    map.delete(key);
    this.save();
    return e.session_id;
  }

  private endQuietly(sessionId: string, reason: string): void {
    try {
      if (this.isLive(sessionId)) this.opts.db.endSession(sessionId, reason);
    } catch (err) {
      this.log(`could not end session ${sessionId}: ${(err as Error).message}`);
    }
  }
}
