/**
 * Find-and-replace on a file's text for the `patch` tool, without touching the disk: matching
 * (`fuzzy-match.ts`), the uniqueness rule, the guards that refuse a suspicious edit, and the
 * replacement text for each match. Pure, so the same rules can be checked on strings.
 *
 * Order:
 * 1. an empty or whitespace-only `old_string` is refused (no anchor);
 * 2. `findMatches` (exact, then whitespace-tolerant, then Unicode-normalised); when nothing matches
 *    and `old_string` holds the two-character sequences `\t`, `\r` or `\n`, they are read as the
 *    control characters and matching is tried again (`escape-normalized`: a model that escaped
 *    the file's tabs or line ends);
 * 3. no match → an error with the file's closest lines ("Did you mean …"), or, when `old_string`
 *    carries `\'` or `\"` that the file never has, a note on escape drift instead; several
 *    matches without `replaceAll` → an error saying how many;
 * 4. after a non-exact match: refused when `new_string` is indented deeper than `old_string`
 *    without opening a block (an indentation typo). (Escape drift cannot get this far: every
 *    strategy compares quotes and backslashes as they are.)
 * 5. the replacement: re-indented to the file (line strategies), the file's typographic characters
 *    kept (Unicode), CRLF when the file uses it. A literal `\t` (`\r`) in `new_string` becomes a
 *    tab (carriage return) when the matched text has real ones and `new_string` has none: the model
 *    escaped them. `\n` is left alone (except under `escape-normalized`), since newlines survive
 *    the transport and `\n` in code is usually meant literally.
 */
import {
  adaptReplacement,
  applySpans,
  findMatches,
  type MatchSpan,
  type MatchStrategy,
} from './fuzzy-match.js';
import {
  blankAnchorError,
  foldLookalikes,
  preserveFileCharacters,
  rogueIndentError,
} from './fuzzy-normalize.js';

/** Strategies of `fuzzyReplace`: those of `findMatches` and the escape-normalised retry. */
export type ReplaceStrategy = MatchStrategy | 'escape-normalized';

/** The outcome of `fuzzyReplace`. */
export type ReplaceResult =
  | {
      ok: true;
      /** The new text. */
      text: string;
      strategy: ReplaceStrategy;
      /** The replaced spans of the old text, ascending. */
      spans: MatchSpan[];
      /** The text that replaces one span. */
      replacement: (s: MatchSpan) => string;
    }
  | {
      ok: false;
      /** For the model: what went wrong and what to send instead; ends with "Nothing was changed." or a hint. */
      error: string;
      /** The strategy that matched, when the refusal came after a match. */
      strategy: ReplaceStrategy | null;
    };

/** Options of `fuzzyReplace`. */
export interface ReplaceOptions {
  /** Replace every match instead of requiring exactly one. */
  replaceAll?: boolean;
  /** How messages name the file (`app.py`); default "the file". */
  where?: string;
  /** Quote the file's closest lines when nothing matches (default true; off for secret files). */
  hint?: boolean;
}

const unescapeControls = (s: string): string =>
  s.replace(/\\([trn])/g, (_, c: string) => (c === 't' ? '\t' : c === 'r' ? '\r' : '\n'));
const DRIFT = ["\\'", '\\"'];

/**
 * Replaces `oldString` with `newString` in `content` (see the module doc).
 * @returns the new text and what matched, or the refusal; `content` itself is never changed.
 */
export function fuzzyReplace(
  content: string,
  oldString: string,
  newString: string,
  opts: ReplaceOptions = {},
): ReplaceResult {
  const where = opts.where ?? 'the file';
  if (oldString === '')
    return { ok: false, error: 'old_string is empty; nothing to find. Nothing was changed.', strategy: null };
  const blank = blankAnchorError(oldString);
  if (blank) return { ok: false, error: blank, strategy: null };

  let found: { strategy: ReplaceStrategy | null; spans: MatchSpan[] } = findMatches(content, oldString);
  let oldUsed = oldString;
  let newUsed = newString;
  if (found.strategy === null && /\\[trn]/.test(oldString)) {
    const retry = findMatches(content, unescapeControls(oldString));
    if (retry.strategy !== null) {
      found = { strategy: 'escape-normalized', spans: retry.spans };
      oldUsed = unescapeControls(oldString);
      newUsed = unescapeControls(newString);
    }
  }
  const { strategy, spans } = found;
  if (strategy === null) {
    const drift = DRIFT.find((q) => oldString.includes(q) && !content.includes(q));
    return {
      ok: false,
      strategy: null,
      error:
        `Could not find a match for old_string in ${where} (also tried whitespace- and Unicode-insensitive matching). ` +
        'Nothing was changed. ' +
        (drift
          ? `Escape-drift suspected: old_string contains the literal sequence ${drift} (a backslash before a quote), ` +
            `which ${where} never has; send the quotes without the backslash, as the file has them.`
          : 'Read the file again with read_file and copy the exact text, including indentation.' +
            (opts.hint === false ? '' : closestLinesHint(oldString, content))),
    };
  }
  if (spans.length > 1 && !opts.replaceAll) {
    return {
      ok: false,
      strategy,
      error:
        `Found ${spans.length} matches for old_string in ${where}${strategy === 'exact' ? '' : ` (${strategy} matching)`}; ` +
        'it must match exactly once. Include more surrounding lines in old_string to make it unique, or set ' +
        'replace_all to true to change every occurrence. Nothing was changed.',
    };
  }

  if (strategy !== 'exact') {
    const rogue = rogueIndentError(oldUsed, newUsed);
    if (rogue) return { ok: false, strategy, error: `Suspicious indentation: ${rogue}` };
  }

  const crlf = content.includes('\r\n');
  const toFile = (s: string): string => (crlf ? s.replace(/\r?\n/g, '\r\n') : s);
  const lf = (s: string): string => s.replace(/\r\n/g, '\n');
  const replacement = (s: MatchSpan): string => {
    const region = content.slice(s.start, s.end);
    const wanted = unescapeLikeRegion(newUsed, region);
    const matched = lf(region);
    if (strategy === 'exact' || strategy === 'inline-whitespace' || strategy === 'escape-normalized')
      return toFile(wanted);
    if (
      strategy === 'unicode-normalized' &&
      foldLookalikes(matched).text === foldLookalikes(lf(oldUsed)).text
    )
      return toFile(preserveFileCharacters(matched, lf(oldUsed), lf(wanted)));
    return toFile(adaptReplacement(lf(wanted), oldUsed, matched));
  };
  return { ok: true, text: applySpans(content, spans, replacement), strategy, spans, replacement };
}

/** `newString` with literal `\t` / `\r` read as tab / CR where `region` has real ones and `newString` none. */
function unescapeLikeRegion(newString: string, region: string): string {
  let out = newString;
  if (region.includes('\t') && !out.includes('\t') && out.includes('\\t')) out = out.replace(/\\t/g, '\t');
  if (region.includes('\r') && !out.includes('\r') && out.includes('\\r')) out = out.replace(/\\r/g, '\r');
  return out;
}

/** Character-bigram Dice similarity of two trimmed lines, 0 … 1. */
function similarity(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++)
    grams.set(x.slice(i, i + 2), (grams.get(x.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (x.length - 1 + y.length - 1);
}

const HINT_MIN_SIMILARITY = 0.5;
const HINT_MAX_LINES = 3;
const HINT_SCAN_LINES = 20_000;

/**
 * The file's lines most like the first non-blank line of `oldString`, numbered `N| text`, as a
 * "Did you mean" hint; "" when no line is at least half similar.
 */
export function closestLinesHint(oldString: string, content: string): string {
  const probe = oldString.split('\n').find((l) => l.trim() !== '');
  if (!probe) return '';
  const lines = content.split('\n').slice(0, HINT_SCAN_LINES);
  const scored = lines
    .map((line, i) => ({
      i,
      line: line.replace(/\r$/, ''),
      score: line.trim() ? similarity(probe, line) : 0,
    }))
    .filter((c) => c.score >= HINT_MIN_SIMILARITY)
    .sort((p, q) => q.score - p.score || p.i - q.i)
    .slice(0, HINT_MAX_LINES)
    .sort((p, q) => p.i - q.i);
  if (scored.length === 0) return '';
  const shown = scored.map(
    (c) => `  ${c.i + 1}| ${c.line.length > 200 ? `${c.line.slice(0, 200)}…` : c.line}`,
  );
  return `\nDid you mean one of these lines?\n${shown.join('\n')}`;
}
