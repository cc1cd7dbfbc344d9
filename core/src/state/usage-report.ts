/**
 * Usage and cost of one state.db summed by model, by day or in all (`hermes usage`), from
 * `model_calls` (model-calls.ts) plus the tokens sessions counted without a call row (sessions
 * from before schema v6): those are reported as `untracked_tokens` — in the token sums, their
 * cost unknown — by the session's start day and model. Read-only: two aggregate queries, each
 * one pass over an index, fast on a database of 10,000 sessions (bench/usage-report.bench.ts).
 */
import type Database from 'better-sqlite3';
import { emptyTotals, TOTALS, totalsStatus, type UsageTotals } from './model-calls.js';

/** How rows are grouped. */
export type UsageGrouping = 'model' | 'day' | 'total';

/** Options of `UsageReports.report`. */
export interface UsageReportOptions {
  /** Only calls at or after this epoch ms (and sessions started then, for untracked tokens). */
  since?: number;
  by: UsageGrouping;
  /** Offset of local time from UTC in minutes for `day` (default: this process's, now). */
  utcOffsetMinutes?: number;
}

/** One row of a report. */
export interface UsageReportRow extends UsageTotals {
  /** The model id, the day (`YYYY-MM-DD`, local) or `total`. */
  key: string;
  /** Model calls recorded. */
  calls: number;
  /** Tokens of sessions counted without a call row (before costs were stored): cost unknown. */
  untracked_tokens: number;
  /** How the cost is known (`priced`, `local`, `partial`, `unknown`). */
  cost_status: 'priced' | 'local' | 'unknown' | 'partial';
}

/** What the report reads through. */
export interface ReportAccess {
  read<T>(op: string, fn: () => T): T;
  stmt(sql: string): Database.Statement;
}

/** Reports of one state.db. */
export class UsageReports {
  constructor(
    private readonly db: ReportAccess,
    private readonly present: () => boolean,
  ) {}

  /** The report's rows, most expensive first (days: oldest first); none when nothing was used. */
  report(opts: UsageReportOptions): UsageReportRow[] {
    const since = opts.since ?? 0;
    const offsetMs = (opts.utcOffsetMinutes ?? -new Date().getTimezoneOffset()) * 60_000;
    const [callKey, callParams] = keySql(opts.by, 'model', 'timestamp', offsetMs);
    const [sessionKey, sessionParams] = keySql(opts.by, 's.model', 's.started_at', offsetMs);
    const rows = new Map<string, UsageReportRow>();
    const row = (key: string): UsageReportRow => {
      let r = rows.get(key);
      if (!r) {
        r = { key, calls: 0, untracked_tokens: 0, cost_status: 'unknown', ...emptyTotals() };
        rows.set(key, r);
      }
      return r;
    };
    this.db.read('usageReport', () => {
      if (this.present()) {
        const calls = this.db
          .stmt(
            `SELECT ${callKey} AS key, COUNT(*) AS calls, ${TOTALS}
             FROM model_calls WHERE timestamp >= ? GROUP BY 1`,
          )
          .all(...callParams, since) as Array<UsageTotals & { key: string | number; calls: number }>;
        for (const c of calls) addInto(row(dayName(c.key)), c);
      }
      const recorded = this.present()
        ? `SELECT session_id, SUM(prompt_tokens) AS p, SUM(completion_tokens) AS c FROM model_calls GROUP BY session_id`
        : `SELECT NULL AS session_id, 0 AS p, 0 AS c WHERE 0`;
      const untracked = this.db
        .stmt(
          `SELECT ${sessionKey} AS key,
             SUM(MAX(s.prompt_tokens - COALESCE(r.p, 0), 0)) AS p,
             SUM(MAX(s.completion_tokens - COALESCE(r.c, 0), 0)) AS c
           FROM sessions s LEFT JOIN (${recorded}) r ON r.session_id = s.id
           WHERE s.started_at >= ?
             AND (s.prompt_tokens > COALESCE(r.p, 0) OR s.completion_tokens > COALESCE(r.c, 0))
           GROUP BY 1`,
        )
        .all(...sessionParams, since) as Array<{ key: string | number; p: number; c: number }>;
      for (const u of untracked) {
        const r = row(dayName(u.key));
        r.prompt_tokens += u.p;
        r.completion_tokens += u.c;
        r.untracked_tokens += u.p + u.c;
      }
    });
    const out = [...rows.values()];
    for (const r of out) r.cost_status = totalsStatus(r, r.untracked_tokens);
    return opts.by === 'day'
      ? out.sort((a, b) => a.key.localeCompare(b.key))
      : out.sort((a, b) => b.cost_micros - a.cost_micros || a.key.localeCompare(b.key));
  }
}

/** A day number (days since 1970-01-01) as `YYYY-MM-DD`; other keys as they are. */
function dayName(key: string | number): string {
  return typeof key === 'number' ? new Date(key * 86_400_000).toISOString().slice(0, 10) : key;
}

/** The SQL of a row's key and its parameters (the UTC offset in ms for days). */
function keySql(by: UsageGrouping, model: string, time: string, offsetMs: number): [string, number[]] {
  if (by === 'model') return [`COALESCE(${model}, '(unknown)')`, []];
  // the local day's number (days since 1970-01-01), named after the query
  if (by === 'day') return [`(${time} + CAST(? AS INTEGER)) / 86400000`, [Math.round(offsetMs)]];
  return [`'total'`, []];
}

const SUMMED = [
  'calls',
  'untracked_tokens',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'cost_micros',
  'priced_calls',
  'local_calls',
  'unknown_calls',
  'unknown_tokens',
] as const;

/** Adds the sums of `from` into `into` (a field `from` lacks adds nothing). */
function addInto(into: UsageReportRow, from: Partial<Record<(typeof SUMMED)[number], number>>): void {
  for (const k of SUMMED) into[k] += from[k] ?? 0;
}

/** Sums report rows into one (`key` `total`). */
export function totalRow(rows: readonly UsageReportRow[]): UsageReportRow {
  const t: UsageReportRow = {
    key: 'total',
    calls: 0,
    untracked_tokens: 0,
    cost_status: 'unknown',
    ...emptyTotals(),
  };
  for (const r of rows) addInto(t, r);
  t.cost_status = totalsStatus(t, t.untracked_tokens);
  return t;
}
