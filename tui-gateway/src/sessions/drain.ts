/**
 * How a graceful stop (`hermes gateway stop`, SIGTERM) treats the turns still running.
 *
 * Decision (README "Shutdown of running turns"): `gateway.drain_timeout` is the most a stop
 * waits for turns to finish by themselves — and only for turns that make progress. A turn
 * with no agent event (no text delta, reasoning, tool start/progress/end …) for
 * `DRAIN_STALL_MS` is considered stuck (a model call that hangs, a silent tool) and interrupted at
 * once, without waiting for the deadline; at the deadline every turn still running is
 * interrupted. Interrupting uses the `session.interrupt` path (the model request is aborted,
 * tool process groups are killed, open approvals are denied, the partial reply is stored
 * `interrupted`), and the clients get an `error` event (`kind: "shutdown"`) saying why.
 */
import type { LiveSession } from './live-session.js';

/** A running turn with no agent event for this long during a drain is interrupted, ms. */
export const DRAIN_STALL_MS = 5_000;

/** How often the drain looks at the running turns, ms (at most). */
const CHECK_EVERY_MS = 250;

/** How long interrupted turns get to wind down (abort, kill tools, store the partial), ms. */
const INTERRUPT_GRACE_MS = 2_000;

/** Options of `drainTurns`. */
export interface DrainTurnsOptions {
  /** `gateway.drain_timeout` in ms: the longest wait for turns that make progress. */
  timeoutMs: number;
  /** Interrupt a turn silent for this long (default `DRAIN_STALL_MS`). */
  stallMs?: number;
  log?: (line: string) => void;
  now?: () => number;
}

/** What became of the running turns. */
export interface DrainTurnsResult {
  /** True when every turn ended by itself (none was interrupted). */
  clean: boolean;
  /** Ids of the sessions whose turn was interrupted. */
  interrupted: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/**
 * Waits for the turns of `sessions` (the ones busy when the stop began) to end, interrupting the
 * stuck ones at once and the rest at the deadline (see the module comment).
 */
export async function drainTurns(sessions: LiveSession[], o: DrainTurnsOptions): Promise<DrainTurnsResult> {
  const now = o.now ?? Date.now;
  const stallMs = o.stallMs ?? DRAIN_STALL_MS;
  const deadline = now() + o.timeoutMs;
  const running = new Set(sessions.filter((s) => s.busy));
  const done = new Map<LiveSession, Promise<void>>();
  for (const s of running)
    done.set(
      s,
      s.idle().then(() => void running.delete(s)),
    );
  const interrupted = new Set<LiveSession>();
  const stop = (s: LiveSession, why: string): void => {
    if (interrupted.has(s)) return;
    interrupted.add(s);
    o.log?.(`shutdown: interrupting the turn of session ${s.id} (${why})`);
    s.emit('error', {
      message: `The daemon is shutting down: this turn was interrupted (${why}). Its partial reply is kept.`,
      kind: 'shutdown',
    });
    s.interrupt();
  };
  while (running.size > 0) {
    const t = now();
    if (t >= deadline) {
      for (const s of running) stop(s, `still running after drain_timeout ${o.timeoutMs} ms`);
      await Promise.race([Promise.all(done.values()), sleep(INTERRUPT_GRACE_MS)]);
      break;
    }
    for (const s of running) {
      const silent = t - s.lastProgress;
      if (silent >= stallMs) stop(s, `no progress for ${Math.round(silent / 1000)} s`);
    }
    const wake = Math.min(CHECK_EVERY_MS, Math.max(deadline - t, 1));
    await Promise.race([...[...running].map((s) => done.get(s)!), sleep(wake)]);
  }
  const stuck = [...interrupted].filter((s) => running.has(s));
  if (stuck.length > 0) {
    o.log?.(`shutdown: interrupted turns still running: ${stuck.map((s) => s.id).join(', ')}`);
  }
  return {
    clean: interrupted.size === 0 && running.size === 0,
    interrupted: [...interrupted].map((s) => s.id),
  };
}

/**
 * The sessions' side of a graceful stop: the busy ones are marked `resume_pending` before the
 * wait, every session holds its waiting prompts (kept stored, shown held after the restart), the
 * running turns are drained (`drainTurns`), and the busy ones whose turn ended by itself are
 * marked `idle` again. Interrupted ones stay `resume_pending`: the next start marks them
 * interrupted (and continues them with `gateway.auto_continue`).
 * @param storeState stores a session's state; must not throw (a failure is the caller's to log).
 * @returns whether every turn ended by itself.
 */
export async function drainSessions(
  sessions: LiveSession[],
  storeState: (live: LiveSession, state: string) => void,
  o: DrainTurnsOptions,
): Promise<boolean> {
  const busy = sessions.filter((live) => live.busy);
  for (const live of busy) storeState(live, 'resume_pending');
  for (const live of sessions) live.holdQueue();
  const { clean, interrupted } = await drainTurns(busy, o);
  for (const live of busy) {
    if (interrupted.includes(live.id) || live.busy) continue;
    storeState(live, 'idle');
  }
  return clean;
}
