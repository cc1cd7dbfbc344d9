/**
 * When the session store draws a frame (store.ts): which actions are drawn at once, when a
 * finished reply's last delta gets a frame of its own, and how long a stream may pause before it
 * is drawn without waiting out the throttle.
 */
import type { SessionAction } from '../state/session-reducer.js';
import type { SessionState } from '../state/types.js';

/** Whether `a` is drawn at once (everything but the deltas of a stream and tool progress). */
export const isUrgent = (a: SessionAction): boolean =>
  !(a.type === 'event' && ['message.delta', 'reasoning.delta', 'tool.progress'].includes(a.event.type));

/**
 * Chars of a finished reply still to print (its last block, rendered whole) from which its last
 * delta is drawn first, in a frame of its own (store.ts `paintFirst`): printing a long block (a
 * 2,000-line code block, highlighted) takes long enough to hold back the reply's last words. A
 * shorter rest is printed in the frame that draws the last delta: one frame, not two.
 */
export const PAINT_FIRST_CHARS = 4_000;

/** A finished reply with a long block still to print: its last delta is drawn first. */
export const paintFirst = (a: SessionAction, s: SessionState): boolean =>
  a.type === 'event' &&
  a.event.type === 'message.complete' &&
  s.streaming !== null &&
  s.streaming.text.length - s.streaming.scan.cut > PAINT_FIRST_CHARS;

/**
 * A stream that pauses this long (ms) is drawn without waiting out the throttle, so its last delta
 * shows within a frame even when `message.complete` comes later (store.ts `quietMs`).
 */
export const STREAM_QUIET_MS = 8;
