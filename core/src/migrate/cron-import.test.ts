import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { CronStore } from '../cron/store.js';
import { convertJob, importCronJobs, jobIdFor } from './cron-import.js';
import { writeTree } from './testing.js';

const NOW = Date.parse('2026-12-01T00:00:00Z');

describe('convertJob', () => {
  it('brings cron, interval and future one-shot jobs paused, keeping ids of our form', () => {
    const cron = convertJob(
      {
        id: 'abcdef012345',
        prompt: 'p',
        schedule: { kind: 'cron', expr: '0 9 * * 1' },
        deliver: 'telegram:42',
        skill: 's',
      },
      NOW,
      'UTC',
    );
    expect(cron).toMatchObject({
      id: 'abcdef012345',
      schedule: { kind: 'cron', expr: '0 9 * * 1' },
      schedule_display: '0 9 * * 1',
      state: 'paused',
      enabled: false,
      next_run_at: null,
      skills: ['s'],
      deliver: ['telegram:42'],
    });
    expect(
      convertJob({ id: 'x', prompt: 'p', schedule: { kind: 'interval', minutes: 30 } }, NOW, 'UTC'),
    ).toMatchObject({
      id: jobIdFor('x'),
      schedule: { kind: 'interval', minutes: 30 },
    });
    expect(jobIdFor('x')).toMatch(/^[0-9a-f]{12}$/);
    expect(
      convertJob(
        { id: 'o', prompt: 'p', schedule: { kind: 'once', run_at: '2027-01-01T10:00:00Z' } },
        NOW,
        'UTC',
      ),
    ).toMatchObject({ schedule: { kind: 'once', run_at: '2027-01-01T10:00:00.000Z' } });
  });

  it('says why a job cannot come', () => {
    const why = (raw: Record<string, unknown>): unknown =>
      (convertJob(raw, NOW, 'UTC') as { reason?: string }).reason;
    expect(why({ id: 'a', prompt: 'p', schedule: { kind: 'once', run_at: '2020-01-01T00:00:00Z' } })).toMatch(
      /has passed/,
    );
    expect(
      why({ id: 'a', prompt: '', no_agent: true, script: '/x', schedule: { kind: 'interval', minutes: 5 } }),
    ).toMatch(/no_agent/);
    expect(why({ id: 'a', prompt: '', schedule: { kind: 'interval', minutes: 5 } })).toMatch(
      /prompt is empty/,
    );
    expect(why({ id: 'a', prompt: 'p', schedule: { kind: 'cron', expr: 'not cron' } })).toMatch(
      /not valid here/,
    );
    expect(why({ id: 'a', prompt: 'p', schedule: { kind: 'weird' } })).toMatch(/not known here/);
  });
});

describe('importCronJobs', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cron-import-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('adds once, paused; a second run finds them; a broken file is an error naming it', async () => {
    writeTree(dir, {
      'py/cron/jobs.json': JSON.stringify({
        jobs: [{ id: 'j1', prompt: 'p', schedule: { kind: 'interval', minutes: 60 } }],
      }),
      'py/cron/bad.json': '{"jobs": [',
    });
    const home = new HermesHome(join(dir, 'ours'));
    const opts = { dryRun: false, now: NOW, timeZone: 'UTC' };
    expect((await importCronJobs(join(dir, 'py/cron/jobs.json'), home, opts)).jobs).toHaveLength(1);
    expect(await importCronJobs(join(dir, 'py/cron/jobs.json'), home, opts)).toMatchObject({
      jobs: [],
      alreadyMigrated: 1,
    });
    expect(new CronStore(home).read().map((j) => j.state)).toEqual(['paused']);
    await expect(importCronJobs(join(dir, 'py/cron/bad.json'), home, opts)).rejects.toThrow(
      /bad\.json: not valid JSON/,
    );
  });
});
