/**
 * Heartbeats: a recurring prompt run inside a named, existing session (it keeps that session's
 * context), stored per profile (heartbeat-store.ts), served by the daemon.
 *
 * Rules:
 * - At most once per tick, like cron: when a heartbeat is due, its next time is moved past now
 *   and saved before its prompt is submitted. A daemon that dies in between loses that tick; it
 *   never runs it twice. Ticks missed while no daemon ran are not made up: the first check after
 *   a start runs it once, then every `every` from then.
 * - Never stacks: while a turn of the session runs (or prompts wait in its queue) a due heartbeat
 *   waits (`waiting`), and runs once when the session is idle; ticks that come due meanwhile are
 *   dropped.
 * - The prompt is submitted as `heartbeat:<id>` (the transcript shows who sent it). A session that
 *   no longer exists removes its heartbeats (logged).
 */
import { randomBytes } from 'node:crypto';
import { HermesHome } from '@hermes/core/home';
import { RpcErrorCode, type HeartbeatInfo } from '@hermes/core/protocol';
import { RpcMethodError } from '../rpc/types.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { parseEvery, readHeartbeats, writeHeartbeats, type StoredHeartbeat } from './heartbeat-store.js';

/** How often due heartbeats are looked for, ms. */
export const HEARTBEAT_CHECK_MS = 1000;

/** Options of the service. */
export interface HeartbeatOptions {
  root: string;
  registry: () => SessionRegistry | undefined;
  profiles: () => string[];
  log: (line: string) => void;
  checkMs?: number;
  now?: () => number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The daemon's heartbeats across profiles. */
export class HeartbeatService {
  private readonly waiting = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly o: HeartbeatOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Starts the periodic check. */
  start(): void {
    this.timer = setInterval(() => this.check(), this.o.checkMs ?? HEARTBEAT_CHECK_MS);
    this.timer.unref();
  }

  /** Stops it (shutdown). */
  stop(): void {
    clearInterval(this.timer);
  }

  private home(profile: string): HermesHome {
    return new HermesHome(this.o.root, profile);
  }

  private info(h: StoredHeartbeat): HeartbeatInfo {
    return { ...h, waiting: this.waiting.has(h.id) };
  }

  /**
   * Adds a heartbeat to an existing session of `profile`; first due one interval from now.
   * @throws RpcMethodError InvalidParams (interval), SessionNotFound.
   */
  add(profile: string, sessionId: string, every: string, prompt: string): HeartbeatInfo {
    let everyMs: number;
    try {
      everyMs = parseEvery(every);
    } catch (err) {
      throw new RpcMethodError(RpcErrorCode.InvalidParams, (err as Error).message);
    }
    const registry = this.o.registry();
    const live = registry?.get(profile, sessionId); // loads it; throws SessionNotFound
    const now = this.now();
    const h: StoredHeartbeat = {
      id: `hb-${randomBytes(3).toString('hex')}`,
      profile,
      session_id: live?.id ?? sessionId,
      prompt,
      every: every.trim(),
      every_ms: everyMs,
      created_at: iso(now),
      next_run_at: iso(now + everyMs),
      last_run_at: null,
      runs: 0,
    };
    const home = this.home(profile);
    writeHeartbeats(home, [...readHeartbeats(home), h]);
    this.o.log(`heartbeat ${h.id}: every ${h.every} in session ${h.session_id} (profile ${profile})`);
    return this.info(h);
  }

  /** The heartbeats of a profile (of one session when given). */
  list(profile: string, sessionId?: string): HeartbeatInfo[] {
    return readHeartbeats(this.home(profile))
      .filter((h) => !sessionId || h.session_id === sessionId)
      .map((h) => this.info(h));
  }

  /** Removes one. @throws RpcMethodError InvalidParams for an id unknown in the profile. */
  remove(profile: string, id: string): HeartbeatInfo {
    const home = this.home(profile);
    const all = readHeartbeats(home);
    const h = all.find((x) => x.id === id);
    if (!h)
      throw new RpcMethodError(RpcErrorCode.InvalidParams, `no heartbeat "${id}" in profile ${profile}`);
    writeHeartbeats(
      home,
      all.filter((x) => x.id !== id),
    );
    this.waiting.delete(id);
    this.o.log(`heartbeat ${id}: removed`);
    return this.info(h);
  }

  /** One check over every profile: claims due heartbeats, runs those whose session is idle. */
  check(): void {
    const registry = this.o.registry();
    if (!registry || registry.isDraining) return;
    for (const profile of this.o.profiles()) {
      try {
        this.checkProfile(registry, profile);
      } catch (err) {
        this.o.log(`heartbeats of profile ${profile}: ${(err as Error).message}`);
      }
    }
  }

  private checkProfile(registry: SessionRegistry, profile: string): void {
    const home = this.home(profile);
    const all = readHeartbeats(home);
    if (all.length === 0) return;
    const now = this.now();
    let changed = false;
    const gone = new Set<string>();
    const run: StoredHeartbeat[] = [];
    for (const h of all) {
      if (Date.parse(h.next_run_at) <= now) {
        // claimed: the next time moves past now first (a missed or waiting tick is dropped)
        h.next_run_at = iso(now + h.every_ms);
        changed = true;
        this.waiting.add(h.id);
      }
      if (this.waiting.has(h.id)) run.push(h);
    }
    const started: StoredHeartbeat[] = [];
    for (const h of run) {
      let live;
      try {
        live = registry.get(profile, h.session_id);
      } catch (err) {
        if ((err as RpcMethodError).code === RpcErrorCode.SessionNotFound) gone.add(h.id);
        this.o.log(`heartbeat ${h.id}: session ${h.session_id}: ${(err as Error).message}`);
        continue;
      }
      if (live.busy || live.queued().length > 0) continue; // waits for the turn; never stacks
      started.push(h);
      h.last_run_at = iso(now);
      h.runs += 1;
      h.session_id = live.id; // compression may have moved it
      changed = true;
    }
    if (changed || gone.size > 0)
      writeHeartbeats(
        home,
        all.filter((h) => !gone.has(h.id)),
      );
    // submitted only after the claim is saved
    for (const h of started) {
      this.waiting.delete(h.id);
      try {
        registry.get(profile, h.session_id).submit(h.prompt, `heartbeat:${h.id}`);
      } catch (err) {
        this.o.log(`heartbeat ${h.id}: cannot submit: ${(err as Error).message}`);
      }
    }
    for (const id of gone) {
      this.waiting.delete(id);
      this.o.log(`heartbeat ${id}: its session is gone; removed`);
    }
  }
}
