/**
 * `hermes usage [--since 7d|24h|2026-11-01] [--by model|day|profile] [--json]`: tokens and cost
 * from the session store. The work is in `../usage/run-usage.ts`, loaded only when the command
 * runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `usage` command for the selected profile. */
export function usageCommand(ctx: CliContext): CommandModule {
  return {
    command: 'usage',
    describe: 'Tokens and cost of the stored sessions, by model, day or profile',
    builder: (y) =>
      y
        .option('since', {
          type: 'string',
          describe: 'Only usage since then: 30m, 24h, 7d, 4w, or a date (2026-11-01) or ISO time',
        })
        .option('by', {
          choices: ['model', 'day', 'profile'] as const,
          default: 'model' as const,
          describe: 'Group by model or day (this profile), or by profile (every profile of the root)',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' }),
    handler: async (a) => {
      const { runUsage } = await import('../usage/run-usage.js');
      runUsage(ctx, {
        json: Boolean(a.json),
        by: a.by as 'model' | 'day' | 'profile',
        ...(typeof a.since === 'string' ? { since: a.since } : {}),
      });
    },
  };
}
