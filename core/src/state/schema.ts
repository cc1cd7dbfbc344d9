/**
 * The SessionDB schema: `sessions`, `messages`,
 * `queued_prompts` (prompts waiting behind a running turn of the daemon, v3; `origin` v4),
 * `platform_deliveries` and `platform_replay_keys` (the chat platforms' delivery ledger and the
 * webhook replay window, v4; platform-tables.ts), `api_responses` (the API server's stored
 * responses, v4, created when missing; api-responses.ts), `messages.attachments` and
 * `queued_prompts.attachments` (JSON of what was attached to a prompt: images …, v5),
 * `model_calls` (tokens and cost of every model call, v6; model-calls.ts), and the FTS5
 * index `messages_fts` over message content, tool names and tool-call JSON, kept in sync by
 * triggers. `PRAGMA user_version` carries the schema version.
 *
 * The FTS part is kept separate (`FTS_DDL`, `FTS_OBJECT_NAMES`) because the self-repair
 * (repair.ts) drops and recreates exactly that part and never the tables holding the data.
 */
import type Database from 'better-sqlite3';
import { SessionDBError } from './errors.js';

/** Version written to `PRAGMA user_version`. A file with a higher version is refused. */
export const SCHEMA_VERSION = 6;

/** Tables and indexes that hold the data. The self-repair never drops or rewrites these. */
export const CORE_DDL = `
CREATE TABLE IF NOT EXISTS sessions (
  id                TEXT PRIMARY KEY,
  source            TEXT NOT NULL,
  title             TEXT,
  model             TEXT,
  cwd               TEXT,
  started_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  ended_at          INTEGER,
  end_reason        TEXT,
  parent_session_id TEXT,
  message_count     INTEGER NOT NULL DEFAULT 0,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  state             TEXT NOT NULL DEFAULT 'active'
);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source, started_at DESC);

CREATE TABLE IF NOT EXISTS messages (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id    TEXT NOT NULL REFERENCES sessions(id),
  role          TEXT NOT NULL,
  content       TEXT,
  tool_calls    TEXT,
  tool_call_id  TEXT,
  tool_name     TEXT,
  timestamp     INTEGER NOT NULL,
  finish_reason TEXT,
  reasoning     TEXT,
  status        TEXT,
  outcome       TEXT,
  attachments   TEXT
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, id);

CREATE TABLE IF NOT EXISTS queued_prompts (
  prompt_id  TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  text       TEXT NOT NULL,
  queued_by  TEXT,
  queued_at  INTEGER NOT NULL,
  origin     TEXT,
  attachments TEXT
);
CREATE INDEX IF NOT EXISTS idx_queued_prompts_session ON queued_prompts(session_id);

CREATE TABLE IF NOT EXISTS platform_deliveries (
  id               TEXT PRIMARY KEY,
  platform         TEXT NOT NULL,
  chat_id          TEXT NOT NULL,
  send_opts        TEXT,
  external_id      TEXT,
  session_key      TEXT,
  inbound          TEXT,
  session_id       TEXT,
  prompt_id        TEXT,
  prompt_text      TEXT,
  after_message_id INTEGER,
  state            TEXT NOT NULL,
  reply            TEXT,
  chunks_sent      INTEGER NOT NULL DEFAULT 0,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  last_error       TEXT,
  outcome          TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_platform_deliveries_state ON platform_deliveries(platform, state, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS idx_platform_deliveries_external
  ON platform_deliveries(platform, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS platform_replay_keys (
  platform   TEXT NOT NULL,
  key        TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (platform, key)
);

CREATE TABLE IF NOT EXISTS api_responses (
  id           TEXT PRIMARY KEY,
  chat_id      TEXT NOT NULL,
  conversation TEXT,
  previous_id  TEXT,
  body         TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_api_responses_conversation ON api_responses(conversation, created_at);

CREATE TABLE IF NOT EXISTS model_calls (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id         TEXT NOT NULL,
  message_id         INTEGER,
  timestamp          INTEGER NOT NULL,
  provider           TEXT,
  model              TEXT,
  prompt_tokens      INTEGER NOT NULL DEFAULT 0,
  completion_tokens  INTEGER NOT NULL DEFAULT 0,
  cached_tokens      INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens   INTEGER NOT NULL DEFAULT 0,
  cost_micros        INTEGER,
  cost_status        TEXT NOT NULL,
  price_source       TEXT
);
CREATE INDEX IF NOT EXISTS idx_model_calls_session
  ON model_calls(session_id, prompt_tokens, completion_tokens);
CREATE INDEX IF NOT EXISTS idx_model_calls_time ON model_calls(timestamp);
`;

/** The columns of a `messages` row besides `id` and `session_id`: what is appended and what a fork copies. */
export const MESSAGE_COLUMNS =
  'role, content, tool_calls, tool_call_id, tool_name, timestamp, finish_reason, reasoning, status, outcome, attachments';

/** Name of the FTS5 table. */
export const FTS_TABLE = 'messages_fts';

/** Names of the triggers that keep `messages_fts` in sync with `messages`. */
export const FTS_TRIGGERS = ['messages_fts_ai', 'messages_fts_ad', 'messages_fts_au'] as const;

/**
 * The FTS5 index (external content: it stores only the inverted index, the text stays in
 * `messages`) and its triggers. unicode61 splits on punctuation, so `gpt-4o` is indexed as the
 * tokens `gpt`, `4o`, which the quoted phrase `"gpt-4o"` matches (fts-query.ts). Rows whose
 * status is `streaming` (a reply still being written, checkpointed every 250 ms) are not indexed
 * until they get their final status, so the checkpoint does not re-index the whole text each time.
 */
export const FTS_DDL = `
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
  content, tool_name, tool_calls,
  content='messages', content_rowid='id',
  tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS messages_fts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  SELECT new.id, new.content, new.tool_name, new.tool_calls WHERE new.status IS NOT 'streaming';
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_ad AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  SELECT 'delete', old.id, old.content, old.tool_name, old.tool_calls WHERE old.status IS NOT 'streaming';
END;
CREATE TRIGGER IF NOT EXISTS messages_fts_au AFTER UPDATE OF content, tool_name, tool_calls, status ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  SELECT 'delete', old.id, old.content, old.tool_name, old.tool_calls WHERE old.status IS NOT 'streaming';
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  SELECT new.id, new.content, new.tool_name, new.tool_calls WHERE new.status IS NOT 'streaming';
END;
`;

function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some(
    (c) => c.name === column,
  );
}

/** The error for a file written by a newer hermes. */
export function newerSchemaError(file: string, version: number): SessionDBError {
  return new SessionDBError(
    `${file}: schema version ${version} is newer than this hermes supports (${SCHEMA_VERSION}); upgrade hermes`,
    file,
    'ESCHEMA',
  );
}

/** What `inspectSchema` found. */
export interface SchemaState {
  /** `PRAGMA user_version`. */
  version: number;
  /** `sessions` and `messages` both exist. */
  hasCore: boolean;
  /** `messages_fts` exists. */
  hasFts: boolean;
  /** All three sync triggers exist. */
  hasTriggers: boolean;
  /** `messages` has the `outcome` column (added in v3). */
  hasOutcome: boolean;
  /** `queued_prompts.origin`, the platform tables and `api_responses` exist (added in v4). */
  hasPlatformTables: boolean;
  /** `messages.attachments` and `queued_prompts.attachments` exist (added in v5). */
  hasAttachments: boolean;
  /** `model_calls` exists (added in v6). */
  hasModelCalls: boolean;
}

/** Reads the schema state without taking a write lock. Throws what SQLite throws (e.g. a
 * SQLITE_CORRUPT "malformed database schema" on duplicate schema entries). */
export function inspectSchema(db: Database.Database): SchemaState {
  const version = db.pragma('user_version', { simple: true }) as number;
  const names = new Set(
    (
      db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')`).all() as {
        name: string;
      }[]
    ).map((r) => r.name),
  );
  return {
    version,
    hasCore: names.has('sessions') && names.has('messages'),
    hasFts: names.has(FTS_TABLE),
    hasTriggers: FTS_TRIGGERS.every((t) => names.has(t)),
    hasOutcome: names.has('messages') && hasColumn(db, 'messages', 'outcome'),
    hasPlatformTables:
      names.has('platform_deliveries') &&
      names.has('platform_replay_keys') &&
      hasColumn(db, 'platform_deliveries', 'inbound') &&
      names.has('queued_prompts') &&
      hasColumn(db, 'queued_prompts', 'origin') &&
      names.has('api_responses'),
    hasAttachments:
      names.has('messages') &&
      hasColumn(db, 'messages', 'attachments') &&
      names.has('queued_prompts') &&
      hasColumn(db, 'queued_prompts', 'attachments'),
    hasModelCalls: names.has('model_calls'),
  };
}

/** True when nothing needs creating or migrating. */
export function schemaIsCurrent(state: SchemaState): boolean {
  return (
    state.version === SCHEMA_VERSION &&
    state.hasCore &&
    state.hasFts &&
    state.hasTriggers &&
    state.hasOutcome &&
    state.hasPlatformTables &&
    state.hasAttachments &&
    state.hasModelCalls
  );
}

/**
 * Creates whatever is missing, inside the caller's write transaction (BEGIN IMMEDIATE), so that
 * several processes opening a new file at once do not race. When the FTS table or a trigger was
 * missing while messages exist, the index is repopulated from `messages` ('rebuild').
 * @param file named in errors.
 * @throws SessionDBError `ESCHEMA` naming the file when its schema version is newer than
 *   `SCHEMA_VERSION` (written by a newer hermes).
 */
export function createSchema(db: Database.Database, file: string): { rebuiltFts: boolean } {
  const before = inspectSchema(db);
  if (before.version > SCHEMA_VERSION) {
    throw newerSchemaError(file, before.version);
  }
  // v3 → v4: `queued_prompts` gains `origin` (before CORE_DDL, whose index list is unchanged)
  const hasQueue = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'queued_prompts'`)
    .get();
  if (hasQueue && !hasColumn(db, 'queued_prompts', 'origin'))
    db.exec('ALTER TABLE queued_prompts ADD COLUMN origin TEXT');
  // v2 → v3: CORE_DDL adds the `queued_prompts` table; v3 → v4: the two platform tables;
  // v5 → v6: `model_calls` (all additive; older sessions keep their token counters, no cost)
  db.exec(CORE_DDL);
  // early v4 files lack `platform_deliveries.inbound`
  if (!hasColumn(db, 'platform_deliveries', 'inbound'))
    db.exec('ALTER TABLE platform_deliveries ADD COLUMN inbound TEXT');
  // v1 → v2: the sync triggers skip `streaming` rows (a partial reply rewritten every 250 ms is
  // indexed once, when it is final), so the old triggers are replaced.
  if (before.version === 1) for (const t of FTS_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
  // v3 also adds `messages.outcome` (JSON: what frontends showed for a tool call or a failed reply)
  if (before.hasCore && !before.hasOutcome) db.exec('ALTER TABLE messages ADD COLUMN outcome TEXT');
  // v4 → v5: what was attached to a prompt (JSON), on stored messages and on waiting prompts
  if (!hasColumn(db, 'messages', 'attachments')) db.exec('ALTER TABLE messages ADD COLUMN attachments TEXT');
  if (!hasColumn(db, 'queued_prompts', 'attachments'))
    db.exec('ALTER TABLE queued_prompts ADD COLUMN attachments TEXT');
  db.exec(FTS_DDL);
  let rebuiltFts = false;
  if (before.version !== 0 && (!before.hasFts || !before.hasTriggers)) {
    const any = db.prepare('SELECT 1 FROM messages LIMIT 1').get();
    if (any) {
      db.prepare(`INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')`).run();
      rebuiltFts = true;
    }
  }
  if (before.version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return { rebuiltFts };
}
