/**
 * At-most-once across processes: `hermes cron tick` processes started at
 * the same moment run each due job exactly once (counted on the model server), and a tick killed
 * with SIGKILL during a job does not run that job again for that time (advance-before-run).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CronJob } from '@hermes/core/cron';
import { jobsOf, makeDue } from './support/cron-kit.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes, spawnHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { text: 'done', chunkSize: 4, delayMs: 20 } });
});
afterAll(() => model.close());
beforeEach(() => {
  model.requests.length = 0;
});

async function addJob(root: string, prompt: string): Promise<CronJob> {
  const r = await runHermes(root, ['cron', 'add', 'every 1h', prompt, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CronJob;
}

/** Requests of the model server whose user message ends with `prompt`. */
const requestsFor = (prompt: string) =>
  model.requests.filter((q) => JSON.stringify(q.body).includes(`\\n\\n${prompt}"`));

describe('hermes cron tick across processes', () => {
  it('three ticks started at the same moment run each due job exactly once', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    const jobs: CronJob[] = [];
    for (let i = 0; i < 4; i++) jobs.push(await addJob(root, `task number ${i}`));
    for (const j of jobs) await makeDue(root, j.id);

    const ticks = await Promise.all(
      [0, 1, 2].map(() => spawnHermes(root, ['cron', 'tick', '--json']).exited),
    );
    for (const t of ticks) expect(t.code, t.stderr).toBe(0);
    const results = ticks.map((t) => JSON.parse(t.stdout) as { status: string; outcomes: unknown[] });
    const ran = results.reduce((n, r) => n + r.outcomes.length, 0);
    expect(ran).toBe(4);

    expect(model.requests).toHaveLength(4);
    for (let i = 0; i < 4; i++) expect(requestsFor(`task number ${i}`), `task ${i}`).toHaveLength(1);
    for (const j of jobsOf(root)) {
      expect(j.repeat.completed).toBe(1);
      expect(j.running).toBeNull();
      expect(Date.parse(j.next_run_at!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    }
  });

  it('kill -9 during a job, then tick again: the job does not run again for that time', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    const job = await addJob(root, 'slow report');
    await makeDue(root, job.id);
    model.push({ hang: true });

    const first = spawnHermes(root, ['cron', 'tick']);
    await waitFor(() => requestsFor('slow report').length === 1, 'the job to reach the model');
    // the claim (next time advanced, run marker) was saved before the model was called
    const claimed = jobsOf(root)[0]!;
    expect(claimed.running?.pid).toBe(first.child.pid);
    expect(Date.parse(claimed.next_run_at!)).toBeGreaterThan(Date.now() + 50 * 60_000);

    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');

    const second = await runHermes(root, ['cron', 'tick', '--json']);
    expect(second.code, second.stderr).toBe(0);
    const r = JSON.parse(second.stdout) as { decision: { due: string[]; interrupted: string[] } };
    expect(r.decision.due).toEqual([]);
    expect(r.decision.interrupted).toEqual([job.id]);
    expect(requestsFor('slow report')).toHaveLength(1);

    const after = jobsOf(root)[0]!;
    expect(after).toMatchObject({ running: null, last_status: 'error', next_run_at: claimed.next_run_at });
    expect(after.last_error).toMatch(/interrupted: the process running it \(pid \d+\) exited/);
    // and yet another tick still does not run it
    await runHermes(root, ['cron', 'tick']);
    expect(requestsFor('slow report')).toHaveLength(1);
  });
});
