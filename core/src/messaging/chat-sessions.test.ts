import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { DEFAULT_RESET_POLICY, type ResetPolicy } from './reset-policy.js';
import { findRouteSession, writeRouteRecord } from './route-record.js';
import { buildSessionKey } from './session-key.js';
import { ChatSessionIndex, SESSIONS_README } from './chat-sessions.js';
import type { MessageSource } from './source.js';

const dbs: SessionDB[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

function setup(opts: { busy?: Set<string> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-store-'));
  const db = SessionDB.open(join(dir, 'state.db'));
  dbs.push(db);
  const clock = { t: Date.parse('2026-03-01T12:00:00Z') };
  const file = join(dir, 'sessions', 'sessions.json');
  const make = () =>
    new ChatSessionIndex({
      file,
      db,
      now: () => clock.t,
      hasActiveWork: (id) => opts.busy?.has(id) ?? false,
    });
  return { dir, db, clock, file, store: make(), make };
}

const alice: MessageSource = {
  platform: 'irc',
  chatType: 'dm',
  chatId: 'alice',
  userId: 'alice',
  userName: 'alice',
};
const idle30: ResetPolicy = { mode: 'idle', atHour: 4, idleMinutes: 30 };
const never: ResetPolicy = { ...DEFAULT_RESET_POLICY, mode: 'none' };

function request(db: SessionDB, source: MessageSource, policy: ResetPolicy) {
  const key = buildSessionKey(source);
  return {
    key,
    source,
    policy,
    timeZone: 'UTC',
    create: () => {
      const s = db.createSession({ source: source.platform });
      db.appendMessage(s.id, { role: 'system', content: 'prompt' });
      writeRouteRecord(db, s.id, key, source);
      return s.id;
    },
  };
}

describe('ChatSessionIndex', () => {
  it('point routes a key to another session (a handoff) and back; forget drops it, the sessions stay', () => {
    const { db, store, make } = setup();
    const own = store.getOrCreate(request(db, alice, never)).entry.session_id;
    const tui = db.createSession({ source: 'tui' }).id;
    const key = buildSessionKey(alice);
    expect(store.point(key, tui, alice)).toBe(own);
    expect(make().getOrCreate(request(db, alice, never))).toMatchObject({
      created: false,
      entry: { session_id: tui },
    });
    const fresh = make();
    expect(fresh.point(key, own, alice)).toBe(tui);
    expect(fresh.get(key)?.session_id).toBe(own);
    fresh.forget(key);
    expect(make().get(key)).toBeUndefined();
    expect(db.getSession(own)?.ended_at).toBeNull();
    expect(db.getSession(tui)?.ended_at).toBeNull();
  });

  it('creates once, then reuses and touches the session', () => {
    const { db, store, clock } = setup();
    const first = store.getOrCreate(request(db, alice, idle30));
    expect(first.created).toBe(true);
    clock.t += 10 * 60_000;
    const second = store.getOrCreate(request(db, alice, idle30));
    expect(second).toMatchObject({
      created: false,
      entry: { session_id: first.entry.session_id, updated_at: clock.t },
    });
    clock.t += 25 * 60_000; // 25 min after the last activity: still alive
    expect(store.getOrCreate(request(db, alice, idle30)).created).toBe(false);
  });

  it('writes the _README note first, 0600, and skips _ keys on load', () => {
    const { db, store, file, make } = setup();
    store.getOrCreate(request(db, alice, never));
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(data)[0]).toBe('_README');
    expect(data._README).toBe(SESSIONS_README);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(make().list()).toHaveLength(1);
  });

  it('an idle session is ended in state.db and replaced', () => {
    const { db, store, clock } = setup();
    const first = store.getOrCreate(request(db, alice, idle30));
    clock.t += 31 * 60_000;
    const next = store.getOrCreate(request(db, alice, idle30));
    expect(next).toMatchObject({
      created: true,
      resetReason: 'idle',
      previousSessionId: first.entry.session_id,
    });
    expect(db.getSession(first.entry.session_id)).toMatchObject({ state: 'ended', end_reason: 'reset:idle' });
  });

  it('crossing the daily boundary resets; policy none never does', () => {
    const { db, store, clock } = setup();
    const daily: ResetPolicy = { mode: 'daily', atHour: 4, idleMinutes: 1440 };
    store.getOrCreate(request(db, alice, daily));
    clock.t = Date.parse('2026-03-02T03:59:00Z');
    expect(store.getOrCreate(request(db, alice, daily)).created).toBe(false);
    clock.t = Date.parse('2026-03-02T04:00:01Z');
    expect(store.getOrCreate(request(db, alice, daily)).resetReason).toBe('daily');
    clock.t += 365 * 24 * 3600_000;
    const r = store.getOrCreate(request(db, alice, never));
    expect(r.created).toBe(false);
  });

  it('a session with running work never expires', () => {
    const busy = new Set<string>();
    const { db, store, clock } = setup({ busy });
    const first = store.getOrCreate(request(db, alice, idle30));
    busy.add(first.entry.session_id);
    clock.t += 5 * 3600_000;
    expect(store.getOrCreate(request(db, alice, idle30)).created).toBe(false);
    busy.clear();
    clock.t += 31 * 60_000;
    expect(store.getOrCreate(request(db, alice, idle30)).resetReason).toBe('idle');
  });

  it('prune() drops entries whose session ended or vanished (crash leftovers)', () => {
    const { db, store, make } = setup();
    const bob: MessageSource = { ...alice, chatId: 'bob', userId: 'bob' };
    const a = store.getOrCreate(request(db, alice, never));
    const b = store.getOrCreate(request(db, bob, never));
    db.endSession(a.entry.session_id, 'closed');
    db.deleteSession(b.entry.session_id);
    const restarted = make();
    expect(restarted.prune()).toBe(2);
    expect(restarted.list()).toEqual([]);
  });

  it('an entry ended elsewhere (TUI /new) gets a new session, not the ended one', () => {
    const { db, store } = setup();
    const a = store.getOrCreate(request(db, alice, never));
    db.endSession(a.entry.session_id, 'closed');
    const next = store.getOrCreate(request(db, alice, never));
    expect(next.created).toBe(true);
    expect(next.entry.session_id).not.toBe(a.entry.session_id);
  });

  it('rebuilds a lost index from state.db (route records), key by key', () => {
    const { db, store, file, make } = setup();
    const bob: MessageSource = { ...alice, chatId: 'bob', userId: 'bob', userName: 'bob' };
    const a = store.getOrCreate(request(db, alice, never));
    const b = store.getOrCreate(request(db, bob, never));
    rmSync(file);
    const fresh = make();
    const ra = fresh.getOrCreate(request(db, alice, never));
    expect(ra).toMatchObject({ created: false, recovered: true, entry: { session_id: a.entry.session_id } });
    expect(fresh.getOrCreate(request(db, bob, never)).entry.session_id).toBe(b.entry.session_id);
    expect(findRouteSession(db, buildSessionKey({ ...alice, chatId: 'carol' }))).toBeUndefined();
  });

  it('a corrupt index is rebuilt too', () => {
    const { db, store, file, make } = setup();
    const a = store.getOrCreate(request(db, alice, never));
    writeFileSync(file, '{ not json');
    expect(make().getOrCreate(request(db, alice, never)).entry.session_id).toBe(a.entry.session_id);
  });

  it('a recovered session that expired meanwhile is replaced', () => {
    const { db, store, file, make, clock } = setup();
    clock.t = Date.now(); // recovery reads the session's own updated_at (wall clock)
    const a = store.getOrCreate(request(db, alice, idle30));
    rmSync(file);
    clock.t += 2 * 3600_000;
    const r = make().getOrCreate(request(db, alice, idle30));
    expect(r).toMatchObject({ created: true, resetReason: 'idle', previousSessionId: a.entry.session_id });
  });

  it('reset() ends the session and forgets the key', () => {
    const { db, store } = setup();
    const a = store.getOrCreate(request(db, alice, never));
    expect(store.reset(a.entry.session_key)).toBe(a.entry.session_id);
    expect(db.getSession(a.entry.session_id)?.end_reason).toBe('session_reset');
    expect(store.getOrCreate(request(db, alice, never)).created).toBe(true);
  });

  it('follows context compression to the continuation (event, restart and lost index)', () => {
    const { db, store, file, make } = setup();
    const a = store.getOrCreate(request(db, alice, never));
    const compress = (parentId: string): string => {
      const child = db.createSession({ source: 'irc', parentSessionId: parentId });
      db.endSession(parentId, 'compressed');
      return child.id;
    };
    // live: the pipeline reports session.compressed
    const c1 = compress(a.entry.session_id);
    store.moved(a.entry.session_id, c1);
    expect(store.getOrCreate(request(db, alice, never))).toMatchObject({
      created: false,
      entry: { session_id: c1 },
    });
    // missed event (crash): the ended parent is followed to its child at start
    const c2 = compress(c1);
    const restarted = make();
    expect(restarted.prune()).toBe(0);
    expect(restarted.get(a.entry.session_key)?.session_id).toBe(c2);
    // lost index: the route record of c1 (written by moved) leads to c2
    rmSync(file);
    expect(make().getOrCreate(request(db, alice, never))).toMatchObject({
      recovered: true,
      entry: { session_id: c2 },
    });
  });
});
