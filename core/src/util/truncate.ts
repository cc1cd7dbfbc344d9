/** Text capping that keeps both ends, used for tool results, command output and context files. */

/**
 * Caps `text` at `maxChars` by keeping the head (about 70%) and the tail and putting a marker
 * between them, so both the start (headers, commands) and the end (errors, summaries) survive.
 * @param marker builds the marker from the number of chars cut.
 * @returns `text` unchanged when it fits.
 */
export function truncateMiddle(
  text: string,
  maxChars: number,
  marker: (cutChars: number) => string = (cut) => `\n\n[... ${cut} chars omitted ...]\n\n`,
): string {
  if (text.length <= maxChars) return text;
  const probe = marker(text.length - maxChars);
  const budget = Math.max(0, maxChars - probe.length);
  const head = Math.ceil(budget * 0.7);
  const tail = budget - head;
  const cut = text.length - head - tail;
  return text.slice(0, head) + marker(cut) + (tail > 0 ? text.slice(text.length - tail) : '');
}
