/** Helpers for the cron cross-process tests: reading jobs and outputs of a test home, making jobs due. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localInboxFile, CronStore, type CronJob } from '@hermes/core/cron';
import { HermesHome } from '@hermes/core/home';

/** The jobs of the default profile of `root`. */
export function jobsOf(root: string): CronJob[] {
  return new CronStore(new HermesHome(root)).read();
}

/** Sets `next_run_at` of a job to `at` (default: now), as if its time had come. */
export async function makeDue(root: string, id: string, at = Date.now()): Promise<void> {
  await new CronStore(new HermesHome(root)).mutate((jobs) => {
    const j = jobs.find((x) => x.id === id);
    if (!j) throw new Error(`no job ${id}`);
    j.next_run_at = new Date(at).toISOString();
  });
}

/** Texts of the output files of a job, oldest first. */
export function outputsOf(root: string, id: string): string[] {
  const dir = join(new HermesHome(root).cronOutputDir, id);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** The local delivery inbox (`<home>/cron/delivered.md`), '' when nothing was delivered. */
export function inboxOf(root: string): string {
  const file = localInboxFile(new HermesHome(root));
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** An ISO time `minutes` ago (a one-shot this old is still due: grace is 2 minutes). */
export const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();
