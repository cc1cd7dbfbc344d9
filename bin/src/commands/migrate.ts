/**
 * `hermes migrate [--from DIR] [--dry-run] [--json]` (and `-p NAME` for one profile): brings a home
 * of the Python Hermes into this hermes's root (docs/migrate.md). Loads `@hermes/core/migrate`
 * only when it runs.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { CliExit, type CliContext } from '../context.js';

/** Options of one run. */
export interface MigrateArgs {
  from: string;
  dryRun: boolean;
  json: boolean;
}

/** Runs the migration and prints its report; exit 1 when a file could not be migrated. */
export async function runMigrate(ctx: CliContext, args: MigrateArgs): Promise<void> {
  const m = await import('../lazy/migrate.js');
  let report;
  try {
    report = await m.migratePythonHome({
      from: args.from,
      root: ctx.home.root,
      dryRun: args.dryRun,
      ...(ctx.profileFlag !== undefined ? { profile: ctx.profileFlag } : {}),
    });
  } catch (err) {
    if (err instanceof m.MigrateError) throw new CliExit(1, err.message);
    throw err;
  }
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : m.formatReport(report));
  if (m.reportHasErrors(report)) process.exitCode = 1;
}

/** Builds the `migrate` command. */
export function migrateCommand(ctx: CliContext): CommandModule {
  return {
    command: 'migrate',
    describe:
      'Bring a home of the Python Hermes here: config, keys, SOUL.md, memories, skills, cron jobs (paused), profiles, sessions',
    builder: (y: Argv) =>
      y
        .option('from', {
          type: 'string',
          default: '~/.hermes',
          describe: "The Python Hermes's home (read only; never changed)",
        })
        .option('dry-run', {
          type: 'boolean',
          default: false,
          describe: 'Print what would come and what would not, and why; change nothing',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' }),
    handler: (argv) => {
      const raw = String(argv.from);
      const from = raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : resolve(raw);
      return runMigrate(ctx, { from, dryRun: Boolean(argv['dry-run']), json: Boolean(argv.json) });
    },
  };
}
