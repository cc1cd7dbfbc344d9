/**
 * Test helper: builds a home of the Python Hermes as the original lays it out (its state.db with
 * the original's schema DDL and FTS index, config.yaml, .env, SOUL.md, memories, skills in
 * category folders, cron/jobs.json, profiles/<name>/). For tests only.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import {
  PYTHON_FTS_SQL,
  PYTHON_LEGACY_FTS_SQL,
  PYTHON_SCHEMA_SQL,
  PYTHON_SCHEMA_VERSION,
} from './python-schema.js';

/** One message of a fixture session (times in epoch seconds, as the original stores them). */
export interface PyMessage {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  tool_name?: string;
  timestamp: number;
  active?: 0 | 1;
  compacted?: 0 | 1;
  summary?: boolean;
  reasoning?: string;
}

/** One fixture session. */
export interface PySession {
  id: string;
  source?: string;
  title?: string | null;
  model?: string;
  started_at: number;
  ended_at?: number | null;
  parent_session_id?: string | null;
  input_tokens?: number;
  output_tokens?: number;
  messages: PyMessage[];
}

/**
 * Writes a state.db of the original at `file`: its tables (schema version 30) and FTS index
 * (`legacyFts`: the pre-v23 inline one), filled with `sessions` through its own triggers.
 */
export function writePythonStateDb(
  file: string,
  sessions: readonly PySession[],
  opts: { legacyFts?: boolean } = {},
): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(PYTHON_SCHEMA_SQL);
    db.exec(opts.legacyFts ? PYTHON_LEGACY_FTS_SQL : PYTHON_FTS_SQL);
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(PYTHON_SCHEMA_VERSION);
    const addSession = db.prepare(
      `INSERT INTO sessions (id, source, model, title, parent_session_id, started_at, ended_at, end_reason,
         message_count, input_tokens, output_tokens, model_config)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')`,
    );
    const addMessage = db.prepare(
      `INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp,
         finish_reason, reasoning, active, compacted, _compressed_summary)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const s of sessions) {
        addSession.run(
          s.id,
          s.source ?? 'cli',
          s.model ?? 'deepseek-chat',
          s.title ?? null,
          s.parent_session_id ?? null,
          s.started_at,
          s.ended_at ?? null,
          s.ended_at ? 'user_exit' : null,
          s.messages.length,
          s.input_tokens ?? 0,
          s.output_tokens ?? 0,
        );
        for (const m of s.messages)
          addMessage.run(
            s.id,
            m.role,
            m.content ?? null,
            m.tool_call_id ?? null,
            m.tool_calls ? JSON.stringify(m.tool_calls) : null,
            m.tool_name ?? null,
            m.timestamp,
            m.role === 'assistant' ? (m.tool_calls ? 'tool_calls' : 'stop') : null,
            m.reasoning ?? null,
            m.active ?? 1,
            m.compacted ?? 0,
            m.summary ? 1 : 0,
          );
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** Writes `files` (path relative to `dir` → content) with parent folders. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content, { mode: rel.endsWith('.env') ? 0o600 : 0o644 });
  }
}

/** The sessions of the standard fixture: a chat, a tool round trip, a compressed continuation. */
export const PY_SESSIONS: PySession[] = [
  {
    id: '20250301_090000_a1b2c3',
    title: 'Plan the garden',
    started_at: 1740819600,
    ended_at: 1740820200,
    input_tokens: 1200,
    output_tokens: 300,
    messages: [
      { role: 'user', content: 'Which tomatoes grow well on a balcony?', timestamp: 1740819601 },
      {
        role: 'assistant',
        content: 'Cherry tomatoes such as Sungold do well in pots.',
        timestamp: 1740819605,
        reasoning: 'balcony = containers',
      },
    ],
  },
  {
    id: '20250302_100000_d4e5f6',
    source: 'telegram',
    started_at: 1740909600,
    messages: [
      { role: 'user', content: 'List the files in my projects folder', timestamp: 1740909601 },
      {
        role: 'assistant',
        content: null,
        timestamp: 1740909602,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'terminal', arguments: '{"command":"ls ~/projects"}' },
          },
        ],
      },
      {
        role: 'tool',
        content: 'zanzibar-notes\nquokka-tracker',
        tool_call_id: 'call_1',
        tool_name: 'terminal',
        timestamp: 1740909603,
      },
      { role: 'assistant', content: 'You have zanzibar-notes and quokka-tracker.', timestamp: 1740909604 },
      { role: 'user', content: 'an undone question', timestamp: 1740909605, active: 0 },
    ],
  },
  {
    id: '20250302_110000_0a0b0c',
    parent_session_id: '20250302_100000_d4e5f6',
    source: 'telegram',
    started_at: 1740913200,
    messages: [
      {
        role: 'user',
        content: '[CONTEXT COMPACTION] summary of earlier turns',
        timestamp: 1740913201,
        summary: true,
      },
      { role: 'user', content: 'Multimodal: describe this picture', timestamp: 1740913202 },
      { role: 'assistant', content: 'It shows a marmalade cat.', timestamp: 1740913203 },
    ],
  },
];

/** Every file under `dir` (relative path → sha256), so a test can prove nothing changed. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
