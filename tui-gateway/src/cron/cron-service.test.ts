/** The daemon's cron service in process: profiles, cron.changed, run-now, /cron, drain at shutdown. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { createJob, listJobs, CronStore } from '@hermes/core/cron';
import { HermesHome } from '@hermes/core/home';
import { eventOf, type WireEvent } from '@hermes/core/protocol';
import { runCronSlash } from './cron-handlers.js';
import { CronService } from './cron-service.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

function setup(profiles = ['default']) {
  const root = mkdtempSync(join(tmpdir(), 'hermes-cron-svc-'));
  for (const p of profiles) {
    const home = new HermesHome(root, p).ensure();
    writeFileSync(
      home.configFile,
      `model:\n  provider: custom\n  base_url: ${model.url}\n  default: fake-model\ntimezone: UTC\n`,
    );
  }
  const events: WireEvent[] = [];
  const log: string[] = [];
  const service = new CronService({
    root,
    profiles: () => profiles,
    log: (l) => void log.push(l),
    broadcast: (e) => void events.push(e),
    intervalMs: 3_600_000,
  });
  return { root, service, events, log };
}

async function dueJob(service: CronService, profile: string, prompt: string) {
  const ctx = service.context(profile);
  const job = await createJob(ctx, { schedule: 'every 1h', prompt, name: prompt });
  await new CronStore(ctx.home).mutate((jobs) => {
    jobs.find((j) => j.id === job.id)!.next_run_at = new Date(Date.now() - 1000).toISOString();
  });
  return job;
}

describe('CronService', () => {
  it('ticks every served profile in its own home and reports changes to clients', async () => {
    const { service, events } = setup(['default', 'work']);
    const a = await dueJob(service, 'default', 'job in default');
    const b = await dueJob(service, 'work', 'job in work');
    model.push({ text: 'one' }, { text: 'two' });
    await service.tickAll();
    expect(listJobs(service.context('default'))[0]).toMatchObject({ id: a.id, last_status: 'ok' });
    expect(listJobs(service.context('work'))[0]).toMatchObject({ id: b.id, last_status: 'ok' });
    const changed = events.filter((e) => e.type === 'cron.changed');
    expect(changed.every((e) => e.session_id === '*' && e.seq === 0)).toBe(true);
    expect(changed.map((e) => [e.payload.profile, e.payload.reason])).toEqual(
      expect.arrayContaining([
        ['default', 'claimed'],
        ['default', 'ran'],
        ['work', 'claimed'],
        ['work', 'ran'],
      ]),
    );
  });

  it('reports a jobs file changed by another process at the next tick', async () => {
    const { service, events } = setup();
    await service.tickAll();
    await createJob(service.context('default'), { schedule: 'every 1h', prompt: 'added elsewhere' });
    events.length = 0;
    await service.tickAll();
    expect(events.map((e) => e.payload)).toEqual([{ profile: 'default', reason: 'file', job_ids: [] }]);
  });

  it('/cron lists, pauses and resumes; suggestions need "accept KEY"', async () => {
    const { service, events } = setup();
    const job = await createJob(service.context('default'), {
      schedule: 'every 2h',
      prompt: 'check the news',
    });
    expect((await runCronSlash(service, 'default', '')).output).toContain(job.id);
    expect((await runCronSlash(service, 'default', `pause ${job.id}`)).output).toMatch(/^Paused: .*paused/);
    expect((await runCronSlash(service, 'default', `resume ${job.id}`)).output).toMatch(
      /^Resumed: .*scheduled/,
    );
    expect(events.map((e) => eventOf(e, 'cron.changed').payload.reason)).toEqual(['paused', 'resumed']);
    expect((await runCronSlash(service, 'default', 'pause nope')).output).toMatch(/no cron job "nope"/);
    expect((await runCronSlash(service, 'default', 'suggestions')).output).toContain('daily-briefing');
    expect(listJobs(service.context('default'))).toHaveLength(1);
    expect((await runCronSlash(service, 'default', 'suggestions accept disk-space-watch')).output).toMatch(
      /^Scheduled/,
    );
    expect(listJobs(service.context('default'))).toHaveLength(2);
  });

  it('drain waits for a run until the deadline, then interrupts it and records why', async () => {
    const { service } = setup();
    const job = await createJob(service.context('default'), {
      schedule: 'every 1h',
      prompt: 'hangs forever',
    });
    model.push({ hang: true });
    const seen = model.requests.length;
    await service.runNow('default', job.id);
    await model.waitForRequests(seen + 1);
    expect(await service.drain(200)).toBe(false);
    const stored = listJobs(service.context('default'))[0]!;
    expect(stored).toMatchObject({ running: null, last_status: 'error' });
    expect(stored.last_error).toMatch(/interrupted \(daemon shutting down\)/);
  });
});
