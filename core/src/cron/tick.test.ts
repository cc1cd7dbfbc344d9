/**
 * The tick with an injected clock: due jobs run once, advance-before-run, the tick lock,
 * heartbeat and success mark, cwd partitioning, run-now, compare-and-set claims, triggers.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { createJob, listJobs, pauseJob, resumeJob, triggerJob } from './jobs.js';
import { judgeTickHealth, readTickStatus } from './status.js';
import { CronStore } from './store.js';
import { cronTestContext, testClock } from './testing.js';
import { claimJobForFire, runJobNow, tick, tryTickLock, type TickOptions } from './tick.js';
import { BuiltinTicker, resolveCronTrigger, type CronFireApi, type CronTrigger } from './trigger.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { text: 'default reply' } });
});
afterAll(() => model.close());
beforeEach(() => {
  model.requests.length = 0;
});

const START = '2026-11-29T10:00:00.000Z';
const MIN = 60_000;

function setup() {
  const clock = testClock(START);
  const ctx = cronTestContext(clock, {
    model: { provider: 'custom', base_url: model.url, default: 'fake-model' },
  });
  const opts: TickOptions = { home: ctx.home, config: ctx.config, now: clock, ticker: 'test' };
  return { clock, ctx, opts };
}

describe('tick', () => {
  it('runs a due job exactly once, advancing its next time before the run', async () => {
    const { clock, ctx, opts } = setup();
    const job = await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' });
    expect((await tick(opts)).decision?.due).toEqual([]); // not due yet
    clock.advance(60 * MIN);
    let seenAtClaim: string | null | undefined;
    const r = await tick({ ...opts, onClaimed: () => (seenAtClaim = listJobs(ctx)[0]!.next_run_at) });
    expect(r.status).toBe('done');
    expect(r.decision?.due).toEqual([job.id]);
    expect(seenAtClaim).toBe('2026-11-29T12:00:00.000Z'); // saved before the run started
    expect(r.outcomes.map((o) => o.status)).toEqual(['ok']);
    expect(model.requests).toHaveLength(1);
    // same moment again: nothing
    expect((await tick(opts)).outcomes).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(listJobs(ctx)[0]).toMatchObject({ last_status: 'ok', repeat: { completed: 1 }, running: null });
  });

  it('runs a recurring job that missed its grace once, then fast-forwards past the missed times', async () => {
    const { clock, ctx, opts } = setup();
    await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' }); // due 11:00, grace 30 min
    clock.set(Date.parse('2026-11-29T14:40:00Z'));
    model.push({ text: 'late but done' });
    const r = await tick(opts);
    expect(r.outcomes).toHaveLength(1);
    expect(r.decision?.fastForwarded).toEqual([
      expect.objectContaining({ missed: '2026-11-29T11:00:00.000Z', next: '2026-11-29T15:00:00.000Z' }),
    ]);
    expect(model.requests).toHaveLength(1);
    expect(listJobs(ctx)[0]).toMatchObject({ last_status: 'ok', next_run_at: '2026-11-29T15:00:00.000Z' });
    // the next tick in the same hour runs nothing more
    clock.set(Date.parse('2026-11-29T14:50:00Z'));
    expect((await tick(opts)).outcomes).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it('pause stops firing; resume continues; trigger makes it due at the next tick', async () => {
    const { clock, ctx, opts } = setup();
    const job = await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' });
    await pauseJob(ctx, job.id);
    clock.advance(60 * MIN);
    expect((await tick(opts)).outcomes).toEqual([]);
    await resumeJob(ctx, job.id);
    expect(listJobs(ctx)[0]!.next_run_at).toBe('2026-11-29T12:00:00.000Z');
    await triggerJob(ctx, job.id);
    expect((await tick(opts)).outcomes).toHaveLength(1);
    expect(listJobs(ctx)[0]!.next_run_at).toBe('2026-11-29T12:00:00.000Z');
  });

  it('one-shot: runs once, then completed; repeat 3 runs three times, then completed', async () => {
    const { clock, ctx, opts } = setup();
    await createJob(ctx, { schedule: '30m', prompt: 'once', name: 'once' });
    await createJob(ctx, { schedule: 'every 10m', prompt: 'thrice', name: 'thrice', repeat: 3 });
    const runs: string[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(10 * MIN);
      for (const o of (await tick(opts)).outcomes) runs.push(o.name);
    }
    expect(runs.sort()).toEqual(['once', 'thrice', 'thrice', 'thrice']);
    const jobs = listJobs(ctx);
    expect(jobs.map((j) => [j.name, j.state])).toEqual([
      ['once', 'completed'],
      ['thrice', 'completed'],
    ]);
  });

  it('returns at once when another tick holds the lock', async () => {
    const { clock, ctx, opts } = setup();
    await createJob(ctx, { schedule: '1m', prompt: 'x' });
    clock.advance(MIN);
    const release = await tryTickLock(ctx.home);
    expect(release).toBeDefined();
    const t0 = performance.now();
    expect(await tick(opts)).toEqual({ status: 'locked', outcomes: [] });
    expect(performance.now() - t0).toBeLessThan(1000);
    await release!();
    expect((await tick(opts)).outcomes).toHaveLength(1);
  });

  it('records a heartbeat every tick and a success mark only after a clean tick', async () => {
    const { clock, ctx, opts } = setup();
    await tick(opts);
    const ok = readTickStatus(ctx.home);
    expect(ok).toMatchObject({ last_tick_at: START, last_success_at: START, last_ticker: 'test' });
    expect(judgeTickHealth(ok, clock())).toBe('working');

    writeFileSync(ctx.home.cronJobsFile, '{broken');
    clock.advance(MIN);
    const r = await tick(opts);
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/corrupt/);
    const bad = readTickStatus(ctx.home);
    expect(bad.last_tick_at).toBe('2026-11-29T10:01:00.000Z');
    expect(bad.last_success_at).toBe(START);
    expect(bad.consecutive_failures).toBe(1);
    expect(judgeTickHealth(bad, clock())).toBe('failing');
    expect(readFileSync(ctx.home.cronJobsFile, 'utf8')).toBe('{broken'); // the ticker never moves the file
    expect(judgeTickHealth(bad, clock() + 10 * MIN)).toBe('stale');
    expect(judgeTickHealth(readTickStatus(cronTestContext(clock).home), clock())).toBe('never');
  });

  it('runs jobs with a cwd one at a time and the others in parallel', async () => {
    const { clock, ctx, opts } = setup();
    for (const name of ['a', 'b'])
      await createJob(ctx, { schedule: '1m', prompt: name, name, cwd: ctx.home.dir });
    for (const name of ['c', 'd']) await createJob(ctx, { schedule: '1m', prompt: name, name });
    clock.advance(MIN);
    model.push(...Array.from({ length: 4 }, () => ({ text: 'slow reply', chunkSize: 2, delayMs: 15 })));
    const r = await tick(opts);
    expect(r.outcomes).toHaveLength(4);
    // a run starts when its model request arrives and ends when its output file is written
    const span = (name: string): [number, number] => {
      const req = model.requests.find((q) => JSON.stringify(q.body).includes(`\\n\\n${name}"`))!;
      const out = r.outcomes.find((o) => o.name === name)!;
      return [req.at, statSync(out.outputFile).mtimeMs];
    };
    const [aStart, aEnd] = span('a');
    const [bStart, bEnd] = span('b');
    const [cStart] = span('c');
    const [dStart] = span('d');
    // serial: the second cwd job starts after the first finished
    expect(Math.max(aStart, bStart)).toBeGreaterThanOrEqual(Math.min(aEnd, bEnd));
    // parallel: c and d start before either cwd job has finished
    expect(Math.max(cStart, dStart)).toBeLessThan(Math.min(aEnd, bEnd));
  });
});

describe('runJobNow and compare-and-set claims', () => {
  it('runs a job now without moving its schedule, and refuses while it runs elsewhere', async () => {
    const { ctx, opts } = setup();
    const job = await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' });
    const out = await runJobNow(opts, job.id);
    expect(out.status).toBe('ok');
    expect(listJobs(ctx)[0]).toMatchObject({
      next_run_at: job.next_run_at,
      repeat: { completed: 1 },
      running: null,
    });
    await new CronStore(ctx.home).mutate((jobs) => {
      jobs[0]!.running = { pid: process.pid, host: 'elsewhere', since: START, for_time: null };
    });
    await expect(runJobNow(opts, job.id)).rejects.toThrow(/already running/);
  });

  it('cron run on a paused job runs it once and leaves it paused (hermes cron run and the tool)', async () => {
    const { clock, ctx, opts } = setup();
    const job = await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' });
    await pauseJob(ctx, job.id);
    model.push({ text: 'ran while paused' });
    expect((await runJobNow(opts, job.id)).status).toBe('ok');
    expect(listJobs(ctx)[0]).toMatchObject({ state: 'paused', enabled: false, repeat: { completed: 1 } });
    // the cronjob tool's run: the next tick runs it once, and the one after does not
    await triggerJob(ctx, job.id);
    model.push({ text: 'ran again while paused' });
    expect((await tick(opts)).outcomes).toHaveLength(1);
    clock.advance(3 * 60 * MIN);
    expect((await tick(opts)).outcomes).toEqual([]);
    expect(listJobs(ctx)[0]).toMatchObject({
      state: 'paused',
      enabled: false,
      run_requested_at: null,
      next_run_at: job.next_run_at,
      repeat: { completed: 2 },
    });
    // asked while paused, then resumed before a tick: the job just continues on its schedule
    await triggerJob(ctx, job.id);
    expect((await resumeJob(ctx, job.id)).run_requested_at).toBeNull();
  });

  it('two racing claims for one occurrence: exactly one wins', async () => {
    const { clock, ctx, opts } = setup();
    const job = await createJob(ctx, { schedule: 'every 1h', prompt: 'ping' });
    clock.advance(60 * MIN);
    const results = await Promise.all([
      claimJobForFire(opts, job.id, job.next_run_at!),
      claimJobForFire({ ...opts, claimant: { pid: 1, host: 'other' } }, job.id, job.next_run_at!),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await claimJobForFire(opts, job.id, job.next_run_at!)).toBeNull();
    expect(listJobs(ctx)[0]!.next_run_at).toBe('2026-11-29T12:00:00.000Z');
  });
});

describe('triggers', () => {
  const api = (log: string[] = []): CronFireApi & { ticks: number } => {
    const a = {
      ticks: 0,
      tick: async () => {
        a.ticks++;
        if (a.ticks === 1) throw new Error('provider exploded');
      },
      dueJobs: async () => [],
      fireDue: async () => null,
      log: (l: string) => void log.push(l),
    };
    return a;
  };

  it('the built-in ticker ticks at start and every interval, surviving exceptions', async () => {
    const log: string[] = [];
    const a = api(log);
    const t = new BuiltinTicker(20);
    t.start(a);
    await waitUntil(() => a.ticks >= 3);
    t.stop();
    const n = a.ticks;
    await new Promise((r) => setTimeout(r, 60));
    expect(a.ticks).toBe(n);
    expect(log[0]).toMatch(/keeps going.*provider exploded/);
  });

  it('falls back to the built-in ticker when the trigger module is missing, broken or unavailable', async () => {
    const log: string[] = [];
    const base = { intervalMs: 1000, log: (l: string) => void log.push(l) };
    expect((await resolveCronTrigger('', base)).name).toBe('builtin');
    expect((await resolveCronTrigger('/no/such/module.js', base)).name).toBe('builtin');
    const load = (mod: unknown) => async () => mod;
    expect((await resolveCronTrigger('x', { ...base, load: load({}) })).name).toBe('builtin');
    expect(
      (
        await resolveCronTrigger('x', {
          ...base,
          load: load({
            createCronTrigger: () => {
              throw new Error('boom');
            },
          }),
        })
      ).name,
    ).toBe('builtin');
    const unavailable: CronTrigger = {
      name: 'ext',
      isAvailable: () => false,
      start: () => {},
      stop: () => {},
    };
    expect(
      (await resolveCronTrigger('x', { ...base, load: load({ createCronTrigger: () => unavailable }) })).name,
    ).toBe('builtin');
    const good: CronTrigger = { name: 'ext', start: () => {}, stop: () => {} };
    expect(
      (await resolveCronTrigger('x', { ...base, load: load({ createCronTrigger: () => good }) })).name,
    ).toBe('ext');
    expect(log).toHaveLength(4);
    expect(log.every((l) => /using the built-in ticker/.test(l))).toBe(true);
  });
});

async function waitUntil(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
