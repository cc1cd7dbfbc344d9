/**
 * Turns what a user types into a safe FTS5 MATCH expression (quotes, hyphens
 * and dangling AND/OR must not break search; hyphenated terms must be findable).
 *
 * Rules:
 * - Every term becomes a quoted FTS5 string, so no character of it is syntax. The tokenizer then
 *   splits it like the indexed text: `gpt-4o` becomes the phrase `gpt 4o`, which matches the
 *   text "gpt-4o" (and "gpt 4o").
 * - A balanced `"…"` stays one phrase; an unbalanced quote is ignored. Curly quotes count too.
 * - Upper-case `AND`, `OR`, `NOT` between two terms are operators; leading, trailing and repeated
 *   ones are dropped (of a run, the last one wins). Lower-case `and`/`or` are ordinary words.
 * - Parentheses, `:`, `^`, `+`, `{}` and other syntax are inert inside the quotes.
 * - A word ending in `*` (`deploy*`) is a prefix search.
 * - Control characters (NUL would end the string inside SQLite) count as spaces.
 * - Terms with no letter or digit are dropped; at most `MAX_TERMS` terms are kept.
 */

/** Most terms kept from one query (the rest is ignored). */
export const MAX_TERMS = 32;
/** Longest input considered, in characters (the rest is ignored). */
export const MAX_QUERY_CHARS = 1000;

/** A parsed user query. */
export interface FtsQuery {
  /** The FTS5 expression for `messages_fts MATCH ?`. */
  match: string;
  /** The plain terms (phrases as typed inside their quotes), for LIKE fallbacks and highlighting. */
  terms: string[];
}

type Token = { kind: 'term'; text: string; prefix: boolean } | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' };

const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u{20000}-\u{2a6df}]/u;

/** True when `text` contains Chinese, Japanese or Korean characters (the unicode61 tokenizer keeps
 * a whole CJK run as one token, so such queries are better served by a substring search). */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

function tokenize(input: string): Token[] {
  const s = input
    .slice(0, MAX_QUERY_CHARS)
    .replace(/[\u201c\u201d\u201e\u201f\u00ab\u00bb]/g, '"')
    // eslint-disable-next-line no-control-regex -- a NUL would end the string inside SQLite
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      const close = s.indexOf('"', i + 1);
      if (close === -1) {
        i++; // unbalanced quote: ignore it
        continue;
      }
      const phrase = s.slice(i + 1, close).trim();
      const prefix = s[close + 1] === '*';
      if (phrase) tokens.push({ kind: 'term', text: phrase, prefix });
      i = close + 1 + (prefix ? 1 : 0);
      continue;
    }
    let j = i;
    while (j < s.length && !/\s/.test(s[j]!) && s[j] !== '"') j++;
    const word = s.slice(i, j);
    i = j;
    if (word === 'AND' || word === 'OR' || word === 'NOT') {
      tokens.push({ kind: 'op', op: word });
      continue;
    }
    const prefix = /[\p{L}\p{N}]\*+$/u.test(word);
    tokens.push({ kind: 'term', text: prefix ? word.replace(/\*+$/, '') : word, prefix });
  }
  return tokens;
}

const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/**
 * Builds the MATCH expression for a user's query.
 * @returns null when the query holds nothing searchable (empty, only operators or punctuation).
 * Never throws; the result is always valid FTS5 syntax.
 */
export function buildFtsQuery(input: string): FtsQuery | null {
  const parts: string[] = [];
  const terms: string[] = [];
  let pendingOp: string | null = null;
  for (const tok of tokenize(String(input ?? ''))) {
    if (tok.kind === 'op') {
      if (terms.length > 0) pendingOp = tok.op; // leading operators are dropped
      continue;
    }
    if (!HAS_WORD_CHAR.test(tok.text)) continue;
    if (terms.length >= MAX_TERMS) break;
    if (pendingOp) parts.push(pendingOp);
    pendingOp = null; // trailing operators are never emitted
    parts.push(quote(tok.text) + (tok.prefix ? '*' : ''));
    terms.push(tok.text);
  }
  if (terms.length === 0) return null;
  return { match: parts.join(' '), terms };
}
