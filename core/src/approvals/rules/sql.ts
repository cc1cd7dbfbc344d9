/**
 * Destructive database statements, in what a database client runs: `DROP TABLE/DATABASE/SCHEMA`,
 * `DELETE FROM` without `WHERE`, `TRUNCATE`, Mongo's `dropDatabase()`, Redis `FLUSHALL/FLUSHDB`,
 * and the drop programs (`dropdb`, `mysqladmin drop`). The statement may be an argument
 * (`psql -c …`, `sqlite3 app.db "…"`), a here-document or here-string, or literal text piped in
 * (`echo "DROP TABLE x" | psql`); the client may run inside another command (`docker exec db
 * psql -c …`, `kubectl exec … -- mysql -e …`). Text that only mentions SQL (`echo`, `grep`,
 * `git commit -m`) is not flagged. A statement typed as a command (`DROP TABLE users`,
 * `DELETE FROM users`) is judged as one: a line meant for a database client ended up in the shell.
 *
 * Targets: the client and the statement as written (long statements shortened).
 */
import type { SimpleCommand } from '../shell/analyze.js';
import { programName } from './argv.js';
import type { CommandRule } from './types.js';

/** Database clients whose arguments and stdin are statements. */
const CLIENTS =
  /^(?:psql|pgcli|mysql|mariadb|mycli|sqlite3?|litecli|duckdb|sqlcmd|clickhouse(?:-client)?|cockroach|usql|snowsql|bq|sqlplus|isql|mongo|mongosh|redis-cli|valkey-cli|cqlsh)$/;

/** Words that start a destructive statement (a command named so is a statement typed as a command). */
const STATEMENT_WORDS = /^(?:drop|delete|truncate|flushall|flushdb)$/;

/** The texts a client in `cmd` runs: words after the client, here-documents, literal piped text. */
function statements(cmd: SimpleCommand): { client: string; texts: string[] } | undefined {
  if (STATEMENT_WORDS.test(programName(cmd)))
    return { client: 'sql', texts: [cmd.argv.map((w) => w.value).join(' ')] };
  const i = cmd.argv.findIndex((w) => CLIENTS.test((w.value.split('/').pop() ?? '').toLowerCase()));
  if (i < 0) return undefined;
  const client = (cmd.argv[i]!.value.split('/').pop() ?? '').toLowerCase();
  const texts = cmd.argv.slice(i + 1).map((w) => w.value);
  for (const r of cmd.redirects) if (r.text !== undefined) texts.push(r.text);
  for (const p of cmd.pipedFrom) {
    const name = programName(p);
    if (name === 'echo' || name === 'printf')
      texts.push(
        p.argv
          .slice(1)
          .map((w) => w.value)
          .join(' '),
      );
    if (name === 'cat') for (const r of p.redirects) if (r.text !== undefined) texts.push(r.text);
  }
  return { client, texts };
}

const short = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** A rule matching statements against `pattern`, or the programs of `programs`. */
function sqlRule(
  key: string,
  description: string,
  pattern: RegExp,
  programs?: (cmd: SimpleCommand) => boolean,
): CommandRule {
  return {
    key,
    description,
    match(cmd) {
      if (programs?.(cmd)) return [cmd.argv.map((w) => w.value).join(' ')];
      const s = statements(cmd);
      const hit = s?.texts.filter((t) => pattern.test(t));
      return s && hit && hit.length > 0 ? [s.client, ...hit.map(short)] : null;
    },
  };
}

const SQL_DROP = sqlRule(
  'sql-drop',
  'SQL DROP TABLE / DATABASE',
  /\bdrop\s+(?:table|database|schema)\b|\.dropDatabase\s*\(|\.drop\s*\(\s*\)/i,
  (cmd) => {
    const name = programName(cmd);
    return name === 'dropdb' || (name === 'mysqladmin' && cmd.argv.some((w) => /^drop$/i.test(w.value)));
  },
);

const SQL_DELETE_WITHOUT_WHERE = sqlRule(
  'sql-delete-without-where',
  'SQL DELETE without WHERE (deletes every row)',
  /\bdelete\s+from\b(?:(?![^;]*\bwhere\b)|[^;]*\bwhere\s+(?:1\s*=\s*1|true|'1'\s*=\s*'1')\s*(?:;|$))|\.deleteMany\s*\(\s*\{\s*\}\s*\)/i,
);

const SQL_TRUNCATE = sqlRule(
  'sql-truncate',
  'SQL TRUNCATE',
  /\btruncate\s+table\b|\btruncate\s+(?!-)[\w."`[\]]+\s*(?:;|$)/i,
);

const DB_FLUSH = sqlRule(
  'db-flush',
  'delete every key of a Redis database (FLUSHALL / FLUSHDB)',
  /^\s*flush(?:all|db)\b/i,
);

/** The database rules. */
export const SQL_RULES: readonly CommandRule[] = [SQL_DROP, SQL_DELETE_WITHOUT_WHERE, SQL_TRUNCATE, DB_FLUSH];
