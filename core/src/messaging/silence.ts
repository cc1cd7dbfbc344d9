/**
 * The silence filter: a model may answer exactly `NO_REPLY` or `[SILENT]` to say
 * "nothing to send this turn" (a monitoring cron job with nothing to report, a group message not
 * meant for it). Anything else is a reply.
 */

/** Markers that mean "send nothing" when they are the whole reply. */
export const SILENCE_MARKERS: readonly string[] = ['NO_REPLY', '[SILENT]'];

/** Replies longer than this are never silence, whatever they contain. */
export const MAX_SILENCE_CHARS = 64;

/**
 * True when the reply is intentional silence: after trimming whitespace it is exactly one of
 * `SILENCE_MARKERS` (case-sensitive). Longer text, text that merely mentions a marker, and an
 * empty reply (a failure, handled elsewhere) are not silence.
 */
export function isIntentionalSilence(text: string | null | undefined): boolean {
  if (typeof text !== 'string' || text.length > MAX_SILENCE_CHARS) return false;
  const t = text.trim();
  return t !== '' && SILENCE_MARKERS.includes(t);
}
