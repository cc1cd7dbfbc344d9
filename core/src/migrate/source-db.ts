/**
 * Reading the Python Hermes's `state.db` without touching it. SQLite leaves `-wal`/`-shm` files
 * beside any database it opens (read-only connections too), so the source is never opened in
 * place: `state.db` (and its `-wal`, when one holds frames) is copied into a private temporary
 * folder and that copy is opened read-only. The columns are discovered (`PRAGMA table_info`), so
 * every version of the original's schema reads, old ones without `active`/`compacted` included.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { foreignKind } from '../state/foreign.js';
import { MigrateError } from './errors.js';

/** One session of the original, times in epoch ms. */
export interface SourceSession {
  id: string;
  source: string;
  title: string | null;
  model: string | null;
  cwd: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  parentId: string | null;
  inputTokens: number;
  outputTokens: number;
}

/** One message as this hermes stores it (roles system/user/assistant/tool; times epoch ms). */
export interface SourceMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  timestamp: number;
  finish_reason: string | null;
  reasoning: string | null;
}

/** The messages of one session: what comes, and what is left out (reason → count). */
export interface SourceTranscript {
  messages: SourceMessage[];
  skipped: Record<string, number>;
}

/** The original's marks of multimodal content stored as JSON (older `\x00json:`, newer `\x01json:`). */
const JSON_PREFIXES = ['\u0000json:', '\u0001json:'];
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** Epoch ms of the original's REAL seconds (a value already in ms is kept). */
export function toMs(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) return fallback;
  return Math.round(n > 1e11 ? n : n * 1000);
}

/**
 * The text of a stored content value: plain text as is; JSON-encoded multimodal parts become
 * their text parts, with a note counting the images that are not brought.
 */
export function decodeContent(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string') return Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
  const prefix = JSON_PREFIXES.find((p) => raw.startsWith(p));
  if (!prefix) return raw;
  const body = raw.slice(prefix.length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof parsed === 'string') return parsed;
  if (!Array.isArray(parsed)) return JSON.stringify(parsed);
  const texts: string[] = [];
  let images = 0;
  for (const part of parsed as Array<Record<string, unknown>>) {
    if (typeof part === 'string') texts.push(part);
    else if (part && typeof part.text === 'string') texts.push(part.text);
    else if (part && /image/.test(String(part.type ?? ''))) images++;
  }
  if (images > 0) texts.push(`[${images} image${images === 1 ? '' : 's'} of the Python Hermes not migrated]`);
  return texts.join('\n');
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function toolCallsJson(v: unknown): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) && parsed.length > 0 ? JSON.stringify(parsed) : null;
  } catch {
    return null;
  }
}

/** A read-only connection to a private copy of a database, and its removal. */
export interface PrivateCopy {
  db: Database.Database;
  /** The source's `-wal` held frames and was copied too. */
  withWal: boolean;
  /** Closes the connection and removes the copy. Idempotent. */
  dispose(): void;
}

/**
 * Copies `file` (and its `-wal` when that holds frames) into a private temporary folder (0700)
 * and opens the copy read-only, so SQLite creates nothing beside the source.
 * @throws what copying or SQLite throws (the copy is removed first).
 */
export function openPrivateCopy(file: string): PrivateCopy {
  const tmp = mkdtempSync(join(tmpdir(), 'hermes-migrate-'));
  const dispose = (db?: Database.Database): void => {
    if (db?.open) db.close();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const copy = join(tmp, 'state.db');
    copyFileSync(file, copy);
    const wal = `${file}-wal`;
    const withWal = existsSync(wal) && statSync(wal).size > 0;
    if (withWal) copyFileSync(wal, `${copy}-wal`);
    const db = new Database(copy, { readonly: true, fileMustExist: true });
    return { db, withWal, dispose: () => dispose(db) };
  } catch (err) {
    dispose();
    throw err;
  }
}

/** The Python Hermes's `state.db`, read through a private copy. Close it to remove the copy. */
export class SourceDb {
  private readonly db: Database.Database;

  private constructor(
    readonly file: string,
    private readonly copy: PrivateCopy,
    /** Warnings for the report (e.g. the original seems to be running). */
    readonly warnings: string[],
    private readonly sessionCols: Set<string>,
    private readonly messageCols: Set<string>,
  ) {
    this.db = copy.db;
  }

  /**
   * Copies and opens `file`.
   * @throws MigrateError naming the file: missing, mid-transaction (`-journal`), not SQLite,
   *   damaged (`PRAGMA quick_check`), or not a state.db of the Python Hermes.
   */
  static open(file: string): SourceDb {
    if (!existsSync(file)) throw new MigrateError(file, 'no such file');
    if (existsSync(`${file}-journal`))
      throw new MigrateError(
        file,
        'a write of the Python Hermes is unfinished (state.db-journal exists); stop it, or open it once with the Python Hermes, then run hermes migrate again',
      );
    const warnings: string[] = [];
    let copy: PrivateCopy | undefined;
    let db: Database.Database | undefined;
    try {
      copy = openPrivateCopy(file);
      db = copy.db;
      if (copy.withWal)
        warnings.push(
          `${file}-wal holds unsaved writes: the Python Hermes may be running; stop it for a copy of its latest state`,
        );
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the database is damaged (${String(check)})`);
      if (foreignKind(db) !== 'python-hermes')
        throw new Error('not a state.db of the Python Hermes (no sessions/messages tables of its shape)');
      const cols = (t: string): Set<string> =>
        new Set((db!.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name));
      const messageCols = cols('messages');
      if (!messageCols.has('session_id') || !messageCols.has('role'))
        throw new Error('its messages table lacks session_id or role');
      return new SourceDb(file, copy, warnings, cols('sessions'), messageCols);
    } catch (err) {
      copy?.dispose();
      if (err instanceof MigrateError) throw err;
      throw new MigrateError(file, (err as Error).message, { cause: err });
    }
  }

  /** Every session, oldest first (parents before the sessions that continue them). */
  sessions(): SourceSession[] {
    const rows = this.run(() =>
      this.db.prepare('SELECT * FROM sessions ORDER BY started_at, id').all(),
    ) as Array<Record<string, unknown>>;
    const has = (c: string): boolean => this.sessionCols.has(c);
    return rows.map((r) => {
      const startedAt = toMs(r.started_at, 0);
      return {
        id: String(r.id),
        source: text(r.source) ?? 'cli',
        title: has('title') ? text(r.title) : null,
        model: text(r.model),
        cwd: has('cwd') ? text(r.cwd) : null,
        startedAt,
        endedAt: r.ended_at == null ? null : toMs(r.ended_at, startedAt),
        endReason: text(r.end_reason),
        parentId: text(r.parent_session_id),
        inputTokens: Math.max(0, Math.round(Number(r.input_tokens) || 0)),
        outputTokens: Math.max(0, Math.round(Number(r.output_tokens) || 0)),
      };
    });
  }

  /**
   * The messages of a session in stored order. Left out: rows the original removed (`active = 0`
   * and not `compacted`: rewound), its context-compression summaries (`_compressed_summary`;
   * the rows they summarise are brought), and roles this hermes does not store.
   */
  transcript(session: SourceSession): SourceTranscript {
    const rows = this.run(() =>
      this.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY id').all(session.id),
    ) as Array<Record<string, unknown>>;
    const has = (c: string): boolean => this.messageCols.has(c);
    const skipped: Record<string, number> = {};
    const skip = (why: string): void => void (skipped[why] = (skipped[why] ?? 0) + 1);
    const messages: SourceMessage[] = [];
    for (const r of rows) {
      if (has('active') && Number(r.active) === 0 && !(has('compacted') && Number(r.compacted) === 1)) {
        skip('removed in the Python Hermes (rewound)');
        continue;
      }
      if (has('_compressed_summary') && Number(r._compressed_summary) === 1) {
        skip('context-compression summary (the messages it summarises are brought)');
        continue;
      }
      const role = String(r.role);
      if (!ROLES.has(role)) {
        skip(`role "${role.slice(0, 40)}"`);
        continue;
      }
      const reasoning =
        (has('reasoning') ? text(r.reasoning) : null) ??
        (has('reasoning_content') ? text(r.reasoning_content) : null);
      messages.push({
        role: role as SourceMessage['role'],
        content: decodeContent(r.content),
        tool_calls: has('tool_calls') ? toolCallsJson(r.tool_calls) : null,
        tool_call_id: has('tool_call_id') ? text(r.tool_call_id) : null,
        tool_name: has('tool_name') ? text(r.tool_name) : null,
        timestamp: toMs(r.timestamp, session.startedAt),
        finish_reason: has('finish_reason') ? text(r.finish_reason) : null,
        reasoning,
      });
    }
    return { messages, skipped };
  }

  /** Removes the private copy. Idempotent. */
  close(): void {
    this.copy.dispose();
  }

  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw new MigrateError(this.file, (err as Error).message, { cause: err });
    }
  }
}
