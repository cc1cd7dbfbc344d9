/**
 * Finding `old_string` in a file for the `patch` tool, and describing the change as a diff
 * (behaviour after the original's tools/fuzzy_match.py, reduced to its most useful strategies).
 *
 * Strategies, tried in order until one finds something:
 * 1. `exact` — the text as given, non-overlapping occurrences.
 * 2. `line-trimmed` — whole lines compared with leading/trailing whitespace removed (wrong
 *    indentation, trailing spaces, CRLF). Blank lines at the start/end of `old_string` are ignored.
 * 3. `whitespace-normalized` — as 2, and runs of spaces/tabs inside a line count as one space.
 * 4. `inline-whitespace` — runs of spaces/tabs count as one space anywhere, also within part of a
 *    line (`foo bar` finds `foo   bar` in `foo   bar baz`, `compute(a, b)` finds `compute(a,  b)`).
 * 5. `unicode-normalized` — typographic look-alikes count as ASCII (em dash as `--`, `…` as `...`,
 *    curly quotes, U+2212 minus, ideographic space …), exactly, else line by line trimmed.
 * Strategies 2 and 3 match whole lines only, so the replaced span always starts at a line start.
 * Normalising helpers and the replacement guards live in fuzzy-normalize.ts.
 */
import { collapseWhitespace, foldLookalikes, occurrences, toOriginal } from './fuzzy-normalize.js';

/** A matched span of the original text: `[start, end)` in UTF-16 code units. */
export interface MatchSpan {
  start: number;
  end: number;
}

/** Which strategy found the matches. */
export type MatchStrategy =
  'exact' | 'line-trimmed' | 'whitespace-normalized' | 'inline-whitespace' | 'unicode-normalized';

/** The matches of one strategy (the first that found any), or none. */
export interface FindResult {
  strategy: MatchStrategy | null;
  spans: MatchSpan[];
}

/** Offsets at which each line of `text` starts (the first is 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Index of the line containing `offset`, given `lineStarts(text)`. */
export function lineIndexAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function exactSpans(text: string, needle: string): MatchSpan[] {
  const spans: MatchSpan[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    spans.push({ start: i, end: i + needle.length });
  }
  return spans;
}

/** `lines` without blank lines at either end. */
export function trimBlankLines(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b);
}

function lineSpans(text: string, needle: string, norm: (line: string) => string): MatchSpan[] {
  const want = trimBlankLines(needle.split('\n')).map(norm);
  if (want.length === 0 || want.every((l) => l === '')) return [];
  const lines = text.split('\n');
  const starts = lineStarts(text);
  const have = lines.map(norm);
  const spans: MatchSpan[] = [];
  for (let i = 0; i + want.length <= have.length; i++) {
    let ok = true;
    for (let j = 0; j < want.length && ok; j++) ok = have[i + j] === want[j];
    if (!ok) continue;
    const last = i + want.length - 1;
    // a CRLF line's `\r` stays in the file: the replacement ends before it
    spans.push({ start: starts[i]!, end: starts[last]! + lines[last]!.replace(/\r$/, '').length });
    i = last;
  }
  return spans;
}

const STRATEGIES: [MatchStrategy, (line: string) => string][] = [
  ['line-trimmed', (l) => l.trim()],
  ['whitespace-normalized', (l) => l.trim().replace(/[ \t]+/g, ' ')],
];

/**
 * Finds `needle` in `text` with the first strategy that matches anything.
 * @returns `{strategy: null, spans: []}` when nothing matches (or `needle` is empty).
 */
export function findMatches(text: string, needle: string): FindResult {
  if (needle === '') return { strategy: null, spans: [] };
  const exact = exactSpans(text, needle);
  if (exact.length > 0) return { strategy: 'exact', spans: exact };
  for (const [strategy, norm] of STRATEGIES) {
    const spans = lineSpans(text, needle, norm);
    if (spans.length > 0) return { strategy, spans };
  }
  const inline = inlineWhitespaceSpans(text, needle);
  if (inline.length > 0) return { strategy: 'inline-whitespace', spans: inline };
  const folded = unicodeSpans(text, needle);
  if (folded.length > 0) return { strategy: 'unicode-normalized', spans: folded };
  return { strategy: null, spans: [] };
}

function inlineWhitespaceSpans(text: string, needle: string): MatchSpan[] {
  const want = collapseWhitespace(needle).text.trim();
  if (!want) return [];
  const have = collapseWhitespace(text);
  return occurrences(have.text, want).map((k) => toOriginal(have, k, k + want.length));
}

function unicodeSpans(text: string, needle: string): MatchSpan[] {
  const have = foldLookalikes(text);
  const want = foldLookalikes(needle).text;
  if (have.text === text && want === needle) return [];
  const exact = occurrences(have.text, want).map((k) => toOriginal(have, k, k + want.length));
  if (exact.length > 0) return exact;
  return lineSpans(have.text, want, (l) => l.trim()).map((sp) => toOriginal(have, sp.start, sp.end));
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * Prepares `replacement` for a span found by a whitespace-tolerant strategy: drops blank lines at
 * its ends (as the match ignored them in `needle`) and, when the file's indentation differs from
 * `needle`'s, moves each line's `needle` indentation to the file's.
 */
export function adaptReplacement(replacement: string, needle: string, matched: string): string {
  const newLines = trimBlankLines(replacement.split('\n'));
  const oldFirst = trimBlankLines(needle.split('\n'))[0] ?? '';
  const from = indentOf(oldFirst);
  const to = indentOf(matched.split('\n')[0] ?? '');
  if (from === to) return newLines.join('\n');
  return newLines
    .map((l) => (l.trim() === '' ? l : l.startsWith(from) ? to + l.slice(from.length) : l))
    .join('\n');
}

/** Replaces each span of `text` with `replacement(span)`; spans are ascending and disjoint. */
export function applySpans(text: string, spans: MatchSpan[], replacement: (s: MatchSpan) => string): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + replacement(s);
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * A unified-diff-style description of replacing `spans` of `before` (ascending, disjoint): one
 * hunk per span with up to `context` unchanged lines around it, at most `maxHunks` hunks.
 */
export function diffSnippet(
  before: string,
  spans: MatchSpan[],
  replacement: (s: MatchSpan) => string,
  context = 2,
  maxHunks = 10,
): string {
  const lines = before.split('\n');
  const starts = lineStarts(before);
  const out: string[] = [];
  let lineDelta = 0;
  spans.forEach((s, n) => {
    const first = lineIndexAt(starts, s.start);
    const last = lineIndexAt(starts, Math.max(s.start, s.end - 1));
    const blockStart = starts[first]!;
    const blockEnd = starts[last]! + lines[last]!.length;
    let oldBlock = before.slice(blockStart, blockEnd).split('\n');
    let newBlock = (before.slice(blockStart, s.start) + replacement(s) + before.slice(s.end, blockEnd)).split(
      '\n',
    );
    // Unchanged lines at the ends of the block become context.
    let head = 0;
    while (head < oldBlock.length - 1 && head < newBlock.length - 1 && oldBlock[head] === newBlock[head])
      head++;
    let tail = 0;
    while (
      tail < oldBlock.length - head - 1 &&
      tail < newBlock.length - head - 1 &&
      oldBlock[oldBlock.length - 1 - tail] === newBlock[newBlock.length - 1 - tail]
    ) {
      tail++;
    }
    oldBlock = oldBlock.slice(head, oldBlock.length - tail);
    newBlock = newBlock.slice(head, newBlock.length - tail);
    const oFirst = first + head;
    const oLast = last - tail;
    if (n < maxHunks) {
      const ctxStart = Math.max(0, oFirst - context);
      const ctxEnd = Math.min(lines.length - 1, oLast + context);
      const oldCount = oldBlock.length + (oFirst - ctxStart) + (ctxEnd - oLast);
      const newCount = newBlock.length + (oFirst - ctxStart) + (ctxEnd - oLast);
      out.push(`@@ -${ctxStart + 1},${oldCount} +${ctxStart + 1 + lineDelta},${newCount} @@`);
      for (let i = ctxStart; i < oFirst; i++) out.push(` ${lines[i]}`);
      for (const l of oldBlock) out.push(`-${l}`);
      for (const l of newBlock) out.push(`+${l}`);
      for (let i = oLast + 1; i <= ctxEnd; i++) out.push(` ${lines[i]}`);
    }
    lineDelta += newBlock.length - oldBlock.length;
  });
  if (spans.length > maxHunks) out.push(`[... ${spans.length - maxHunks} more changes not shown]`);
  return out.join('\n');
}
