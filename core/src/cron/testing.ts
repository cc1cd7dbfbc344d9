/**
 * Helpers for cron tests (unit tests here, cross-process tests and the bench). Not used by
 * production code.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import type { CronContext } from './jobs.js';
import { jobDefaults } from './store.js';
import type { CronJob } from './types.js';

/** A settable clock: `clock()` reads, `clock.set(ms)` / `clock.advance(ms)` move it. */
export interface TestClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** A clock starting at `start` (epoch ms or ISO). */
export function testClock(start: number | string): TestClock {
  let t = typeof start === 'string' ? Date.parse(start) : start;
  const clock = (() => t) as TestClock;
  clock.set = (ms) => void (t = ms);
  clock.advance = (ms) => void (t += ms);
  return clock;
}

/** A fresh home in a temp folder with a config (timezone UTC unless given). */
export function cronTestContext(
  clock: () => number,
  config: Record<string, unknown> = {},
): CronContext & { config: HermesConfig } {
  const home = new HermesHome(join(mkdtempSync(join(tmpdir(), 'hermes-cron-')), 'home')).ensure();
  return { home, config: ConfigSchema.parse({ timezone: 'UTC', ...config }), now: clock };
}

/** A job object with defaults (for pure tests of `decideDue` and the bench). */
export function makeJob(over: Partial<CronJob> & Pick<CronJob, 'id'>): CronJob {
  return {
    ...jobDefaults(),
    name: over.id,
    prompt: 'do the thing',
    schedule: { kind: 'interval', minutes: 60 },
    schedule_display: 'every 1h',
    ...over,
  };
}
