/**
 * What `hermes sessions …` does. Loaded only when the command runs.
 *
 * Reads use a read-only connection (never blocks the daemon's writes); `rename` and `delete` open
 * a writer. A home without `state.db` has no sessions: nothing is created by reading it.
 * Every failure becomes a `CliExit(1, message)` naming the session and the file.
 */
import { existsSync } from 'node:fs';
import { SessionDB, SessionDBError, type SessionRecord } from '@hermes/core/state';
import { writeFileAtomic } from '@hermes/core/util';
import { CliExit, type CliContext } from '../context.js';
import {
  formatMarkdown,
  formatSearchHits,
  formatSessionDetail,
  formatSessionTable,
  type FormatOptions,
} from './format.js';
import { readableHits, titleOrPreview, withPreviews } from './previews.js';
import { messageUsageLine, sessionCostFact, sessionCosts } from './session-cost.js';
import { confirm } from '../confirm.js';
import { hermesCommand } from '../command-form.js';

/** Parsed arguments of one `hermes sessions` action. */
export type SessionsArgs =
  | { action: 'list'; json: boolean; limit: number; source?: string; query?: string }
  | { action: 'show'; json: boolean; id: string; full: boolean }
  | { action: 'search'; json: boolean; query: string; limit: number; session?: string }
  | { action: 'export'; json: boolean; id: string; output?: string }
  | { action: 'rename'; json: boolean; id: string; title: string }
  | { action: 'delete'; json: boolean; id: string; yes: boolean; force?: boolean };

/** Where output goes (stdout by default; tests pass a collector). */
export interface SessionsIO {
  write(text: string): void;
  /** Terminal width and whether to use ANSI emphasis. */
  width?: number;
  color?: boolean;
}

const stdoutIO = (): SessionsIO => ({
  write: (t) => void process.stdout.write(t),
  width: process.stdout.columns || 100,
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
});

function openDb(file: string, writable: boolean): SessionDB | null {
  if (!existsSync(file)) return null;
  try {
    return SessionDB.open(file, { readonly: !writable });
  } catch (err) {
    throw new CliExit(1, (err as Error).message);
  }
}

function resolve(db: SessionDB | null, ref: string, file: string): SessionRecord {
  let s: SessionRecord | undefined;
  try {
    s = db?.resolveSession(ref);
  } catch (err) {
    if (err instanceof SessionDBError && err.code === 'EAMBIGUOUS') throw new CliExit(1, err.message);
    throw err;
  }
  if (!s) throw new CliExit(1, `no session "${ref}" in ${file} (see ${hermesCommand()} sessions list)`);
  return s;
}

const describe = (s: SessionRecord): string =>
  `${s.id}${s.title ? ` ("${s.title}")` : ''} with ${s.message_count} message${s.message_count === 1 ? '' : 's'}`;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Runs one action against `ctx.home.stateDbFile`.
 * @throws CliExit(1) for an unknown or ambiguous session id, a bad title, or a database error.
 */
export async function runSessions(
  ctx: CliContext,
  args: SessionsArgs,
  io: SessionsIO = stdoutIO(),
): Promise<void> {
  const file = ctx.home.stateDbFile;
  const writable = args.action === 'rename' || args.action === 'delete';
  const db = openDb(file, writable);
  const fmt: FormatOptions = { now: Date.now(), width: io.width ?? 100, color: io.color ?? false };
  try {
    switch (args.action) {
      case 'list': {
        const opts = {
          limit: args.limit,
          ...(args.source ? { source: args.source } : {}),
          ...(args.query ? { query: args.query } : {}),
        };
        const sessions = db ? withPreviews(db, db.listSessions(opts)) : [];
        io.write(args.json ? json(sessions) : formatSessionTable(sessions.map(titleOrPreview), fmt));
        return;
      }
      case 'show': {
        const id = resolve(db, args.id, file).id;
        const exp = db!.exportSession(id);
        const costs = sessionCosts(db!, exp.session);
        if (args.json) {
          const messages = exp.messages.map((m) => {
            const usage = costs.messages.get(m.id);
            return usage ? { ...m, usage } : m;
          });
          io.write(json({ ...exp, cost: costs.session, messages }));
          return;
        }
        const lines = new Map([...costs.messages].map(([mid, u]) => [mid, messageUsageLine(u)]));
        io.write(
          formatSessionDetail(exp, {
            ...fmt,
            full: args.full,
            costs: { fact: sessionCostFact(costs.session), lines },
          }),
        );
        return;
      }
      case 'search': {
        const sessionId = args.session ? resolve(db, args.session, file).id : undefined;
        const hits = db
          ? db.search(args.query, { limit: args.limit, ...(sessionId ? { sessionId } : {}) })
          : [];
        io.write(
          args.json ? json(hits) : formatSearchHits(readableHits(db!, hits, args.query), args.query, fmt),
        );
        return;
      }
      case 'export': {
        const id = resolve(db, args.id, file).id;
        const exp = db!.exportSession(id);
        const text = args.json ? json(exp) : formatMarkdown(exp);
        if (args.output) {
          writeFileAtomic(args.output, text, 0o600); // transcripts may hold secrets
          process.stderr.write(
            `exported ${exp.messages.length} messages of ${exp.session.id} to ${args.output}\n`,
          );
        } else {
          io.write(text);
        }
        return;
      }
      case 'rename': {
        const s = resolve(db, args.id, file);
        db!.renameSession(s.id, args.title);
        const after = db!.getSession(s.id)!;
        io.write(args.json ? json(after) : `Renamed ${s.id} to "${after.title ?? ''}"\n`);
        return;
      }
      case 'delete': {
        const s = resolve(db, args.id, file);
        const { ensureNotLive } = await import('./live-guard.js');
        await ensureNotLive(ctx, s, Boolean(args.force)); // refused while a process holds it live
        if (!args.yes && process.stdin.isTTY && !(await confirm(`Delete ${describe(s)}? [y/N] `))) {
          throw new CliExit(1, 'not deleted');
        }
        const n = db!.deleteSession(s.id);
        io.write(
          args.json
            ? json({ deleted: s.id, messages: n })
            : `Deleted ${s.id}${s.title ? ` ("${s.title}")` : ''} and its ${n} message${n === 1 ? '' : 's'}\n`,
        );
        return;
      }
    }
  } catch (err) {
    if (err instanceof SessionDBError) throw new CliExit(1, err.message);
    throw err;
  } finally {
    db?.close();
  }
}
