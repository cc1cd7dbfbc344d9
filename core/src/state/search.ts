/**
 * Full-text search over messages: FTS5 MATCH with snippets, and a LIKE
 * substring search used for CJK text (which the unicode61 tokenizer does not split into words)
 * and by read-only connections when the FTS index is unusable.
 */
import type Database from 'better-sqlite3';
import type { FtsQuery } from './fts-query.js';
import type { SearchHit, SearchOptions } from './types.js';

/** Hits returned when the caller gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Most hits one search returns, whatever the caller asks. */
export const MAX_SEARCH_LIMIT = 500;

/** Characters of context on each side of a match in LIKE snippets. */
const LIKE_CONTEXT_CHARS = 60;

interface Filter {
  where: string[];
  params: unknown[];
}

function filters(opts: SearchOptions): Filter {
  const where: string[] = [];
  const params: unknown[] = [];
  if (opts.sessionId) {
    where.push('m.session_id = ?');
    params.push(opts.sessionId);
  }
  if (opts.role) {
    where.push('m.role = ?');
    params.push(opts.role);
  }
  return { where, params };
}

/** The hit limit requested, clamped to 1..`MAX_SEARCH_LIMIT`. */
export function searchLimit(opts: SearchOptions): number {
  const n = Math.floor(Number(opts.limit ?? DEFAULT_SEARCH_LIMIT));
  return Number.isFinite(n) ? Math.min(Math.max(n, 1), MAX_SEARCH_LIMIT) : DEFAULT_SEARCH_LIMIT;
}

/**
 * How many of the newest matches are ranked by relevance. Ranking every match of a common word
 * over 100,000 messages costs ~80 ms; ranking the newest 2,000 costs ~3 ms (bench/sessiondb).
 */
export const RANK_WINDOW = 2000;

/**
 * FTS5 search: the newest `RANK_WINDOW` matching messages, best matches (bm25) first, newer first
 * on ties. The snippet wraps matched tokens in `[` `]` and elides with `…`. Throws what SQLite
 * throws (e.g. SQLITE_CORRUPT_VTAB on a damaged index); the caller repairs or falls back.
 */
export function ftsSearch(
  db: Database.Database,
  query: FtsQuery,
  opts: SearchOptions,
  prepare: (sql: string) => Database.Statement = (sql) => db.prepare(sql),
): SearchHit[] {
  const f = filters(opts);
  const and = f.where.map((w) => ` AND ${w}`).join('');
  const sql = `
    SELECT m.session_id AS session_id, m.id AS message_id, m.role AS role, m.timestamp AS timestamp,
           s.title AS session_title,
           snippet(messages_fts, -1, '[', ']', '…', 16) AS snippet
    FROM messages_fts
    JOIN messages m ON m.id = messages_fts.rowid
    JOIN sessions s ON s.id = m.session_id
    WHERE messages_fts MATCH ?${and}
      AND messages_fts.rowid >= coalesce((
        SELECT w.rowid FROM messages_fts w${f.where.length ? ' JOIN messages m ON m.id = w.rowid' : ''}
        WHERE w.messages_fts MATCH ?${and}
        ORDER BY w.rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)
    ORDER BY rank, m.id DESC
    LIMIT ?`;
  return prepare(sql).all(
    query.match,
    ...f.params,
    query.match,
    ...f.params,
    searchLimit(opts),
  ) as SearchHit[];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Builds a `…context [match] context…` excerpt around the first term found in `text`. */
export function likeSnippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  let len = 0;
  for (const t of terms) {
    const i = lower.indexOf(t.toLowerCase());
    if (i !== -1 && (at === -1 || i < at)) {
      at = i;
      len = t.length;
    }
  }
  if (at === -1) return text.slice(0, LIKE_CONTEXT_CHARS * 2);
  const start = Math.max(0, at - LIKE_CONTEXT_CHARS);
  const end = Math.min(text.length, at + len + LIKE_CONTEXT_CHARS);
  return (
    (start > 0 ? '…' : '') +
    text.slice(start, at) +
    `[${text.slice(at, at + len)}]` +
    text.slice(at + len, end) +
    (end < text.length ? '…' : '')
  );
}

/**
 * Substring search: every term must occur (case-insensitively for ASCII) in the content, tool
 * name or tool-call JSON. Newest first. Scans the table, so it is slower than FTS on big
 * databases; used only for CJK queries and as a read-only fallback.
 */
export function likeSearch(db: Database.Database, terms: string[], opts: SearchOptions): SearchHit[] {
  const f = filters(opts);
  const where = [...f.where];
  const params: unknown[] = [...f.params];
  for (const t of terms) {
    where.push(
      `(m.content LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\')`,
    );
    const p = `%${escapeLike(t)}%`;
    params.push(p, p, p);
  }
  const rows = db
    .prepare(
      `SELECT m.session_id AS session_id, m.id AS message_id, m.role AS role, m.timestamp AS timestamp,
              s.title AS session_title, COALESCE(m.content, m.tool_calls, m.tool_name, '') AS text
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE ${where.join(' AND ')}
       ORDER BY m.id DESC LIMIT ?`,
    )
    .all(...params, searchLimit(opts)) as (Omit<SearchHit, 'snippet'> & { text: string })[];
  return rows.map(({ text, ...hit }) => ({ ...hit, snippet: likeSnippet(text, terms) }));
}
