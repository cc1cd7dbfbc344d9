/**
 * `hermes profile list | show | create | use | rename | delete | export | import | alias`.
 * The work is in `../profile/run-profile.ts`, loaded only when the command runs.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import type { ProfileArgs } from '../profile/run-profile.js';
import { hermesCommand } from '../command-form.js';

const run = async (ctx: CliContext, args: ProfileArgs): Promise<void> => {
  const { runProfile } = await import('../profile/run-profile.js');
  await runProfile(ctx, args);
};

const withJson = <T>(y: Argv<T>) =>
  y.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });

const name = <T>(y: Argv<T>, describe = 'Profile name') =>
  y.positional('name', { type: 'string', demandOption: true, describe });

/** Builds the `profile` command and its sub-commands (they act on the root of any profile). */
export function profileCommand(ctx: CliContext): CommandModule {
  return {
    command: 'profile',
    describe: 'Create, list, switch, rename, delete, export, import and alias profiles',
    builder: (y) =>
      y
        .command(
          'list',
          'List every profile (* marks the one in use)',
          (c) => withJson(c),
          (a) => run(ctx, { action: 'list', json: a.json }),
        )
        .command(
          'show <name>',
          'Show one profile',
          (c) => withJson(name(c)),
          (a) => run(ctx, { action: 'show', json: a.json, name: String(a.name) }),
        )
        .command(
          'create <name>',
          'Create a profile (blank, or a clone of another)',
          (c) =>
            name(c, 'New profile name: lower-case letters, digits, "-" or "_"')
              .option('clone', {
                type: 'boolean',
                default: false,
                describe: 'Copy config.yaml, .env, SOUL.md, memory files and skills',
              })
              .option('clone-all', {
                type: 'boolean',
                default: false,
                describe:
                  'Copy everything but history (state.db, sessions, checkpoints, logs) and runtime files; cron jobs arrive paused',
              })
              .option('from', {
                type: 'string',
                describe: 'Profile to clone (default: default); implies --clone',
              })
              .option('description', { type: 'string', describe: 'What the profile is for (profile.yaml)' }),
          (a) =>
            run(ctx, {
              action: 'create',
              name: String(a.name),
              clone: a.clone,
              cloneAll: a['clone-all'],
              ...(a.from ? { from: a.from } : {}),
              ...(a.description !== undefined ? { description: a.description } : {}),
            }),
        )
        .command(
          'use <name>',
          'Make a profile sticky (used without -p); "default" clears it',
          (c) => name(c),
          (a) => run(ctx, { action: 'use', name: String(a.name) }),
        )
        .command(
          'rename <old> <new>',
          'Rename a profile (not default)',
          (c) =>
            c
              .positional('old', { type: 'string', demandOption: true })
              .positional('new', { type: 'string', demandOption: true }),
          (a) => run(ctx, { action: 'rename', from: String(a.old), to: String(a.new) }),
        )
        .command(
          'delete <name>',
          'Delete a profile and everything in it (not default)',
          (c) =>
            name(c).option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Do not ask' }),
          (a) => run(ctx, { action: 'delete', name: String(a.name), yes: a.yes }),
        )
        .command(
          'export <name>',
          'Write a .tar.gz of a profile (without .env, auth.json, state.db or runtime files)',
          (c) =>
            name(c).option('output', {
              alias: 'o',
              type: 'string',
              describe: 'Archive to write (default ./<name>.tar.gz)',
            }),
          (a) =>
            run(ctx, { action: 'export', name: String(a.name), ...(a.output ? { output: a.output } : {}) }),
        )
        .command(
          'import <file>',
          'Create a profile from an exported archive',
          (c) =>
            c
              .positional('file', {
                type: 'string',
                demandOption: true,
                describe: 'A .tar.gz from hermes profile export',
              })
              .option('name', { type: 'string', describe: "Profile name (default: the archive's folder)" }),
          (a) => run(ctx, { action: 'import', file: String(a.file), ...(a.name ? { name: a.name } : {}) }),
        )
        .command(
          'alias <name>',
          'Write ~/.local/bin/<alias> running "hermes -p <name>"',
          (c) =>
            name(c)
              .option('as', { type: 'string', describe: 'Wrapper name (default: the profile name)' })
              .option('remove', {
                type: 'boolean',
                default: false,
                describe: 'Remove the wrapper (only one hermes wrote)',
              }),
          (a) =>
            run(ctx, {
              action: 'alias',
              name: String(a.name),
              remove: a.remove,
              ...(a.as ? { as: a.as } : {}),
            }),
        )
        .demandCommand(1, `Give a profile command; see ${hermesCommand()} profile --help`),
    handler: () => {},
  };
}
