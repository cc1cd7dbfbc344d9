/**
 * Size limits of the wire protocol that code outside the protocol needs at run time. Kept apart
 * from the zod schemas so that importing one (the agent loop does) does not load zod: `hermes
 * chat` start-up stays free of it (bench `chat.first_request`).
 */

/** Longest `detail` of a `tool.complete`, characters. */
export const TOOL_DETAIL_MAX_CHARS = 8_000;

/**
 * `text` cut to at most `max` characters (default `TOOL_DETAIL_MAX_CHARS`) the way
 * `tool.complete`'s `detail` is cut: a longer one keeps its head and tail (where a command's
 * errors and exit code are), `max / 2` characters each, around a `… N characters left out …`
 * line. The marker is not counted in `max`: this caps what clients show, not what the model reads
 * (tool results are capped by `capHeadTail`, util/head-tail.ts, with its own marker).
 */
export function capDetail(text: string, max: number = TOOL_DETAIL_MAX_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n… ${text.length - 2 * half} characters left out …\n${text.slice(-half)}`;
}
