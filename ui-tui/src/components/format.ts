/** Text formatting helpers for the components: durations, token counts, paths, truncation. */
import { homedir } from 'node:os';
import stringWidth from 'string-width';

export { cleanText, stripControls } from '../util/sanitize.js';

/** `850ms`, `1.2s`, `2m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Whole seconds as `12s`, `3m05s` (for elapsed time of a turn). */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** `950`, `12.3k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A path with the home folder shown as `~`. */
export function tildePath(path: string, home = homedir()): string {
  return home && (path === home || path.startsWith(home + '/')) ? `~${path.slice(home.length)}` : path;
}

/** Cuts text to `max` terminal columns, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return '';
  if (stringWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (stringWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** A single line: newlines and runs of whitespace become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `3m ago`, `2h ago`, `5d ago`. */
export function formatAge(ts: number, now = Date.now()): string {
  const s = Math.max(0, Math.floor((now - ts) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/**
 * Word-wraps plain text to `width` columns: breaks at spaces (no space left at a line start), a
 * word longer than the width is cut, and a wrapped line keeps the indentation its line started
 * with, plus `hang` more columns for the lines after the first (a hanging indent).
 */
export function wrapWords(text: string, width: number, hang = 0): string {
  const w = Math.max(10, Math.floor(width));
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= w) {
      out.push(line); // fits: spacing (aligned columns) kept as it is
      continue;
    }
    const indent = /^ */.exec(line)![0];
    // each word with the spaces before it (kept inside a line, dropped at a break)
    const words = [...line.slice(indent.length).matchAll(/( *)(\S+)/g)].map((m) => [m[1]!, m[2]!] as const);
    let cur = indent;
    let lead = indent; // what an empty line of this paragraph starts with
    for (const [gap, w0] of words) {
      let word = w0;
      const empty = cur.length === lead.length;
      if (!empty && cur.length + gap.length + word.length <= w) {
        cur += gap + word;
        continue;
      }
      if (!empty) {
        out.push(cur);
        lead = indent + ' '.repeat(Math.min(hang, Math.max(0, w - indent.length - 10)));
        cur = lead;
      }
      while (cur.length + word.length > w) {
        const room = Math.max(1, w - cur.length);
        out.push(cur + word.slice(0, room));
        word = word.slice(room);
        cur = lead;
      }
      cur += word;
    }
    out.push(cur);
  }
  return out.join('\n');
}
