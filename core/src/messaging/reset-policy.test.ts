import { describe, expect, it } from 'vitest';
import { DEFAULT_RESET_POLICY, resetReason, resolveResetPolicy, type ResetPolicy } from './reset-policy.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const utc = (s: string): number => Date.parse(`${s}Z`);
const policy = (p: Partial<ResetPolicy>): ResetPolicy => ({ ...DEFAULT_RESET_POLICY, ...p });
const tz = 'UTC';

describe('resetReason', () => {
  const cases: Array<[string, ResetPolicy, number, number, boolean, string | undefined]> = [
    [
      'idle: not yet',
      policy({ mode: 'idle', idleMinutes: 30 }),
      utc('2026-01-01T10:00:00'),
      utc('2026-01-01T10:29:59'),
      false,
      undefined,
    ],
    [
      'idle: exactly the limit',
      policy({ mode: 'idle', idleMinutes: 30 }),
      utc('2026-01-01T10:00:00'),
      utc('2026-01-01T10:30:00'),
      false,
      'idle',
    ],
    [
      'idle ignores the daily boundary',
      policy({ mode: 'idle', idleMinutes: 600 }),
      utc('2026-01-01T03:59:00'),
      utc('2026-01-01T04:01:00'),
      false,
      undefined,
    ],
    [
      'daily: before the boundary',
      policy({ mode: 'daily', atHour: 4 }),
      utc('2026-01-01T01:00:00'),
      utc('2026-01-01T03:59:59'),
      false,
      undefined,
    ],
    [
      'daily: crossing the boundary',
      policy({ mode: 'daily', atHour: 4 }),
      utc('2026-01-01T03:59:59'),
      utc('2026-01-01T04:00:00'),
      false,
      'daily',
    ],
    [
      'daily: after the boundary, same day',
      policy({ mode: 'daily', atHour: 4 }),
      utc('2026-01-01T04:00:00'),
      utc('2026-01-01T23:59:00'),
      false,
      undefined,
    ],
    [
      'daily: previous evening to next morning',
      policy({ mode: 'daily', atHour: 4 }),
      utc('2026-01-01T22:00:00'),
      utc('2026-01-02T05:00:00'),
      false,
      'daily',
    ],
    [
      'daily: evening to just before the boundary',
      policy({ mode: 'daily', atHour: 4 }),
      utc('2026-01-01T22:00:00'),
      utc('2026-01-02T03:00:00'),
      false,
      undefined,
    ],
    [
      'daily ignores idleness',
      policy({ mode: 'daily', atHour: 4, idleMinutes: 1 }),
      utc('2026-01-01T05:00:00'),
      utc('2026-01-01T20:00:00'),
      false,
      undefined,
    ],
    [
      'both: idle first',
      policy({ mode: 'both', atHour: 4, idleMinutes: 60 }),
      utc('2026-01-01T10:00:00'),
      utc('2026-01-01T11:00:00'),
      false,
      'idle',
    ],
    [
      'both: daily first',
      policy({ mode: 'both', atHour: 4, idleMinutes: 1440 }),
      utc('2026-01-01T03:30:00'),
      utc('2026-01-01T04:10:00'),
      false,
      'daily',
    ],
    [
      'both: neither',
      policy({ mode: 'both', atHour: 4, idleMinutes: 1440 }),
      utc('2026-01-01T05:00:00'),
      utc('2026-01-01T06:00:00'),
      false,
      undefined,
    ],
    [
      'none never resets',
      policy({ mode: 'none' }),
      utc('2020-01-01T00:00:00'),
      utc('2026-01-01T00:00:00'),
      false,
      undefined,
    ],
    [
      'active work never expires (idle)',
      policy({ mode: 'idle', idleMinutes: 1 }),
      utc('2026-01-01T00:00:00'),
      utc('2026-01-02T00:00:00'),
      true,
      undefined,
    ],
    [
      'active work never expires (daily)',
      policy({ mode: 'daily' }),
      utc('2026-01-01T00:00:00'),
      utc('2026-01-03T00:00:00'),
      true,
      undefined,
    ],
  ];
  it.each(cases)('%s', (_name, p, last, now, activeWork, expected) => {
    expect(resetReason(p, last, now, { timeZone: tz, activeWork })).toBe(expected);
  });

  it('places the daily boundary in the configured zone', () => {
    // 04:00 in Tokyo is 19:00 UTC the day before
    const p = policy({ mode: 'daily', atHour: 4 });
    expect(
      resetReason(p, utc('2026-01-01T18:59:00'), utc('2026-01-01T19:01:00'), { timeZone: 'Asia/Tokyo' }),
    ).toBe('daily');
    expect(
      resetReason(p, utc('2026-01-01T18:59:00'), utc('2026-01-01T19:01:00'), { timeZone: 'UTC' }),
    ).toBeUndefined();
  });

  it('a reset exactly HOUR later than idle limit is idle', () => {
    expect(resetReason(policy({ mode: 'idle', idleMinutes: 60 }), 0, HOUR, { timeZone: tz })).toBe('idle');
  });
});

describe('resolveResetPolicy', () => {
  it.each([
    ['built-in default', undefined, undefined, DEFAULT_RESET_POLICY],
    ['global', undefined, { mode: 'none' as const }, { ...DEFAULT_RESET_POLICY, mode: 'none' }],
    [
      'platform over global',
      { reset: { mode: 'idle' as const } },
      { mode: 'none' as const, idle_minutes: 5 },
      { mode: 'idle', atHour: 4, idleMinutes: 5 },
    ],
    [
      'chat type over platform',
      {
        reset: { mode: 'idle' as const, idle_minutes: 10 },
        reset_by_type: { group: { mode: 'daily' as const, at_hour: 6 } },
      },
      undefined,
      { mode: 'daily', atHour: 6, idleMinutes: 10 },
    ],
  ])('%s', (_n, platform, global, expected) => {
    expect(resolveResetPolicy(platform, 'group', global)).toEqual(expected);
  });
  it('chat type only applies to its type', () => {
    expect(resolveResetPolicy({ reset_by_type: { group: { mode: 'none' } } }, 'dm').mode).toBe('both');
  });
});
