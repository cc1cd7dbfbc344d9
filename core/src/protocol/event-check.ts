/**
 * The daemon's one way to build an event: `wireEvent()` types the payload from `EventPayloads`
 * and, under tests, checks it against its zod schema, so every event any test produces (in
 * process or in a daemon a test spawned) is validated. Outside tests the check costs nothing.
 */
import type { z } from 'zod';
import { EventPayloads, type EventPayload, type EventType, type WireEvent } from './wire-events.js';

/**
 * True when emitted payloads are checked: under vitest (`VITEST` is set, and inherited by the
 * daemons its tests spawn) or with `HERMES_VALIDATE_EVENTS=1`.
 */
export function eventChecksWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.VITEST) || env.HERMES_VALIDATE_EVENTS === '1';
}

let checking: boolean | undefined;

/**
 * Checks `payload` against the schema of event `type`.
 * @throws Error `event <type>: invalid payload: <path>: <problem>; …` (path `(payload)` for the
 *   payload itself), or `event <type>: not an event type of the protocol`.
 */
export function checkEventPayload(type: string, payload: unknown): void {
  const schema = (EventPayloads as Record<string, z.ZodType | undefined>)[type];
  if (!schema) throw new Error(`event ${type}: not an event type of the protocol (EventPayloads)`);
  const r = schema.safeParse(payload);
  if (r.success) return;
  const issues = r.error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(payload)'}: ${i.message}`)
    .join('; ');
  throw new Error(`event ${type}: invalid payload: ${issues}`);
}

/** Where a schema violation is reported besides the throw (the daemon's log). */
export type EventCheckReport = (line: string) => void;

/**
 * The wire event `type` of session `sessionId` (`*` for daemon-wide events, with seq 0). When
 * checks are on (`eventChecksWanted`, read once) the payload is validated first; a violation is
 * written to stderr and `report` in capitals (a test that spawned the daemon sees it in the
 * daemon's output, even when the throw is swallowed on the way) and thrown.
 * @throws Error from `checkEventPayload` when checks are on and the payload does not match.
 */
export function wireEvent<K extends EventType>(
  type: K,
  sessionId: string,
  seq: number,
  payload: EventPayload<K>,
  ts: number,
  report?: EventCheckReport,
): WireEvent {
  checking ??= eventChecksWanted();
  if (checking) {
    try {
      checkEventPayload(type, payload);
    } catch (err) {
      const line = `EVENT SCHEMA VIOLATION: ${(err as Error).message}`;
      process.stderr.write(`\n${line}\n`);
      report?.(line);
      throw err;
    }
  }
  // the payload matches `type` (checked by the caller's type, and here under tests)
  return { type, session_id: sessionId, seq, ts, payload } as WireEvent;
}
