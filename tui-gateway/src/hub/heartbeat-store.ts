/**
 * The heartbeats of one profile: `<home>/heartbeats.json`, a JSON list written whole and
 * atomically (temp file, rename, mode 0600) by the daemon only — `hermes heartbeat` goes through
 * the daemon. A file that is not a heartbeat list is reported and left as it is (nothing runs
 * from it, nothing overwrites it).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { HermesHome } from '@hermes/core/home';
import type { HeartbeatInfo } from '@hermes/core/protocol';
import { writeFileAtomic } from '@hermes/core/util';

/** A stored heartbeat (the wire form without the in-memory `waiting`). */
export type StoredHeartbeat = Omit<HeartbeatInfo, 'waiting'>;

/** The file's path in a home. */
export function heartbeatsFile(home: HermesHome): string {
  return home.path('heartbeats.json');
}

/** Reads the list ([] when there is no file). @throws Error naming the file when it is not a list. */
export function readHeartbeats(home: HermesHome): StoredHeartbeat[] {
  const file = heartbeatsFile(home);
  if (!existsSync(file)) return [];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`heartbeats file ${file} is not valid JSON (${(err as Error).message}); left as it is`, {
      cause: err,
    });
  }
  if (!Array.isArray(data)) throw new Error(`heartbeats file ${file} is not a list; left as it is`);
  return data.filter(
    (h): h is StoredHeartbeat =>
      !!h &&
      typeof h === 'object' &&
      typeof (h as StoredHeartbeat).id === 'string' &&
      typeof (h as StoredHeartbeat).session_id === 'string' &&
      typeof (h as StoredHeartbeat).prompt === 'string' &&
      typeof (h as StoredHeartbeat).every_ms === 'number' &&
      (h as StoredHeartbeat).every_ms >= 1000 &&
      typeof (h as StoredHeartbeat).next_run_at === 'string',
  );
}

/** Writes the list whole (atomic, 0600). */
export function writeHeartbeats(home: HermesHome, list: readonly StoredHeartbeat[]): void {
  writeFileAtomic(heartbeatsFile(home), `${JSON.stringify(list, null, 1)}\n`, 0o600);
}

/**
 * Milliseconds of an interval: `<n>s`, `<n>m`, `<n>h`, `<n>d` (also `30 min`, `2 hours`).
 * @throws Error for anything else, or under 1 s.
 */
export function parseEvery(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)\s*$/i.exec(
    text,
  );
  if (!m) throw new Error(`"${text}" is not an interval (e.g. 30m, 2h, 45s)`);
  const unit = m[2]!.toLowerCase()[0]!;
  const ms =
    Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as 's' | 'm' | 'h' | 'd']!;
  if (ms < 1000) throw new Error(`"${text}" is shorter than a second`);
  return Math.round(ms);
}
