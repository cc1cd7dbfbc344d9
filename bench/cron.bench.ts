/**
 * Cron benchmarks: a tick over 10,000 jobs of which 10 are due. Goal: time
 * spent deciding (not running) ≤ 50 ms median on the 2-core machine.
 *
 * - `cron.tick.decide.10k`: what a tick does before any job runs — take the jobs-store lock,
 *   read and parse `jobs.json`, decide what is due, claim the 10 due jobs (advance their next
 *   time, set run markers) and write the file back atomically (fsync, rename). The file is reset
 *   between samples (not timed) so every sample claims 10 jobs.
 * - `cron.decide.10k.memory`: the decision alone over jobs already in memory.
 * The jobs mix intervals, cron expressions (a third, in Europe/Berlin) and one-shots.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigSchema } from '@hermes/core/config';
import { decideDue, renderJobsFile, claimDue, type CronJob, type Schedule } from '@hermes/core/cron';
import { makeJob } from '@hermes/core/testing';
import { HermesHome } from '@hermes/core/home';
import type { Benchmark } from './lib/types.js';

const JOBS = 10_000;
const DUE = 10;
const SAMPLES = 15;
const NOW = Date.parse('2026-11-29T10:00:00.000Z');

function jobs(): CronJob[] {
  const schedules: Schedule[] = [
    { kind: 'interval', minutes: 60 },
    { kind: 'cron', expr: '0 9 * * 1-5' },
    { kind: 'once', run_at: new Date(NOW + 3_600_000).toISOString() },
  ];
  return Array.from({ length: JOBS }, (_, i) => {
    const schedule = schedules[i % 3]!;
    const due = i % (JOBS / DUE) === 0;
    return makeJob({
      id: i.toString(16).padStart(12, '0'),
      name: `job ${i}`,
      prompt: `Check item ${i} and report anything unusual in a short paragraph.`,
      schedule,
      schedule_display: schedule.kind,
      next_run_at: new Date(due ? NOW - 30_000 : NOW + 60_000 + i * 1000).toISOString(),
      deliver: ['local'],
    });
  });
}

export const benchmarks: Benchmark[] = [
  {
    name: 'cron.tick.decide.10k',
    unit: 'ms',
    goal: 50,
    async run() {
      const home = new HermesHome(join(mkdtempSync(join(tmpdir(), 'hermes-bench-cron-')), 'home')).ensure();
      const config = ConfigSchema.parse({ timezone: 'Europe/Berlin' });
      writeFileSync(home.cronJobsFile, renderJobsFile(jobs(), NOW), { mode: 0o600 });
      const original = readFileSync(home.cronJobsFile);
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES + 2; i++) {
        writeFileSync(home.cronJobsFile, original);
        const t0 = performance.now();
        const d = await claimDue({ home, config, now: () => NOW }, config);
        const ms = performance.now() - t0;
        if (d.due.length !== DUE) throw new Error(`expected ${DUE} due jobs, got ${d.due.length}`);
        if (i >= 2) samples.push(ms); // two warm-up rounds
      }
      return samples;
    },
  },
  {
    name: 'cron.decide.10k.memory',
    unit: 'ms',
    async run() {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES + 2; i++) {
        const list = jobs();
        const t0 = performance.now();
        const d = decideDue(list, { now: NOW, timeZone: 'Europe/Berlin', isAlive: () => true });
        const ms = performance.now() - t0;
        if (d.due.length !== DUE) throw new Error(`expected ${DUE} due jobs, got ${d.due.length}`);
        if (i >= 2) samples.push(ms);
      }
      return samples;
    },
  },
];
