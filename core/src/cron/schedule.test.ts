/** Schedule parsing, next-run times, periods and grace (table-driven). */
import { describe, expect, it } from 'vitest';
import {
  CronScheduleError,
  compactDuration,
  firstRunTime,
  graceMs,
  nextRunTime,
  parseSchedule,
  periodMs,
  SCHEDULE_FORMS,
} from './schedule.js';
import { formatInZone, resolveTimeZone, TimeZoneError, wallTimeToEpoch } from './timezone.js';
import type { Schedule } from './types.js';

const NOW = Date.parse('2026-11-29T10:00:00.000Z'); // a Sunday
const MIN = 60_000;
const H = 60 * MIN;
const at = (s: string): number => Date.parse(s);

describe('parseSchedule', () => {
  const cases: Array<[string, string, Schedule, string]> = [
    // input, zone, schedule, display
    ['30m', 'UTC', { kind: 'once', run_at: '2026-11-29T10:30:00.000Z' }, 'once in 30m'],
    ['2h', 'UTC', { kind: 'once', run_at: '2026-11-29T12:00:00.000Z' }, 'once in 2h'],
    ['1d', 'UTC', { kind: 'once', run_at: '2026-11-30T10:00:00.000Z' }, 'once in 1d'],
    ['90 minutes', 'UTC', { kind: 'once', run_at: '2026-11-29T11:30:00.000Z' }, 'once in 1h30m'],
    ['every 2h', 'UTC', { kind: 'interval', minutes: 120 }, 'every 2h'],
    ['every 30m', 'UTC', { kind: 'interval', minutes: 30 }, 'every 30m'],
    ['EVERY 1d', 'UTC', { kind: 'interval', minutes: 1440 }, 'every 1d'],
    ['every 3 hours', 'UTC', { kind: 'interval', minutes: 180 }, 'every 3h'],
    ['0 9 * * *', 'UTC', { kind: 'cron', expr: '0 9 * * *' }, '0 9 * * *'],
    ['0  9 * *  1-5', 'UTC', { kind: 'cron', expr: '0 9 * * 1-5' }, '0 9 * * 1-5'],
    ['"*/15 * * * *"', 'UTC', { kind: 'cron', expr: '*/15 * * * *' }, '*/15 * * * *'],
    ['0 9 * * MON', 'UTC', { kind: 'cron', expr: '0 9 * * MON' }, '0 9 * * MON'],
    [
      '2026-12-01T09:00',
      'UTC',
      { kind: 'once', run_at: '2026-12-01T09:00:00.000Z' },
      'once at 2026-12-01T09:00',
    ],
    [
      '2026-12-01 09:00:30',
      'UTC',
      { kind: 'once', run_at: '2026-12-01T09:00:30.000Z' },
      'once at 2026-12-01 09:00:30',
    ],
    // naive time in the configured zone (Berlin is UTC+1 in December, UTC+2 in July)
    [
      '2026-12-01T09:00',
      'Europe/Berlin',
      { kind: 'once', run_at: '2026-12-01T08:00:00.000Z' },
      'once at 2026-12-01T09:00',
    ],
    [
      '2027-07-01T09:00',
      'Europe/Berlin',
      { kind: 'once', run_at: '2027-07-01T07:00:00.000Z' },
      'once at 2027-07-01T09:00',
    ],
    [
      '2026-12-01T09:00',
      'America/New_York',
      { kind: 'once', run_at: '2026-12-01T14:00:00.000Z' },
      'once at 2026-12-01T09:00',
    ],
    // an explicit offset wins over the zone
    [
      '2026-12-01T09:00+02:00',
      'America/New_York',
      { kind: 'once', run_at: '2026-12-01T07:00:00.000Z' },
      'once at 2026-12-01T09:00+02:00',
    ],
    [
      '2026-12-01T09:00:00Z',
      'Europe/Berlin',
      { kind: 'once', run_at: '2026-12-01T09:00:00.000Z' },
      'once at 2026-12-01T09:00:00Z',
    ],
    ['2026-12-02', 'UTC', { kind: 'once', run_at: '2026-12-02T00:00:00.000Z' }, 'once at 2026-12-02'],
    // one minute ago is still within the 2-minute grace of a one-shot
    [
      '2026-11-29T09:59:00Z',
      'UTC',
      { kind: 'once', run_at: '2026-11-29T09:59:00.000Z' },
      'once at 2026-11-29T09:59:00Z',
    ],
  ];
  it.each(cases)('%s (%s)', (input, zone, schedule, display) => {
    expect(parseSchedule(input, { now: NOW, timeZone: zone })).toEqual({ schedule, display });
  });

  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['soon', /invalid schedule "soon"/],
    ['every', /invalid schedule/],
    ['every 30s', /not a duration/],
    ['every 0m', /at least 1 minute/],
    ['0m', /more than 0/],
    ['5 minutes ago', /invalid schedule/],
    ['61 * * * *', /invalid schedule "61 \* \* \* \*".*(expected range|Constraint)/s],
    ['* * * *', /invalid schedule/],
    ['0 0 9 * * *', /invalid schedule/],
    ['0 9 31 2 *', /invalid schedule/],
    ['2026-13-01T09:00', /out of range/],
    ['2026-02-30T09:00', /no such day/],
    ['2026-11-29T09:50:00Z', /in the past/], // ten minutes ago
    ['tomorrow at 9', /invalid schedule/],
  ];
  it.each(bad)('refuses %j', (input, re) => {
    let err: unknown;
    try {
      parseSchedule(input, { now: NOW, timeZone: 'UTC' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CronScheduleError);
    expect((err as Error).message).toMatch(re);
    expect((err as Error).message).toContain(SCHEDULE_FORMS);
  });

  it('lists every accepted form in the error', () => {
    expect(SCHEDULE_FORMS).toMatch(/30m.*every 2h.*cron expression.*ISO 8601/s);
  });
});

describe('time zones', () => {
  it('resolves the configured zone, else the machine one, and refuses unknown zones', () => {
    expect(resolveTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => resolveTimeZone('Mars/Olympus')).toThrow(TimeZoneError);
  });

  it('maps wall times across DST changes', () => {
    // Berlin spring forward 2026-03-29 02:00 → 03:00: 02:30 does not exist, read as 03:30 CEST
    expect(wallTimeToEpoch('Europe/Berlin', 2026, 3, 29, 2, 30)).toBe(at('2026-03-29T01:30:00Z'));
    // fall back 2026-10-25 03:00 → 02:00: 02:30 exists twice, the earlier is taken
    expect(wallTimeToEpoch('Europe/Berlin', 2026, 10, 25, 2, 30)).toBe(at('2026-10-25T00:30:00Z'));
    expect(formatInZone(at('2026-12-01T08:00:00Z'), 'Europe/Berlin')).toBe('2026-12-01 09:00');
  });
});

describe('next run times', () => {
  const cases: Array<[string, Schedule, string, number, string, string | null]> = [
    // name, schedule, zone, scheduled (ms), now, expected next
    [
      'interval on time',
      { kind: 'interval', minutes: 120 },
      'UTC',
      at('2026-11-29T10:00:00Z'),
      '2026-11-29T10:00:00Z',
      '2026-11-29T12:00:00.000Z',
    ],
    [
      'interval a bit late keeps the cadence',
      { kind: 'interval', minutes: 120 },
      'UTC',
      at('2026-11-29T10:00:00Z'),
      '2026-11-29T10:07:00Z',
      '2026-11-29T12:00:00.000Z',
    ],
    [
      'interval fast-forwards over missed runs',
      { kind: 'interval', minutes: 60 },
      'UTC',
      at('2026-11-29T02:00:00Z'),
      '2026-11-29T10:30:00Z',
      '2026-11-29T11:00:00.000Z',
    ],
    [
      'cron daily',
      { kind: 'cron', expr: '0 9 * * *' },
      'UTC',
      at('2026-11-29T09:00:00Z'),
      '2026-11-29T09:00:30Z',
      '2026-11-30T09:00:00.000Z',
    ],
    [
      'cron daily in Berlin',
      { kind: 'cron', expr: '0 9 * * *' },
      'Europe/Berlin',
      at('2026-11-29T08:00:00Z'),
      '2026-11-29T08:00:30Z',
      '2026-11-30T08:00:00.000Z',
    ],
    [
      'cron weekdays skip the weekend',
      { kind: 'cron', expr: '0 9 * * 1-5' },
      'UTC',
      at('2026-11-27T09:00:00Z'),
      '2026-11-27T09:00:10Z',
      '2026-11-30T09:00:00.000Z',
    ],
    [
      'cron across spring forward keeps wall time',
      { kind: 'cron', expr: '0 9 * * *' },
      'Europe/Berlin',
      at('2026-03-28T08:00:00Z'),
      '2026-03-28T08:00:05Z',
      '2026-03-29T07:00:00.000Z',
    ],
    [
      'once has no next run',
      { kind: 'once', run_at: '2026-11-29T10:00:00.000Z' },
      'UTC',
      at('2026-11-29T10:00:00Z'),
      '2026-11-29T10:00:05Z',
      null,
    ],
  ];
  it.each(cases)('%s', (_name, schedule, zone, scheduled, now, expected) => {
    const next = nextRunTime(schedule, scheduled, at(now), zone);
    expect(next === null ? null : new Date(next).toISOString()).toBe(expected);
    if (next !== null) expect(next).toBeGreaterThan(at(now));
  });

  it('computes first run times for new jobs', () => {
    expect(firstRunTime({ kind: 'interval', minutes: 30 }, NOW, 'UTC')).toBe(NOW + 30 * MIN);
    expect(firstRunTime({ kind: 'cron', expr: '0 9 * * *' }, NOW, 'UTC')).toBe(at('2026-11-30T09:00:00Z'));
    expect(firstRunTime({ kind: 'once', run_at: '2026-11-29T09:59:00Z' }, NOW, 'UTC')).toBe(
      at('2026-11-29T09:59:00Z'),
    );
    expect(firstRunTime({ kind: 'once', run_at: '2026-11-29T09:57:00Z' }, NOW, 'UTC')).toBeNull();
  });
});

describe('period and grace', () => {
  const cases: Array<[string, Schedule, number | null, number]> = [
    // name, schedule, period, grace
    ['every 1m → minimum 2 min', { kind: 'interval', minutes: 1 }, MIN, 2 * MIN],
    ['every 10m → 5 min', { kind: 'interval', minutes: 10 }, 10 * MIN, 5 * MIN],
    ['every 2h → 1 h', { kind: 'interval', minutes: 120 }, 2 * H, H],
    ['every 1d → clamped to 2 h', { kind: 'interval', minutes: 1440 }, 24 * H, 2 * H],
    ['cron every 15 min → 7.5 min', { kind: 'cron', expr: '*/15 * * * *' }, 15 * MIN, 7.5 * MIN],
    ['cron hourly → 30 min', { kind: 'cron', expr: '0 * * * *' }, H, 30 * MIN],
    ['cron daily → 2 h', { kind: 'cron', expr: '0 9 * * *' }, 24 * H, 2 * H],
    ['once → 2 min', { kind: 'once', run_at: '2026-11-29T10:00:00Z' }, null, 2 * MIN],
  ];
  it.each(cases)('%s', (_name, schedule, period, grace) => {
    expect(periodMs(schedule, NOW, 'UTC')).toBe(period);
    expect(graceMs(schedule, NOW, 'UTC')).toBe(grace);
  });

  it('prints durations compactly', () => {
    expect(compactDuration(90 * MIN)).toBe('1h30m');
    expect(compactDuration(1440 * MIN)).toBe('1d');
    expect(compactDuration(25 * H + MIN)).toBe('1d1h1m');
  });
});
