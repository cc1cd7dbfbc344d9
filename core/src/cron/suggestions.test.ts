/** Suggestions are consent-first: nothing is created without an explicit yes; declines are remembered. */
import { describe, expect, it } from 'vitest';
import { listJobs } from './jobs.js';
import { acceptSuggestion, declineSuggestion, listSuggestions, SUGGESTION_CATALOG } from './suggestions.js';
import { cronTestContext, testClock } from './testing.js';

describe('suggestions', () => {
  it('offers the catalogue and creates nothing by listing it', () => {
    const ctx = cronTestContext(testClock('2026-11-29T10:00:00Z'));
    expect(listSuggestions(ctx.home).map((s) => s.key)).toEqual(SUGGESTION_CATALOG.map((s) => s.key));
    expect(listJobs(ctx)).toEqual([]);
  });

  it('accepting without an explicit yes creates nothing', async () => {
    const ctx = cronTestContext(testClock('2026-11-29T10:00:00Z'));
    await expect(acceptSuggestion(ctx, 'daily-briefing', { confirmed: false })).rejects.toThrow(
      /explicit yes/,
    );
    expect(listJobs(ctx)).toEqual([]);
  });

  it('accepting with a yes creates the job once; it is not offered again', async () => {
    const ctx = cronTestContext(testClock('2026-11-29T10:00:00Z'));
    const job = await acceptSuggestion(ctx, 'daily-briefing', { confirmed: true });
    expect(job).toMatchObject({ name: 'Morning briefing', schedule: { kind: 'cron', expr: '0 8 * * *' } });
    expect(listJobs(ctx).map((j) => j.id)).toEqual([job.id]);
    expect(listSuggestions(ctx.home).map((s) => s.key)).not.toContain('daily-briefing');
    expect(listSuggestions(ctx.home, { all: true }).find((s) => s.key === 'daily-briefing')?.status).toBe(
      'accepted',
    );
    await expect(acceptSuggestion(ctx, 'daily-briefing', { confirmed: true })).rejects.toThrow(
      /already accepted/,
    );
    expect(listJobs(ctx)).toHaveLength(1);
  });

  it('a decline is remembered and creates nothing', () => {
    const ctx = cronTestContext(testClock('2026-11-29T10:00:00Z'));
    declineSuggestion(ctx.home, 'weekly-review');
    expect(listSuggestions(ctx.home).map((s) => s.key)).not.toContain('weekly-review');
    expect(listSuggestions(ctx.home, { all: true }).find((s) => s.key === 'weekly-review')?.status).toBe(
      'declined',
    );
    expect(listJobs(ctx)).toEqual([]);
    expect(() => declineSuggestion(ctx.home, 'nope')).toThrow(/no suggestion "nope"/);
  });
});
