/**
 * Suggestions: a small
 * catalogue of useful automations offered in `/cron suggestions`. Consent first:
 * - nothing here ever creates a job on its own; `acceptSuggestion` creates one only when called
 *   with `confirmed: true` (an explicit yes from the user), through the same `createJob` as
 *   everything else (no second job engine);
 * - `declineSuggestion` remembers the decline by the suggestion's stable key, so the same
 *   suggestion is never offered again; an accepted one is not offered again either.
 * State lives in `<home>/cron/suggestions.json` (mode 0600).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { CronJobError, createJob, type CronContext } from './jobs.js';
import { iso, type CronJob } from './types.js';

/** One catalogue entry. `key` is stable forever (declines are stored by it). */
export interface Suggestion {
  key: string;
  title: string;
  description: string;
  schedule: string;
  prompt: string;
}

/** The built-in catalogue. */
export const SUGGESTION_CATALOG: readonly Suggestion[] = [
  {
    key: 'daily-briefing',
    title: 'Morning briefing',
    description: 'Every day at 08:00: the date, what you noted for today in memory, and open todos.',
    schedule: '0 8 * * *',
    prompt:
      "Prepare a short morning briefing for me: today's date and weekday, anything in my memory notes that concerns today or this week, and any open follow-ups you know of. Keep it under 10 lines.",
  },
  {
    key: 'disk-space-watch',
    title: 'Disk space watch',
    description: 'Every 6 hours: warns when a file system is over 90% full; silent otherwise.',
    schedule: 'every 6h',
    prompt: `Run \`df -h\` and check every mounted file system. If any is more than 90% full, report which ones and how full they are. If none is, reply with exactly [SILENT].`,
  },
  {
    key: 'weekly-review',
    title: 'Weekly review',
    description: 'Fridays at 17:00: a summary of the week from your memory notes.',
    schedule: '0 17 * * 5',
    prompt:
      'Write a short weekly review from my memory notes: what was done this week, what is still open, and one suggestion for next week.',
  },
  {
    key: 'memory-tidy',
    title: 'Memory tidy-up',
    description: 'Sundays at 20:00: lists memory entries that look outdated or duplicated (changes nothing).',
    schedule: '0 20 * * 0',
    prompt:
      'Read my memory notes and list entries that look outdated, duplicated or contradictory, with a one-line reason each. Do not change anything. If everything looks fine, reply with exactly [SILENT].',
  },
];

/** Stored decisions. */
interface SuggestionState {
  declined: Record<string, string>;
  accepted: Record<string, { job_id: string; at: string }>;
}

/** A catalogue entry with what the user decided. */
export type SuggestionView = Suggestion & { status: 'new' | 'accepted' | 'declined' };

function stateFile(home: HermesHome): string {
  return join(home.cronDir, 'suggestions.json');
}

function readState(home: HermesHome): SuggestionState {
  try {
    const s = JSON.parse(readFileSync(stateFile(home), 'utf8')) as Partial<SuggestionState>;
    return { declined: s.declined ?? {}, accepted: s.accepted ?? {} };
  } catch {
    return { declined: {}, accepted: {} };
  }
}

function writeState(home: HermesHome, s: SuggestionState): void {
  writeFileAtomic(stateFile(home), `${JSON.stringify(s, null, 2)}\n`, 0o600);
}

/**
 * The catalogue with decisions. `all: false` (default) returns only suggestions still on offer.
 */
export function listSuggestions(home: HermesHome, opts: { all?: boolean } = {}): SuggestionView[] {
  const s = readState(home);
  const views = SUGGESTION_CATALOG.map((c) => ({
    ...c,
    status: s.accepted[c.key]
      ? ('accepted' as const)
      : s.declined[c.key]
        ? ('declined' as const)
        : ('new' as const),
  }));
  return opts.all ? views : views.filter((v) => v.status === 'new');
}

function entry(key: string): Suggestion {
  const e = SUGGESTION_CATALOG.find((c) => c.key === key);
  if (!e)
    throw new CronJobError(
      `no suggestion "${key}" (known: ${SUGGESTION_CATALOG.map((c) => c.key).join(', ')})`,
    );
  return e;
}

/**
 * Accepts a suggestion: creates its job. Requires `confirmed: true` — the user's explicit yes.
 * @throws CronJobError without confirmation, for an unknown key, or when already accepted.
 */
export async function acceptSuggestion(
  ctx: CronContext,
  key: string,
  opts: { confirmed: boolean; deliver?: string },
): Promise<CronJob> {
  const e = entry(key);
  if (opts.confirmed !== true)
    throw new CronJobError(`suggestion "${key}" needs an explicit yes from the user before a job is created`);
  const state = readState(ctx.home);
  if (state.accepted[key])
    throw new CronJobError(`suggestion "${key}" was already accepted (job ${state.accepted[key].job_id})`);
  const job = await createJob(ctx, {
    schedule: e.schedule,
    prompt: e.prompt,
    name: e.title,
    ...(opts.deliver ? { deliver: opts.deliver } : {}),
  });
  const now = (ctx.now ?? Date.now)();
  const latest = readState(ctx.home);
  latest.accepted[key] = { job_id: job.id, at: iso(now) };
  delete latest.declined[key];
  writeState(ctx.home, latest);
  return job;
}

/** Declines a suggestion: remembered, never offered again. Creates nothing. @throws CronJobError for an unknown key. */
export function declineSuggestion(home: HermesHome, key: string, now: number = Date.now()): void {
  entry(key);
  const s = readState(home);
  s.declined[key] = iso(now);
  writeState(home, s);
}
