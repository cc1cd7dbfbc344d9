/**
 * Schedules: parsing what the user wrote,
 * the next run time, the period and the grace of a late job.
 *
 * Accepted forms:
 * - `30m`, `2h`, `1d` (also `90 minutes`, `3 hours`, `2 days`): once, that long from now;
 * - `every 30m`, `every 2h`, `every 1d`: repeatedly at that interval (at least one minute);
 * - a 5-field cron expression `min hour day-of-month month day-of-week` (`0 9 * * 1-5`),
 *   validated by cron-parser and evaluated in the configured time zone, or one of the aliases
 *   `@hourly`, `@daily` (`@midnight`), `@weekly`, `@monthly`, `@yearly` (`@annually`);
 * - an ISO 8601 time (`2026-12-01T09:00`, `2026-12-01 09:00:30`, `2026-12-01T09:00+01:00`,
 *   `2026-12-01`): once at that time; without an offset it is in the configured time zone.
 * Anything else is a `CronScheduleError` whose message lists these forms.
 */
import { CronExpressionParser } from 'cron-parser';
import { MAX_GRACE_MS, MIN_GRACE_MS, ONESHOT_GRACE_MS, iso, ms, type Schedule } from './types.js';
import { wallTimeToEpoch, zoneOffsetMs } from './timezone.js';

/** A schedule that cannot be parsed or used. The message names the problem and the accepted forms. */
export class CronScheduleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronScheduleError';
  }
}

/** The accepted forms, for error messages and help texts. */
export const SCHEDULE_FORMS = `Accepted schedules:
  30m, 2h, 1d            once, that long from now
  every 30m, every 2h    repeatedly at that interval (at least 1 minute)
  "0 9 * * 1-5"          a 5-field cron expression: minute hour day-of-month month day-of-week
  @hourly, @daily        cron aliases (also @weekly, @monthly, @yearly)
  2026-12-01T09:00       once at that time (ISO 8601; without an offset it is in the configured timezone)`;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION_RE = /^(\d+)\s*(m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days)$/i;
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const CRON_FIELD_RE = /^[\d*,/?A-Za-z#-]+$/;

/** The cron aliases and the 5-field expressions they stand for. */
const CRON_ALIASES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** The 5-field form of a stored cron expression (an alias is expanded). */
const expandCron = (expr: string): string => CRON_ALIASES[expr.trim().toLowerCase()] ?? expr;

/** A parsed schedule plus its display text. */
export interface ParsedSchedule {
  schedule: Schedule;
  /** What listings show (`every 2h`, `0 9 * * *`, `once at 2026-12-01T09:00`). */
  display: string;
}

/** Options of `parseSchedule`. */
export interface ParseScheduleOptions {
  /** The current time, epoch ms (injected for tests). */
  now: number;
  /** Zone of naive ISO times and cron expressions (already resolved: see `resolveTimeZone`). */
  timeZone: string;
}

function durationMs(text: string): number | undefined {
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  const unit = m[2]!.toLowerCase()[0]!;
  return Number(m[1]) * UNIT_MS[unit]!;
}

function fail(text: string, why?: string): never {
  throw new CronScheduleError(`invalid schedule "${text}"${why ? `: ${why}` : ''}.\n${SCHEDULE_FORMS}`);
}

/** True when `text` looks like a 5-field cron expression (not yet validated). */
function looksLikeCron(text: string): boolean {
  const fields = text.split(/\s+/);
  return fields.length === 5 && fields.every((f) => CRON_FIELD_RE.test(f));
}

/**
 * Validates a 5-field cron expression.
 * @throws CronScheduleError naming cron-parser's complaint.
 */
export function validateCronExpression(expr: string, timeZone: string): void {
  expr = expandCron(expr);
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) fail(expr, `a cron expression needs exactly 5 fields, got ${fields.length}`);
  try {
    CronExpressionParser.parse(expr, { tz: timeZone }).next();
  } catch (err) {
    fail(expr, (err as Error).message);
  }
}

/** Parses an ISO 8601 time; naive times are in `timeZone`. Undefined when `text` is not ISO-shaped. */
export function parseIsoTime(text: string, timeZone: string): number | undefined {
  const m = ISO_RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  const n = (v: string | undefined): number => (v === undefined ? 0 : Number(v));
  const millis = frac ? Number(frac.padEnd(3, '0')) : 0;
  if (n(mo) < 1 || n(mo) > 12 || n(d) < 1 || n(d) > 31 || n(h) > 23 || n(mi) > 59 || n(s) > 59) {
    fail(text, 'a date or time field is out of range');
  }
  if (!offset) {
    const t = wallTimeToEpoch(timeZone, n(y), n(mo), n(d), n(h), n(mi), n(s), millis);
    if (new Date(Date.UTC(n(y), n(mo) - 1, n(d))).getUTCDate() !== n(d)) fail(text, 'no such day');
    return t;
  }
  let offMs = 0;
  if (offset.toUpperCase() !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    offMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
  }
  const utc = Date.UTC(n(y), n(mo) - 1, n(d), n(h), n(mi), n(s), millis);
  if (new Date(Date.UTC(n(y), n(mo) - 1, n(d))).getUTCDate() !== n(d)) fail(text, 'no such day');
  return utc - offMs;
}

/**
 * Parses what the user wrote (the original's `parse_schedule`).
 * @throws CronScheduleError for anything else (message lists the accepted forms), for an interval
 *   under one minute, and for a one-shot time more than 2 minutes in the past.
 */
export function parseSchedule(text: string, opts: ParseScheduleOptions): ParsedSchedule {
  const raw = text.trim().replace(/^["']|["']$/g, '');
  if (raw === '') fail(text, 'it is empty');
  const every = /^every\s+(.+)$/i.exec(raw);
  if (every) {
    const d = durationMs(every[1]!);
    if (d === undefined) fail(text, `"${every[1]}" is not a duration like 30m, 2h or 1d`);
    if (d < 60_000) fail(text, 'the interval must be at least 1 minute');
    const minutes = d / 60_000;
    return { schedule: { kind: 'interval', minutes }, display: `every ${compactDuration(d)}` };
  }
  const d = durationMs(raw);
  if (d !== undefined) {
    if (d <= 0) fail(text, 'the delay must be more than 0');
    return {
      schedule: { kind: 'once', run_at: iso(opts.now + d) },
      display: `once in ${compactDuration(d)}`,
    };
  }
  const alias = raw.toLowerCase();
  if (CRON_ALIASES[alias]) return { schedule: { kind: 'cron', expr: alias }, display: alias };
  if (looksLikeCron(raw)) {
    validateCronExpression(raw, opts.timeZone);
    return {
      schedule: { kind: 'cron', expr: raw.split(/\s+/).join(' ') },
      display: raw.split(/\s+/).join(' '),
    };
  }
  const at = parseIsoTime(raw, opts.timeZone);
  if (at !== undefined) {
    if (at < opts.now - ONESHOT_GRACE_MS) fail(text, 'that time is in the past');
    return { schedule: { kind: 'once', run_at: iso(at) }, display: `once at ${raw}` };
  }
  fail(text);
}

/** `90m` → `1h30m`, `120m` → `2h`, `1440m` → `1d`. */
export function compactDuration(durMs: number): string {
  let minutes = Math.round(durMs / 60_000);
  const days = Math.floor(minutes / 1440);
  minutes -= days * 1440;
  const hours = Math.floor(minutes / 60);
  minutes -= hours * 60;
  const out = `${days ? `${days}d` : ''}${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}`;
  return out || '0m';
}

/** cron-parser's next occurrence strictly after `afterMs` (a 5-field expression). */
function parserNext(expr: string, afterMs: number, timeZone: string): number {
  return CronExpressionParser.parse(expr, { currentDate: new Date(afterMs), tz: timeZone })
    .next()
    .getTime();
}

const DST_PROBE_MS = 3 * 3_600_000;

/**
 * The next cron occurrence strictly after `afterMs`, epoch ms, on the wall clock of `timeZone`.
 * When clocks fall back, the repeated hour follows cronie: an expression whose minute or hour
 * field starts with `*` runs on the wall clock both times through it (every quarter hour of
 * hour 1 is four runs in each pass); a fixed-time expression (`30 1 * * *`) runs once.
 * @throws CronScheduleError when the expression has no next time.
 */
export function nextCronTime(expr: string, afterMs: number, timeZone: string): number {
  const full = expandCron(expr);
  let next: number;
  try {
    next = parserNext(full, afterMs, timeZone);
  } catch (err) {
    throw new CronScheduleError(`cron expression "${expr}" has no next time: ${(err as Error).message}`);
  }
  const [minute = '', hour = ''] = full.trim().split(/\s+/);
  if (!minute.startsWith('*') && !hour.startsWith('*')) return next;
  const replay = repeatedHourRun(full, afterMs, timeZone);
  return replay !== null && replay < next ? replay : next;
}

/**
 * The first occurrence strictly after `afterMs` that falls in the second pass of a repeated
 * (fall-back) wall-clock hour near `afterMs`, or null. An instant `t` of the second pass shows the
 * same wall time as `t - shift` of the first pass, so it matches when `t - shift` does.
 */
function repeatedHourRun(expr: string, afterMs: number, timeZone: string): number | null {
  const before = zoneOffsetMs(timeZone, afterMs - DST_PROBE_MS);
  const after = zoneOffsetMs(timeZone, afterMs + DST_PROBE_MS);
  const shift = before - after;
  if (shift <= 0) return null; // no fall-back around here
  // the instant the offset drops, to the minute
  let lo = afterMs - DST_PROBE_MS;
  let hi = afterMs + DST_PROBE_MS;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (zoneOffsetMs(timeZone, mid) === before) lo = mid;
    else hi = mid;
  }
  const transition = hi - (hi % 60_000);
  if (afterMs >= transition + shift) return null;
  try {
    const first = parserNext(expr, Math.max(afterMs - shift, transition - shift - 1), timeZone);
    return first < transition ? first + shift : null;
  } catch {
    return null;
  }
}

/**
 * The first run time of a new (or re-scheduled / resumed) job, epoch ms; null when it has none.
 * - once: its time (null when more than 2 minutes past);
 * - interval: `now + period`;
 * - cron: the next occurrence after `now`.
 */
export function firstRunTime(schedule: Schedule, now: number, timeZone: string): number | null {
  switch (schedule.kind) {
    case 'once': {
      const t = ms(schedule.run_at);
      return Number.isFinite(t) && t >= now - ONESHOT_GRACE_MS ? t : null;
    }
    case 'interval':
      return now + schedule.minutes * 60_000;
    case 'cron':
      return nextCronTime(schedule.expr, now, timeZone);
    default:
      return unknownKind(schedule);
  }
}

/** A stored schedule of a kind this version does not know (a hand-edited file). */
function unknownKind(schedule: never): never {
  throw new CronScheduleError(
    `unknown schedule kind "${String((schedule as { kind?: unknown }).kind)}" (expected once, interval or cron)`,
  );
}

/**
 * The run after the one scheduled for `scheduledMs`, strictly after `now` (missed occurrences are
 * skipped: fast-forward), epoch ms; null for a one-shot.
 * - interval: `scheduled + k × period` with the smallest k that lands after `now` (the cadence
 *   stays anchored on the original times);
 * - cron: the next occurrence after `now`.
 */
export function nextRunTime(
  schedule: Schedule,
  scheduledMs: number,
  now: number,
  timeZone: string,
): number | null {
  switch (schedule.kind) {
    case 'once':
      return null;
    case 'interval': {
      const period = schedule.minutes * 60_000;
      const base = Number.isFinite(scheduledMs) ? scheduledMs : now;
      if (base > now) return base;
      const k = Math.floor((now - base) / period) + 1;
      return base + k * period;
    }
    case 'cron':
      return nextCronTime(schedule.expr, now, timeZone);
    default:
      return unknownKind(schedule);
  }
}

/** The period of a recurring schedule around `aroundMs` (gap between two consecutive runs), ms; null for once. */
export function periodMs(schedule: Schedule, aroundMs: number, timeZone: string): number | null {
  switch (schedule.kind) {
    case 'once':
      return null;
    case 'interval':
      return schedule.minutes * 60_000;
    case 'cron': {
      const first = nextCronTime(schedule.expr, aroundMs - 1, timeZone);
      return nextCronTime(schedule.expr, first, timeZone) - first;
    }
    default:
      return unknownKind(schedule);
  }
}

/**
 * How late a run may start and still run: half the period, clamped to 2 min … 2 h; a
 * one-shot gets 2 minutes. A recurring job later than this runs once and is fast-forwarded past the
 * times it missed; a one-shot later than this is not run.
 * @param aroundMs the missed scheduled time (the period of a cron job can vary over the week).
 */
export function graceMs(schedule: Schedule, aroundMs: number, timeZone: string): number {
  const period = periodMs(schedule, aroundMs, timeZone);
  if (period === null) return ONESHOT_GRACE_MS;
  return Math.max(MIN_GRACE_MS, Math.min(Math.floor(period / 2), MAX_GRACE_MS));
}
