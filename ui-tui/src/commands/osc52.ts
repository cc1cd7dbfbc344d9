/**
 * Clipboard through OSC 52: the terminal (even over SSH) puts the text on the local clipboard.
 * Inside tmux the sequence is wrapped for passthrough (tmux needs `set -g allow-passthrough on`
 * or `set-clipboard on`).
 */

/** Largest text sent, bytes before base64 (many terminals cap OSC 52 near 100 KB). */
export const OSC52_MAX_BYTES = 74_994;

/**
 * The escape sequence that copies `text`: `ESC ] 52 ; c ; <base64> BEL`, wrapped as
 * `ESC P tmux; … ESC \` (with inner ESCs doubled) when `$TMUX` is set.
 */
export function osc52(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length > OSC52_MAX_BYTES) bytes = bytes.subarray(0, OSC52_MAX_BYTES);
  const seq = `\u001b]52;c;${bytes.toString('base64')}\u0007`;
  if (env.TMUX) return `\u001bPtmux;${seq.replaceAll('\u001b', '\u001b\u001b')}\u001b\\`;
  return seq;
}
