/**
 * What `hermes usage` does. Loaded only when the command runs.
 *
 * Reads the selected profile's `state.db` read-only (never blocks the daemon's writes; a home
 * without one has no usage). `--by profile` reads every profile's database of the root, each
 * read-only, one row per profile; the other groupings read the selected profile only. Tokens and
 * cost come from the stored model calls; tokens a session counted before costs were stored, and
 * calls of models without a known price, are counted apart as unpriced (their cost unknown).
 */
import { existsSync } from 'node:fs';
import type { HermesHome } from '@hermes/core/home';
import { profileNames } from '@hermes/core/profiles';
import { SessionDB, totalRow, type UsageReportRow } from '@hermes/core/state';
import { CliExit, type CliContext } from '../context.js';
import { formatUsageTable, usageJsonRow } from './format-usage.js';

/** Parsed arguments of `hermes usage`. */
export interface UsageArgs {
  json: boolean;
  by: 'model' | 'day' | 'profile';
  /** `30m`, `24h`, `7d`, `4w`, a date `YYYY-MM-DD` (local midnight) or an ISO time. */
  since?: string;
}

/** Where output goes (stdout by default; tests pass a collector). */
export interface UsageIO {
  write(text: string): void;
  /** The clock, epoch ms. */
  now?: number;
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/**
 * The epoch ms `--since` names.
 * @throws CliExit(2) naming `--since` for anything else.
 */
export function parseSince(text: string, now: number): number {
  const t = text.trim();
  const rel = /^(\d+)\s*([mhdw])$/i.exec(t);
  if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2]!.toLowerCase() as keyof typeof UNIT_MS];
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (day) {
    const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (d.getMonth() === Number(day[2]) - 1) return d.getTime();
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(t) && Number.isFinite(Date.parse(t))) {
    return Date.parse(t);
  }
  throw new CliExit(2, `--since "${text}": give a span (30m, 24h, 7d, 4w) or a date (2026-11-01)`);
}

/** The report rows of one home's database (none without a database). */
function reportOf(home: HermesHome, by: 'model' | 'day' | 'total', since?: number): UsageReportRow[] {
  const file = home.stateDbFile;
  if (!existsSync(file)) return [];
  let db: SessionDB;
  try {
    db = SessionDB.open(file, { readonly: true });
  } catch (err) {
    throw new CliExit(1, (err as Error).message);
  }
  try {
    return db.usageReports.report({ by, ...(since !== undefined ? { since } : {}) });
  } finally {
    db.close();
  }
}

/**
 * Runs `hermes usage`.
 * @throws CliExit(2) for a bad `--since`; CliExit(1) for a database that cannot be read.
 */
export function runUsage(
  ctx: CliContext,
  args: UsageArgs,
  io: UsageIO = { write: (t) => void process.stdout.write(t) },
): void {
  const now = io.now ?? Date.now();
  const since = args.since !== undefined ? parseSince(args.since, now) : undefined;
  let rows: UsageReportRow[];
  let profiles: string[];
  if (args.by === 'profile') {
    profiles = profileNames(ctx.home);
    rows = profiles.flatMap((name) =>
      reportOf(ctx.home.forProfile(name), 'total', since).map((r) => ({ ...r, key: name })),
    );
  } else {
    profiles = [ctx.home.profile];
    rows = reportOf(ctx.home, args.by, since);
  }
  const total = totalRow(rows);
  if (args.json) {
    const out = {
      by: args.by,
      profiles,
      ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
      rows: rows.map(usageJsonRow),
      total: usageJsonRow(total),
    };
    io.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  io.write(formatUsageTable(rows, total, { by: args.by, profiles, since }));
}
