/**
 * How sessions are picked and told apart (user-trial findings 2 and 14): which session
 * `--continue` resumes, the first prompt shown as a preview, automatic titles from the first
 * prompt, and unique titles (a compressed continuation or a second session with the same title
 * gets "title (2)"). SQL helpers used by `SessionDB`; they run inside its read/write wrappers.
 */
import { splitAttachedText } from '../protocol/attachment-text.js';
import type Database from 'better-sqlite3';
import type { SessionRecord } from './types.js';
import { MAX_TITLE_CHARS } from './validate.js';

/** Sources of sessions a person typed into: `--continue` resumes only these, and they get auto-titles. */
export const INTERACTIVE_SOURCES: readonly string[] = ['cli', 'tui'];

/** Longest automatic title, in characters (a word boundary is preferred). */
export const AUTO_TITLE_CHARS = 60;

type Prepare = (sql: string) => Database.Statement;

const IN_INTERACTIVE = `source IN (${INTERACTIVE_SOURCES.map((s) => `'${s}'`).join(', ')})`;

/**
 * The session `--continue` resumes: the interactive (cli/tui) session with the latest activity
 * (`updated_at`), preferring one whose folder is `cwd`; sessions a compression continued in a
 * child are skipped (the child carries on). Undefined when there is no interactive session.
 */
export function continueCandidate(prepare: Prepare, cwd: string | undefined): SessionRecord | undefined {
  return prepare(
    `SELECT * FROM sessions
     WHERE ${IN_INTERACTIVE} AND coalesce(end_reason, '') <> 'compressed'
     ORDER BY (cwd IS ?) DESC, updated_at DESC, rowid DESC LIMIT 1`,
  ).get(cwd ?? null) as SessionRecord | undefined;
}

/** `text` on one line (whitespace runs become one space), cut to `max` characters ending in `…`. */
export function previewText(text: string, max = AUTO_TITLE_CHARS): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space >= max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The title a session gets from its first prompt (a local rule, no model call): the first
 * non-empty line, one line, at most `AUTO_TITLE_CHARS` characters. Undefined for a prompt with
 * no words.
 */
export function autoTitleFrom(prompt: string): string | undefined {
  const line = prompt.split('\n').find((l) => /\w/u.test(l));
  if (!line) return undefined;
  return previewText(line) || undefined;
}

/**
 * The first user prompt of each session (those without one are absent from the map): its typed
 * text, without the content of attached `@` references.
 */
export function firstPrompts(prepare: Prepare, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const stmt = prepare(
    `SELECT content FROM messages WHERE session_id = ? AND role = 'user' AND content <> '' ORDER BY id LIMIT 1`,
  );
  for (const id of ids) {
    const row = stmt.get(id) as { content: string } | undefined;
    if (row) out.set(id, splitAttachedText(row.content).text);
  }
  return out;
}

/** The session (other than `exceptId`) already titled `title` (case-insensitive), if any. */
export function titleHolder(prepare: Prepare, title: string, exceptId?: string): string | undefined {
  const row = prepare('SELECT id FROM sessions WHERE title = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1').get(
    title,
    exceptId ?? null,
  ) as { id: string } | undefined;
  return row?.id;
}

/**
 * `title` when no other session has it, else the base title (without a " (n)" suffix) with the
 * next free number: "Fix the build (2)", "(3)" …
 */
export function uniqueTitle(prepare: Prepare, title: string, exceptId?: string): string {
  if (!titleHolder(prepare, title, exceptId)) return title;
  const base = title.replace(/ \(\d+\)$/, '');
  const rows = prepare(
    `SELECT title FROM sessions WHERE (title = ? COLLATE NOCASE OR title LIKE ? ESCAPE '\\') AND id IS NOT ?`,
  ).all(base, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)} (%)`, exceptId ?? null) as { title: string }[];
  let n = 1;
  for (const r of rows) {
    const m = / \((\d+)\)$/.exec(r.title);
    if (m && r.title.slice(0, -m[0].length).toLowerCase() === base.toLowerCase())
      n = Math.max(n, Number(m[1]));
  }
  const suffix = ` (${n + 1})`;
  return `${base.slice(0, MAX_TITLE_CHARS - suffix.length)}${suffix}`;
}

/**
 * Titles an untitled interactive session from its first prompt (call inside the write that
 * stores the prompt, before inserting it): nothing when it has a title, is not cli/tui, or
 * already has a user message.
 */
export function applyAutoTitle(prepare: Prepare, sessionId: string, prompt: string): void {
  const s = prepare('SELECT title, source FROM sessions WHERE id = ?').get(sessionId) as
    Pick<SessionRecord, 'title' | 'source'> | undefined;
  if (!s || s.title !== null || !INTERACTIVE_SOURCES.includes(s.source)) return;
  if (prepare(`SELECT 1 FROM messages WHERE session_id = ? AND role = 'user' LIMIT 1`).get(sessionId)) return;
  const title = autoTitleFrom(prompt);
  if (title)
    prepare('UPDATE sessions SET title = ? WHERE id = ?').run(
      uniqueTitle(prepare, title, sessionId),
      sessionId,
    );
}
