/**
 * Cron in the daemon: the daemon's ticker runs a due job against the scripted model,
 * clients get `cron.changed` and the `cron.*` methods and `/cron` work; `kill -9` of the daemon
 * during a job, then a restart: the job does not run again for that time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CronJob, readTickStatus } from '@hermes/core/cron';
import type { WireEvent } from '@hermes/core/protocol';
import { connect, type DaemonClient } from '@hermes/client';
import { inboxOf, jobsOf, makeDue, outputsOf } from './support/cron-kit.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { aliveDiscovery, killDaemons, pidRuns, waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { HermesHome } from '@hermes/core/home';

let model: FakeModelServer;
let root: string;
let client: DaemonClient;
const events: WireEvent[] = [];

async function start(): Promise<void> {
  const r = await runHermes(root, ['gateway', 'start']);
  expect(r.code, r.stderr).toBe(0);
}
async function openClient(): Promise<DaemonClient> {
  const c = await connect({ root }, { name: 'cron-test', capabilities: { approvals: false } });
  c.onEvent((e) => events.push(e));
  return c;
}
async function addJob(prompt: string, name: string): Promise<CronJob> {
  const r = await runHermes(root, ['cron', 'add', 'every 1h', prompt, '--name', name, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CronJob;
}
const requestsFor = (prompt: string) =>
  model.requests.filter((q) => JSON.stringify(q.body).includes(`\\n\\n${prompt}"`));

beforeAll(async () => {
  model = await startFakeModelServer();
  root = makeTestHome({ modelUrl: model.url, config: 'timezone: UTC\ncron:\n  tick_interval: 1' });
  await start();
  client = await openClient();
});
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

describe('cron in the daemon', () => {
  it('the ticker runs a due job; clients see cron.changed; cron.* methods and /cron work', async () => {
    const job = await addJob('Report the weather', 'weather');
    model.push({ text: 'Sunny in the daemon.' });
    await makeDue(root, job.id);

    await waitFor(() => jobsOf(root)[0]?.last_status === 'ok', 'the daemon to run the job');
    expect(requestsFor('Report the weather')).toHaveLength(1);
    expect(outputsOf(root, job.id)[0]).toContain('Sunny in the daemon.');
    expect(inboxOf(root)).toContain('Cron job "weather":\n\nSunny in the daemon.');
    await waitFor(
      () => events.find((e) => e.type === 'cron.changed' && e.payload.reason === 'ran'),
      'a cron.changed event for the run',
    );
    const changed = events.filter((e) => e.type === 'cron.changed');
    expect(changed.every((e) => e.session_id === '*' && e.payload.profile === 'default')).toBe(true);
    expect(changed.map((e) => e.payload.reason)).toEqual(expect.arrayContaining(['claimed', 'ran']));

    const listed = await client.request('cron.list', {});
    expect(listed.jobs).toEqual([
      expect.objectContaining({ id: job.id, name: 'weather', last_status: 'ok', schedule: 'every 1h' }),
    ]);
    expect(listed.health.state).toBe('working');

    const paused = await client.request('cron.pause', { job_id: 'weather' });
    expect(paused.job.state).toBe('paused');
    expect((await client.request('cron.resume', { job_id: job.id })).job.state).toBe('scheduled');
    await expect(client.request('cron.pause', { job_id: 'nope' })).rejects.toThrow(/no cron job "nope"/);

    model.push({ text: 'Run-now reply.' });
    const ran = events.length;
    expect(await client.request('cron.run', { job_id: job.id })).toEqual({ job_id: job.id, started: true });
    await waitFor(
      () => events.slice(ran).find((e) => e.type === 'cron.changed' && e.payload.reason === 'ran'),
      'the run-now to finish',
    );
    const out = await client.request('cron.output', { job_id: job.id });
    expect(out.content).toContain('Run-now reply.');

    const slash = await client.request('slash.exec', { session_id: 'none', command: '/cron' });
    expect(slash).toMatchObject({ handled: true, output: expect.stringContaining(job.id) });
    const sugg = await client.request('slash.exec', { session_id: 'none', command: '/cron suggestions' });
    expect(sugg.output).toMatch(/daily-briefing[\s\S]*Nothing is scheduled unless you say so/);
    expect(jobsOf(root)).toHaveLength(1);
  });

  it('kill -9 of the daemon during a job, then restart: the job does not run again for that time', async () => {
    const job = await addJob('Slow daemon task', 'slow');
    model.push({ hang: true });
    await makeDue(root, job.id);
    await waitFor(() => requestsFor('Slow daemon task').length === 1, 'the job to reach the model');
    const claimed = jobsOf(root).find((j) => j.id === job.id)!;
    const pid = aliveDiscovery(root)!.pid;
    expect(claimed.running?.pid).toBe(pid);

    await client.close();
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !pidRuns(pid), 'the daemon to die');
    const restartedAt = Date.now();
    await start();
    client = await openClient();

    // the restarted daemon ticks, finds the dead run marker, records it, and does not run the job
    await waitFor(() => {
      const j = jobsOf(root).find((x) => x.id === job.id)!;
      return j.running === null && j.last_status === 'error' ? j : undefined;
    }, 'the interrupted run to be recorded');
    await waitFor(
      () => Date.parse(readTickStatus(new HermesHome(root)).last_success_at ?? '') > restartedAt + 1000,
      'two ticks of the new daemon',
    );
    expect(requestsFor('Slow daemon task')).toHaveLength(1);
    const after = jobsOf(root).find((j) => j.id === job.id)!;
    expect(after.last_error).toMatch(/interrupted/);
    expect(after.next_run_at).toBe(claimed.next_run_at);
  });

  it('a job answering "[SILENT]\\n\\nNothing new." delivers nothing', async () => {
    const job = await addJob('Watch the status page', 'monitor');
    const inboxBefore = inboxOf(root);
    model.push({ text: '[SILENT]\n\nNothing new.' });
    await makeDue(root, job.id);
    const done = await waitFor(() => {
      const j = jobsOf(root).find((x) => x.id === job.id)!;
      return j.running === null && j.last_status ? j : undefined;
    }, 'the monitor job to run');
    expect(done.last_status).toBe('silent');
    expect(requestsFor('Watch the status page')).toHaveLength(1);
    expect(inboxOf(root)).toBe(inboxBefore);
    expect(inboxOf(root)).not.toContain('Nothing new.');
    expect(outputsOf(root, job.id)[0]).toContain('Nothing new.'); // the run's record keeps the reply
  });
});
