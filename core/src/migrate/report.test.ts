import { describe, expect, it } from 'vitest';
import { formatReport, reportHasErrors } from './report.js';
import type { MigrateReport } from './types.js';

const report = (dryRun: boolean): MigrateReport => ({
  from: '/py',
  to: '/ours',
  dryRun,
  skippedProfiles: [{ item: 'Bad', reason: 'invalid name' }],
  profiles: [
    {
      name: 'default',
      from: '/py',
      to: '/ours',
      files: [{ name: 'SOUL.md', status: 'kept-ours' }],
      env: { status: 'written', added: ['A'], conflicts: ['B'], skipped: [] },
      cron: { jobs: [{ id: 'abc', name: 'Job', schedule: 'every 2h' }], alreadyMigrated: 0, skipped: [] },
      sessions: { sessions: 2, messages: 5, alreadyMigrated: 1, skipped: [], skippedMessages: { why: 2 } },
      errors: [{ item: '/py/config.yaml', reason: 'not valid YAML' }],
      warnings: [],
    },
  ],
});

describe('formatReport', () => {
  it('lists each kind, the paused jobs with their schedules, what was left out and the errors', () => {
    const text = formatReport(report(false));
    expect(text).toContain('.env: 1 key added (A)');
    expect(text).toContain('already set here with another value (ours kept): B');
    expect(text).toContain('SOUL.md: this home has its own, which differs (not overwritten)');
    expect(text).toContain('abc  every 2h  Job  (paused)');
    expect(text).toContain('sessions: 2 sessions with 5 messages brought; 1 already migrated');
    expect(text).toContain('- 2 messages left out: why');
    expect(text).toContain('error: /py/config.yaml: not valid YAML');
    expect(text).toContain('profile Bad: not brought: invalid name');
    expect(formatReport(report(true))).toMatch(/^Dry run[\s\S]*would be added/);
    expect(reportHasErrors(report(true))).toBe(true);
  });
});
