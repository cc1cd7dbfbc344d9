/**
 * The original's sessions and messages into this hermes's SessionDB. Each session arrives in one
 * write transaction together with its row in `migrated_sessions` (original id → ours), so a run
 * cut short leaves whole sessions only, and a second run skips what the first brought. Messages
 * are inserted through the `messages` table, whose triggers index them for `hermes sessions
 * search` as they arrive.
 */
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { applyJournalMode, applyWriterPragmas, openWriter } from '../state/connection.js';
import { MESSAGE_COLUMNS } from '../state/schema.js';
import { SessionDB } from '../state/session-db.js';
import { newSessionId, sessionIdProblem } from '../state/session-id.js';
import { uniqueTitle } from '../state/session-picks.js';
import { BOOKKEEPING_WRITE_BUDGET_MS, withWriteRetry } from '../state/write-retry.js';
import {
  openPrivateCopy,
  type PrivateCopy,
  type SourceDb,
  type SourceMessage,
  type SourceSession,
} from './source-db.js';
import type { SessionsResult } from './types.js';

/** The record of what was migrated: one row per original session, in the target's state.db. */
export const MIGRATED_SESSIONS_DDL = `
CREATE TABLE IF NOT EXISTS migrated_sessions (
  source_id   TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL,
  source_file TEXT NOT NULL,
  messages    INTEGER NOT NULL,
  migrated_at INTEGER NOT NULL
);`;

const MAX_TITLE = 200;

function alreadyMigrated(db: Database.Database | undefined): Map<string, string> {
  if (!db) return new Map();
  const has = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrated_sessions'`)
    .get();
  if (!has) return new Map();
  const rows = db.prepare('SELECT source_id, session_id FROM migrated_sessions').all() as {
    source_id: string;
    session_id: string;
  }[];
  return new Map(rows.map((r) => [r.source_id, r.session_id]));
}

function messageRow(m: SourceMessage): unknown[] {
  // MESSAGE_COLUMNS: role, content, tool_calls, tool_call_id, tool_name, timestamp,
  // finish_reason, reasoning, status, outcome, attachments
  return [
    m.role,
    m.content,
    m.tool_calls,
    m.tool_call_id,
    m.tool_name,
    m.timestamp,
    m.finish_reason,
    m.reasoning,
    m.role === 'assistant' ? 'complete' : null,
    null,
    null,
  ];
}

function pickId(db: Database.Database, s: SourceSession): string {
  const taken = (id: string): boolean => Boolean(db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(id));
  if (sessionIdProblem(s.id) === null && !taken(s.id)) return s.id;
  for (;;) {
    const id = newSessionId(new Date(s.startedAt || Date.now()));
    if (!taken(id)) return id;
  }
}

/**
 * Brings every session of `source` into the SessionDB at `targetFile` (created when missing),
 * or with `dryRun` only counts what would come (nothing is created or written).
 * @throws MigrateError naming the source file when it cannot be read; SessionDBError naming the
 *   target (locked beyond the budget, another program's database …). Sessions stored before the
 *   error stay stored and recorded; a second run continues with the rest.
 */
export function importSessions(source: SourceDb, targetFile: string, dryRun: boolean): SessionsResult {
  const result: SessionsResult = {
    sessions: 0,
    messages: 0,
    alreadyMigrated: 0,
    skipped: [],
    skippedMessages: {},
  };
  const sessions = source.sessions();
  let db: Database.Database | undefined;
  let copy: PrivateCopy | undefined;
  try {
    if (dryRun) {
      // read through a private copy: even a read-only open leaves -wal/-shm files behind
      copy = existsSync(targetFile) ? openPrivateCopy(targetFile) : undefined;
    } else {
      SessionDB.open(targetFile).close(); // creates or migrates our schema; refuses another program's file
      db = openWriter(targetFile);
      applyWriterPragmas(db, applyJournalMode(db, targetFile));
      withWriteRetry(() => db!.exec(MIGRATED_SESSIONS_DDL), { budgetMs: BOOKKEEPING_WRITE_BUDGET_MS });
    }
    const mapping = alreadyMigrated(db ?? copy?.db);
    for (const s of sessions) {
      if (mapping.has(s.id)) {
        result.alreadyMigrated++;
        continue;
      }
      const { messages, skipped } = source.transcript(s);
      for (const [why, n] of Object.entries(skipped))
        result.skippedMessages[why] = (result.skippedMessages[why] ?? 0) + n;
      if (messages.length === 0) {
        result.skipped.push({ item: `session ${s.id}`, reason: 'no messages to bring' });
        continue;
      }
      if (!dryRun) {
        const id = storeSession(db!, s, messages, mapping, source.file);
        mapping.set(s.id, id);
      }
      result.sessions++;
      result.messages += messages.length;
    }
  } finally {
    db?.close();
    copy?.dispose();
  }
  return result;
}

function storeSession(
  db: Database.Database,
  s: SourceSession,
  messages: SourceMessage[],
  mapping: Map<string, string>,
  sourceFile: string,
): string {
  const txn = db.transaction((): string => {
    const id = pickId(db, s);
    const prepare = (sql: string): Database.Statement => db.prepare(sql);
    const title = s.title?.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) || null;
    const last = Math.max(s.startedAt, s.endedAt ?? 0, ...messages.map((m) => m.timestamp));
    db.prepare(
      `INSERT INTO sessions (id, source, title, model, cwd, started_at, updated_at, ended_at, end_reason,
         parent_session_id, message_count, prompt_tokens, completion_tokens, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      s.source,
      title && uniqueTitle(prepare, title),
      s.model,
      s.cwd,
      s.startedAt,
      last,
      s.endedAt,
      s.endReason,
      s.parentId ? (mapping.get(s.parentId) ?? null) : null,
      messages.length,
      s.inputTokens,
      s.outputTokens,
      s.endedAt === null ? 'active' : 'ended',
    );
    const insert = db.prepare(
      `INSERT INTO messages (session_id, ${MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const m of messages) insert.run(id, ...messageRow(m));
    db.prepare(
      'INSERT INTO migrated_sessions (source_id, session_id, source_file, messages, migrated_at) VALUES (?, ?, ?, ?, ?)',
    ).run(s.id, id, sourceFile, messages.length, Date.now());
    return id;
  });
  return withWriteRetry(() => txn.immediate(), { budgetMs: BOOKKEEPING_WRITE_BUDGET_MS });
}
