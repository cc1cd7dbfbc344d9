/**
 * `hermes checkpoints [list] | diff N | restore N [FILE]`:
 * the shadow-git snapshots the agent took of a working directory (default: the current one).
 * Bare `hermes checkpoints` lists.
 * The work is in `@hermes/core/checkpoints` (rollback), loaded only when the command runs.
 */
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

const withDir = <T>(y: Argv<T>) =>
  y.option('dir', {
    alias: 'C',
    type: 'string',
    describe: 'Working directory whose checkpoints to use (default: the current directory)',
  });

async function run(ctx: CliContext, dir: string | undefined, args: string): Promise<void> {
  const { runRollbackCommand } = await import('../lazy/checkpoints.js');
  const out = await runRollbackCommand(ctx.home, resolve(dir ?? process.cwd()), args, { style: 'cli' });
  process.stdout.write(`${out.replace(/\n+$/, '')}\n`);
}

/** `hermes checkpoints list`: the checkpoints of `dir` (default: the current directory). */
async function list(ctx: CliContext, dir: string | undefined, json: boolean): Promise<void> {
  if (!json) return run(ctx, dir, 'list');
  const { listCheckpoints } = await import('../lazy/checkpoints.js');
  const found = await listCheckpoints(ctx.home, resolve(dir ?? process.cwd()));
  process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
}

/** Builds the `checkpoints` command and its sub-commands for the selected profile. */
export function checkpointsCommand(ctx: CliContext): CommandModule {
  return {
    command: 'checkpoints',
    describe: 'List, diff or restore the snapshots taken before the agent edited files',
    builder: (y) =>
      withDir(y)
        .command(
          'list',
          'List the checkpoints of a directory, newest first',
          (c) =>
            withDir(c).option('json', {
              type: 'boolean',
              default: false,
              describe: 'Print JSON instead of text',
            }),
          (a) => list(ctx, a.dir, a.json),
        )
        .command(
          'diff <checkpoint>',
          'Show what changed since a checkpoint (number from the list, or a hash)',
          (c) => withDir(c).positional('checkpoint', { type: 'string', demandOption: true }),
          (a) => run(ctx, a.dir, `diff ${String(a.checkpoint)}`),
        )
        .command(
          'restore <checkpoint> [file]',
          'Restore the directory (or one file) to a checkpoint; the current state is snapshotted first',
          (c) =>
            withDir(c)
              .positional('checkpoint', { type: 'string', demandOption: true })
              .positional('file', { type: 'string', describe: 'Only this file (relative to the directory)' }),
          (a) => run(ctx, a.dir, `restore ${String(a.checkpoint)}${a.file ? ` ${a.file}` : ''}`),
        )
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'Print JSON (bare checkpoints: the list)',
        }),
    handler: (a) => list(ctx, a.dir as string | undefined, Boolean(a.json)),
  };
}
