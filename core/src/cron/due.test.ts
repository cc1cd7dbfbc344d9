/** Deciding what fires: grace, fast-forward, missed one-shots, run markers, claims. */
import { describe, expect, it } from 'vitest';
import { decideDue } from './due.js';
import { makeJob } from './testing.js';
import type { CronJob, Schedule } from './types.js';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const MIN = 60_000;
const ago = (m: number): string => new Date(NOW - m * MIN).toISOString();
const me = { pid: 4242, host: 'here' };
const decide = (jobs: CronJob[], alive: (pid: number) => boolean = () => true) =>
  decideDue(jobs, { now: NOW, timeZone: 'UTC', claimant: me, isAlive: (m) => alive(m.pid) });

describe('decideDue: grace and fast-forward', () => {
  const hourly: Schedule = { kind: 'interval', minutes: 60 }; // grace 30 min
  const every10: Schedule = { kind: 'interval', minutes: 10 }; // grace 5 min
  const daily: Schedule = { kind: 'cron', expr: '0 8 * * *' }; // grace 2 h
  const once = (run: string): Schedule => ({ kind: 'once', run_at: run });
  const cases: Array<[string, Schedule, number, 'run' | 'ff' | 'missed' | 'wait', string | null]> = [
    // name, schedule, minutes late (negative = in the future), verdict, next_run_at after
    ['not yet due', hourly, -1, 'wait', ago(-1)],
    ['exactly due', hourly, 0, 'run', ago(-60)],
    ['hourly 29 min late runs', hourly, 29, 'run', ago(-31)],
    ['hourly 31 min late runs once and is fast-forwarded', hourly, 31, 'ff', ago(-29)],
    ['hourly 5 h late runs once and skips the missed hours', hourly, 300, 'ff', ago(-60)],
    ['every 10m 4 min late runs', every10, 4, 'run', ago(-6)],
    ['every 10m 6 min late runs once and is fast-forwarded', every10, 6, 'ff', ago(-4)],
    ['every 10m 1 min late always runs (2 min floor)', every10, 1, 'run', ago(-9)],
    ['daily 08:00 seen at 10:00 (2 h late) still runs', daily, 120, 'run', '2026-11-30T08:00:00.000Z'],
    [
      'daily 07:59 seen at 10:00 (2 h 1 min late) runs once and is fast-forwarded',
      { kind: 'cron', expr: '59 7 * * *' },
      121,
      'ff',
      '2026-11-30T07:59:00.000Z',
    ],
    ['one-shot 1 min late runs', once(ago(1)), 1, 'run', null],
    ['one-shot 3 min late is missed', once(ago(3)), 3, 'missed', null],
  ];
  it.each(cases)('%s', (_name, schedule, late, verdict, next) => {
    const job = makeJob({ id: 'j1', schedule, next_run_at: ago(late) });
    const d = decide([job]);
    const runs = verdict === 'run' || verdict === 'ff';
    expect(d.due.map((j) => j.id)).toEqual(runs ? ['j1'] : []);
    expect(d.fastForwarded.map((f) => f.id)).toEqual(verdict === 'ff' ? ['j1'] : []);
    expect(d.missed).toEqual(verdict === 'missed' ? ['j1'] : []);
    expect(job.next_run_at).toBe(next);
    expect(d.changed).toBe(verdict !== 'wait');
    if (runs) {
      expect(job.running).toEqual({ pid: 4242, host: 'here', since: ago(0), for_time: ago(late) });
      expect(d.due[0]!.running).toEqual(job.running);
    } else expect(job.running).toBeNull();
    if (verdict === 'missed') {
      expect(job).toMatchObject({ state: 'error', enabled: false, last_status: 'error' });
      expect(job.last_error).toMatch(/missed/);
    }
  });

  it('skips paused, completed and disabled jobs', () => {
    const jobs = [
      makeJob({ id: 'p', state: 'paused', enabled: false, next_run_at: ago(1) }),
      makeJob({ id: 'c', state: 'completed', enabled: false, next_run_at: ago(1) }),
      makeJob({ id: 'd', enabled: false, next_run_at: ago(1) }),
      makeJob({ id: 'n', state: 'paused', enabled: false, next_run_at: null }),
      makeJob({ id: 'x', state: 'error', enabled: false, next_run_at: 'not a time' }),
    ];
    const before = structuredClone(jobs);
    const d = decide(jobs);
    expect(d.due).toEqual([]);
    expect(d.changed).toBe(false);
    expect(jobs).toEqual(before);
  });
});

describe('decideDue: run markers', () => {
  it('skips a job a live process still runs, and advances it so runs never pile up', () => {
    const job = makeJob({
      id: 'busy',
      next_run_at: ago(0),
      running: { pid: 99, host: 'here', since: ago(60), for_time: ago(60) },
    });
    const d = decide([job], () => true);
    expect(d.due).toEqual([]);
    expect(d.skippedRunning).toEqual(['busy']);
    expect(job.next_run_at).toBe(ago(-60));
    expect(job.running?.pid).toBe(99);
  });

  it('clears the marker of a dead process, records the interruption and does not re-run it', () => {
    // the crash happened after the claim: next_run_at already points to the future
    const job = makeJob({
      id: 'crashed',
      next_run_at: ago(-50),
      running: { pid: 99, host: 'here', since: ago(10), for_time: ago(10) },
    });
    const d = decide([job], () => false);
    expect(d.interrupted).toEqual(['crashed']);
    expect(d.due).toEqual([]);
    expect(job).toMatchObject({
      running: null,
      last_status: 'error',
      next_run_at: ago(-50),
      state: 'scheduled',
    });
    expect(job.last_error).toMatch(/interrupted.*pid 99/);
  });

  it('an interrupted one-shot ends in state error and never runs again', () => {
    const job = makeJob({
      id: 'once',
      schedule: { kind: 'once', run_at: ago(1) },
      next_run_at: null,
      running: { pid: 99, host: 'here', since: ago(1), for_time: ago(1) },
    });
    const d = decide([job], () => false);
    expect(d.interrupted).toEqual(['once']);
    expect(job).toMatchObject({ state: 'error', enabled: false, running: null });
  });

  it('claims a due job once: a second decision at the same moment finds nothing', () => {
    const jobs = [makeJob({ id: 'a', next_run_at: ago(0) }), makeJob({ id: 'b', next_run_at: ago(-5) })];
    expect(decide(jobs).due.map((j) => j.id)).toEqual(['a']);
    const again = decide(jobs);
    expect(again.due).toEqual([]);
    expect(again.changed).toBe(false);
  });

  it('puts a job whose schedule cannot be computed into state error', () => {
    const job = makeJob({ id: 'bad', schedule: { kind: 'cron', expr: '99 99 * * *' }, next_run_at: ago(0) });
    const d = decide([job]);
    expect(d.broken).toEqual(['bad']);
    expect(job).toMatchObject({ state: 'error', enabled: false, last_status: 'error' });
  });
});
