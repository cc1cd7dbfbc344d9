/**
 * The original project's cron vectors, checked against our parser, next-run computation and
 * due decision. Sources (NousResearch/hermes-agent): tests/cron/test_jobs.py,
 * tests/cron/test_compute_next_run_dst.py, tests/cron/test_compute_next_run_last_run_at.py.
 * Where we differ on purpose, the case says so and why.
 */
import { describe, expect, it } from 'vitest';
import { decideDue } from './due.js';
import { createJob, pauseJob, removeJob, resumeJob, triggerJob, updateJob } from './jobs.js';
import { CronScheduleError, firstRunTime, nextCronTime, nextRunTime, parseSchedule } from './schedule.js';
import { CronStore, parseJobsText } from './store.js';
import { cronTestContext, makeJob, testClock } from './testing.js';
import { zoneOffsetMs } from './timezone.js';
import type { Schedule } from './types.js';

const MIN = 60_000;
const NOW = Date.parse('2026-03-18T04:22:03Z');
const parse = (text: string, timeZone = 'UTC', now = NOW) => parseSchedule(text, { now, timeZone });
const wall = (t: number, zone: string): string =>
  new Date(t).toLocaleTimeString('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });

describe('durations (original parse_duration)', () => {
  const minutes: Array<[string, number]> = [
    ['30m', 30],
    ['1min', 1],
    ['5mins', 5],
    ['10minute', 10],
    ['120minutes', 120],
    ['2h', 120],
    ['1hr', 60],
    ['3hrs', 180],
    ['1hour', 60],
    ['24hours', 1440],
    ['1d', 1440],
    ['7day', 7 * 1440],
    ['2days', 2 * 1440],
    ['  30m  ', 30],
    ['2 h', 120],
  ];
  it.each(minutes)('%j is a one-shot %i minutes from now', (text, n) => {
    expect(parse(text).schedule).toEqual({ kind: 'once', run_at: new Date(NOW + n * MIN).toISOString() });
    expect(parse(`every ${text.trim()}`).schedule).toEqual({ kind: 'interval', minutes: n });
  });

  it.each(['abc', '30x', '', 'm30'])('refuses %j', (text) => {
    expect(() => parse(text)).toThrow(CronScheduleError);
  });
});

describe('schedules (original parse_schedule)', () => {
  it('reads intervals, cron expressions and ISO times', () => {
    expect(parse('every 2h').schedule).toEqual({ kind: 'interval', minutes: 120 });
    expect(parse('Every 30m').schedule).toEqual({ kind: 'interval', minutes: 30 });
    expect(parse('0 9 * * *').schedule).toEqual({ kind: 'cron', expr: '0 9 * * *' });
    const iso = parse('2030-01-15T14:00:00').schedule;
    expect(iso.kind).toBe('once');
    expect(iso.kind === 'once' && iso.run_at).toContain('2030-01-15');
  });

  it('reads the cron aliases croniter accepts', () => {
    expect(parse('@hourly').schedule).toEqual({ kind: 'cron', expr: '@hourly' });
    expect(parse('@Daily').schedule).toEqual({ kind: 'cron', expr: '@daily' });
    expect(nextCronTime('@hourly', NOW, 'UTC')).toBe(Date.parse('2026-03-18T05:00:00Z'));
    expect(nextCronTime('@daily', NOW, 'UTC')).toBe(Date.parse('2026-03-19T00:00:00Z'));
  });

  it.each(['not_a_schedule', '99 99 99 99 99'])('refuses %j', (text) => {
    expect(() => parse(text)).toThrow(CronScheduleError);
  });

  it('reads a naive time on the configured clock, not the machine one', () => {
    // configured zone +05:30; the user typed 20:07 wall-clock
    const now = Date.parse('2026-06-22T20:00:00+05:30');
    const s = parse('2026-06-22T20:07:00', 'Asia/Kolkata', now).schedule;
    expect(s).toEqual({
      kind: 'once',
      run_at: new Date(Date.parse('2026-06-22T20:07:00+05:30')).toISOString(),
    });
    expect(zoneOffsetMs('Asia/Kolkata', now)).toBe(5.5 * 60 * MIN);
  });

  it('refuses a one-shot time that passed more than the grace ago', () => {
    const now = Date.parse('2026-03-18T04:30:00Z');
    expect(() => parse(new Date(now - 5 * MIN).toISOString(), 'UTC', now)).toThrow(/in the past/);
  });

  // Deliberate difference: the original shows an interval in minutes ("every 120m"); we show the
  // compact form the user would write ("every 2h"), which reads better and parses back the same.
  it('shows intervals compactly (the original: "every 120m")', () => {
    expect(parse('every 2h').display).toBe('every 2h');
    expect(parse(parse('every 120m').display).schedule).toEqual({ kind: 'interval', minutes: 120 });
  });
});

describe('next run times (original compute_next_run)', () => {
  it('keeps a one-shot time while it is in reach, and none after', () => {
    const future = new Date(NOW + 60 * MIN).toISOString();
    expect(firstRunTime({ kind: 'once', run_at: future }, NOW, 'UTC')).toBe(Date.parse(future));
    // 3 s late is within the 2-minute grace
    const recent = '2026-03-18T04:22:00.000Z';
    expect(firstRunTime({ kind: 'once', run_at: recent }, NOW, 'UTC')).toBe(Date.parse(recent));
    expect(
      firstRunTime({ kind: 'once', run_at: new Date(NOW - 60 * MIN).toISOString() }, NOW, 'UTC'),
    ).toBeNull();
    // once it ran there is no next run, even within the grace
    expect(nextRunTime({ kind: 'once', run_at: recent }, Date.parse(recent), NOW, 'UTC')).toBeNull();
  });

  it('puts the first interval run one period ahead, and later ones one period after the last', () => {
    expect(firstRunTime({ kind: 'interval', minutes: 60 }, NOW, 'UTC')).toBe(NOW + 60 * MIN);
    expect(nextRunTime({ kind: 'interval', minutes: 30 }, NOW, NOW, 'UTC')).toBe(NOW + 30 * MIN);
  });

  it('puts a cron run in the future', () => {
    expect(firstRunTime({ kind: 'cron', expr: '* * * * *' }, NOW, 'UTC')).toBe(
      Date.parse('2026-03-18T04:23:00Z'),
    );
  });

  // Deliberate difference: the original returns None for an unknown kind; we raise, so the due
  // decision puts the job into state `error` with the reason instead of leaving it silently idle.
  it('refuses an unknown schedule kind', () => {
    expect(() => firstRunTime({ kind: 'unknown' } as unknown as Schedule, NOW, 'UTC')).toThrow(
      /unknown schedule kind "unknown"/,
    );
  });

  it('counts cron occurrences from the base it is given (the last run), else from now', () => {
    const zone = 'Africa/Casablanca';
    const lastRun = Date.parse('2026-04-06T14:10:00+01:00');
    const now = Date.parse('2026-04-10T22:00:00+01:00');
    const fromLast = nextCronTime('0 */6 * * *', lastRun, zone);
    expect(new Date(fromLast).toLocaleString('sv-SE', { timeZone: zone })).toBe('2026-04-06 18:00:00');
    const fromNow = nextCronTime('0 */6 * * *', now, zone);
    expect(new Date(fromNow).toLocaleString('sv-SE', { timeZone: zone })).toBe('2026-04-11 00:00:00');
    expect(nextCronTime('0 14 * * 1', lastRun, zone)).toBeGreaterThan(lastRun);
  });

  it('adds intervals in real time across DST changes', () => {
    const every2h: Schedule = { kind: 'interval', minutes: 120 };
    const cases: Array<[string, string, string]> = [
      // last run, now, expected next (UTC)
      ['2026-03-08T01:30:00-05:00', '2026-03-08T01:31:00-05:00', '2026-03-08T08:30:00.000Z'], // spring forward
      ['2026-11-01T01:30:00-04:00', '2026-11-01T01:31:00-04:00', '2026-11-01T07:30:00.000Z'], // fall back
      ['2026-06-01T12:00:00-04:00', '2026-06-01T12:01:00-04:00', '2026-06-01T18:00:00.000Z'],
    ];
    for (const [last, now, next] of cases) {
      expect(
        new Date(nextRunTime(every2h, Date.parse(last), Date.parse(now), 'America/New_York')!).toISOString(),
      ).toBe(next);
    }
  });
});

describe('cron across DST (original test_compute_next_run_dst)', () => {
  const TORONTO = 'America/Toronto';

  it('keeps 09:00 local on the transition days and all year', () => {
    expect(wall(nextCronTime('0 9 * * *', Date.parse('2026-03-07T09:00:00-05:00'), TORONTO), TORONTO)).toBe(
      '09:00',
    );
    expect(wall(nextCronTime('0 9 * * *', Date.parse('2026-10-31T09:00:00-04:00'), TORONTO), TORONTO)).toBe(
      '09:00',
    );
    let last = Date.parse('2026-01-01T09:00:00-05:00');
    for (let i = 0; i < 365; i++) {
      const next = nextCronTime('0 9 * * *', last, TORONTO);
      expect(wall(next, TORONTO), new Date(last).toISOString()).toBe('09:00');
      last = next;
    }
  });

  it('never returns a time before its base inside the repeated hour', () => {
    const secondPass = Date.parse('2026-11-01T01:15:00-05:00'); // 01:15 EST, the second 01:15
    const next = nextCronTime('30 1 * * *', secondPass, TORONTO);
    expect(next).toBeGreaterThan(secondPass);
    expect(wall(next, TORONTO)).toBe('01:30');
    const lastEdtMinute = Date.parse('2026-11-01T01:59:00-04:00');
    expect(nextCronTime('* * * * *', lastEdtMinute, TORONTO)).toBeGreaterThan(lastEdtMinute);
  });

  // cronie: a job with `*` leading its minute or hour field runs both times through the repeated
  // hour; a fixed-time job runs once.
  const runsInRepeatedHour: Array<[string, number]> = [
    ['*/30 * * * *', 4],
    ['0 * * * *', 2],
    ['*/15 1 * * *', 8],
    ['30 1 * * *', 1],
    ['@hourly', 2],
    ['@daily', 0],
  ];
  it.each(runsInRepeatedHour)('%s runs %i times in the repeated 01:00 hour', (expr, expected) => {
    const end = Date.parse('2026-11-01T03:00:00-05:00');
    let last = Date.parse('2026-11-01T00:00:00-04:00');
    let runs = 0;
    for (;;) {
      const next = nextCronTime(expr, last, TORONTO);
      expect(next).toBeGreaterThan(last);
      if (next >= end) break;
      if (wall(next, TORONTO).startsWith('01:')) runs++;
      last = next;
    }
    expect(runs).toBe(expected);
  });
});

describe('due decision (original get_due_jobs)', () => {
  const now = Date.parse('2026-03-18T04:22:30Z');
  const ago = (m: number): string => new Date(now - m * MIN).toISOString();
  const decide = (jobs: ReturnType<typeof makeJob>[]) =>
    decideDue(jobs, { now, timeZone: 'UTC', claimant: { pid: 1, host: 'h' }, isAlive: () => true });

  it('runs an hourly job 10 minutes late; 35 minutes late it runs once and skips ahead', () => {
    const onTime = makeJob({ id: 'a', next_run_at: ago(10) });
    const stale = makeJob({ id: 'b', next_run_at: ago(35) });
    const d = decide([onTime, stale]);
    expect(d.due.map((j) => j.id)).toEqual(['a', 'b']);
    expect(d.fastForwarded.map((f) => f.id)).toEqual(['b']);
    expect(Date.parse(stale.next_run_at!)).toBeGreaterThan(now);
  });

  it('runs a 5-minute job whose last run overran (11 minutes late) once, not never', () => {
    const job = makeJob({ id: 'long', schedule: { kind: 'interval', minutes: 5 }, next_run_at: ago(11) });
    expect(decide([job]).due.map((j) => j.id)).toEqual(['long']);
    expect(Date.parse(job.next_run_at!)).toBeGreaterThan(now);
  });

  it('recovers a recent one-shot that lost its next run time, not a stale one', () => {
    const runAt = '2026-03-18T04:22:00.000Z';
    const recent = makeJob({ id: 'recover', schedule: { kind: 'once', run_at: runAt }, next_run_at: null });
    const stale = makeJob({
      id: 'stale',
      schedule: { kind: 'once', run_at: '2026-03-18T04:10:00.000Z' },
      next_run_at: null,
    });
    const d = decide([recent, stale]);
    expect(d.due.map((j) => j.id)).toEqual(['recover']);
    expect(d.due[0]!.running?.for_time).toBe(runAt);
    expect(stale.next_run_at).toBeNull();
    expect(d.recovered).toEqual(['recover']);
  });

  it('repairs an unreadable next run time without starving a due sibling', () => {
    const bad = makeJob({ id: 'bad-next', next_run_at: 'not-a-valid-iso-timestamp!!!' });
    const good = makeJob({ id: 'good', schedule: { kind: 'interval', minutes: 5 }, next_run_at: ago(0.5) });
    const d = decide([bad, good]);
    expect(d.due.map((j) => j.id)).toEqual(['good']);
    expect(bad.next_run_at).toBe(new Date(now + 60 * MIN).toISOString());
    expect(decide([bad]).changed).toBe(false); // stable on the next tick
  });

  it('puts a job whose schedule cannot be computed into error and still runs its sibling', () => {
    const poison = makeJob({
      id: 'poison',
      schedule: { kind: 'weekly' } as unknown as Schedule,
      next_run_at: ago(0.5),
    });
    const good = makeJob({ id: 'good', next_run_at: ago(0.5) });
    const d = decide([poison, good]);
    expect(d.due.map((j) => j.id)).toEqual(['good']);
    expect(d.broken).toEqual(['poison']);
    expect(poison).toMatchObject({ state: 'error', enabled: false });
  });

  it('never runs paused or future jobs', () => {
    const paused = makeJob({ id: 'p', state: 'paused', enabled: false, next_run_at: ago(5) });
    const future = makeJob({ id: 'f', next_run_at: ago(-60) });
    expect(decide([paused, future]).due).toEqual([]);
  });
});

describe('jobs file and creation (original test_jobs.py CRUD)', () => {
  it('reads a jobs file that starts with a UTF-8 BOM', () => {
    const body = JSON.stringify({
      jobs: [
        { id: 'bomjob01', name: 'bom-test', prompt: 'hello', schedule: { kind: 'interval', minutes: 60 } },
      ],
    });
    expect(parseJobsText(`\ufeff${body}`).map((j) => j.name)).toEqual(['bom-test']);
    expect(parseJobsText(body).map((j) => j.id)).toEqual(['bomjob01']);
  });

  it('gives a one-shot one repeat, an interval none, and delivers to the origin chat by default', async () => {
    const ctx = cronTestContext(testClock(NOW));
    const once = await createJob(ctx, { prompt: 'One-shot', schedule: '1h' });
    expect(once.repeat).toEqual({ times: 1, completed: 0 });
    const every = await createJob(ctx, { prompt: 'Recurring', schedule: 'every 1h' });
    expect(every.repeat.times).toBeNull();
    const fromChat = await createJob(ctx, {
      prompt: 'Test',
      schedule: '30m',
      origin: { platform: 'telegram', chat_id: '123' },
    });
    expect(fromChat.deliver).toEqual(['origin']);
    expect(once.deliver).toEqual(['local']);
  });

  it('refuses to create a one-shot whose time passed', async () => {
    const ctx = cronTestContext(testClock('2026-03-18T04:30:00Z'));
    await expect(createJob(ctx, { prompt: 'Too late', schedule: '2026-03-18T04:25:00Z' })).rejects.toThrow(
      /in the past/,
    );
  });
});

describe('partial records (original test_jobs.py, test_cronjob_tools.py)', () => {
  const now = Date.parse('2026-03-18T04:22:30Z');
  const decide = (jobs: ReturnType<typeof makeJob>[]) =>
    decideDue(jobs, { now, timeZone: 'UTC', claimant: { pid: 1, host: 'h' }, isAlive: () => true });

  it('lists a legacy record with null name and prompt under its id', () => {
    const [job] = parseJobsText(
      JSON.stringify([
        {
          id: 'abc123deadbe',
          name: null,
          prompt: null,
          schedule_display: null,
          schedule: { kind: 'interval', minutes: 60 },
          repeat: { times: null, completed: 0 },
          enabled: true,
        },
      ]),
    );
    expect(job).toMatchObject({ id: 'abc123deadbe', name: 'abc123deadbe', prompt: '', schedule_display: '' });
  });

  it('gives a job stored without an id a stable one, and its due siblings still run', () => {
    const text = JSON.stringify({
      jobs: [
        {
          id: 'healthy00001',
          prompt: 'Healthy',
          schedule: { kind: 'interval', minutes: 60 },
          next_run_at: '2026-03-18T03:50:00Z',
        },
        {
          name: 'idless-job',
          schedule: { kind: 'cron', expr: '0 4 * * *' },
          enabled: true,
          next_run_at: null,
        },
      ],
    });
    const jobs = parseJobsText(text);
    expect(jobs[1]!.id).toMatch(/^[0-9a-f]{12}$/);
    expect(parseJobsText(text)[1]!.id).toBe(jobs[1]!.id);
    const d = decide(jobs);
    expect(d.due.map((j) => j.id)).toEqual(['healthy00001']);
    expect(jobs[1]!.next_run_at).toBe('2026-03-19T04:00:00.000Z'); // recovered, not due yet
  });

  it('puts a due job without a prompt into error instead of running nothing', () => {
    const job = makeJob({ id: 'noprompt0001', prompt: '', next_run_at: '2026-03-18T04:22:00Z' });
    const d = decide([job]);
    expect(d.due).toEqual([]);
    expect(d.broken).toEqual(['noprompt0001']);
    expect(job.last_error).toMatch(/no prompt/);
  });
});

describe('repeat counts (original test_jobs.py: completed records are kept)', () => {
  it('revives a job that ran its count out with a fresh count when its schedule is edited', async () => {
    const ctx = cronTestContext(testClock(NOW));
    const job = await createJob(ctx, { prompt: 'Twice', schedule: 'every 1h', repeat: 2 });
    await new CronStore(ctx.home).mutate((jobs) => {
      Object.assign(jobs[0]!, {
        state: 'completed',
        enabled: false,
        next_run_at: null,
        repeat: { times: 2, completed: 2 },
      });
    });
    await expect(resumeJob(ctx, job.id)).rejects.toThrow(/completed/);
    const revived = await updateJob(ctx, job.id, { schedule: 'every 2h' });
    expect(revived).toMatchObject({ state: 'scheduled', enabled: true, repeat: { times: 2, completed: 0 } });
    expect(revived.next_run_at).toBe(new Date(NOW + 120 * MIN).toISOString());
  });
});

describe('job references and resume (original test_jobs.py)', () => {
  it('refuses to pause, resume, run or remove by an ambiguous name', async () => {
    const ctx = cronTestContext(testClock(NOW));
    await createJob(ctx, { prompt: 'A', schedule: '1h', name: 'dup' });
    await createJob(ctx, { prompt: 'B', schedule: '1h', name: 'dup' });
    for (const act of [pauseJob, resumeJob, triggerJob, removeJob])
      await expect(act(ctx, 'dup')).rejects.toThrow(/several jobs/);
    const one = await createJob(ctx, { prompt: 'C', schedule: '1h', name: 'alpha' });
    expect((await pauseJob(ctx, 'alpha')).id).toBe(one.id);
  });

  it('refuses to resume a paused one-shot whose time has passed', async () => {
    const clock = testClock(NOW);
    const ctx = cronTestContext(clock);
    const job = await createJob(ctx, { prompt: 'Past one-shot', schedule: '30m' });
    await pauseJob(ctx, job.id);
    clock.advance(40 * MIN);
    await expect(resumeJob(ctx, job.id)).rejects.toThrow(/time has passed/);
  });
});
