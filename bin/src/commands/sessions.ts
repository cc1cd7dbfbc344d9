/**
 * `hermes sessions list | show ID | search QUERY | export ID | rename ID TITLE | delete ID`, each
 * with `--json`. ID may be a full id, an exact title or a unique id prefix.
 * The work is in `../sessions/run-sessions.ts`, loaded only when the command runs.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import type { SessionsArgs } from '../sessions/run-sessions.js';

const run = async (ctx: CliContext, args: SessionsArgs): Promise<void> => {
  const { runSessions } = await import('../sessions/run-sessions.js');
  await runSessions(ctx, args);
};

const withJson = <T>(y: Argv<T>) =>
  y.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });

/** `--json` and the `<id>` positional (a session id, title or id prefix) of a sub-command. */
const withSessionId = <T>(y: Argv<T>) =>
  withJson(y).positional('id', {
    type: 'string',
    demandOption: true,
    describe: 'Session id, title or id prefix',
  });

/** Builds the `sessions` command and its sub-commands for the selected profile. */
export function sessionsCommand(ctx: CliContext): CommandModule {
  return {
    command: 'sessions',
    describe: 'List, show, search, export, rename or delete stored sessions',
    builder: (y) =>
      y
        .command(
          'list',
          'List sessions, most recent first',
          (c) =>
            withJson(c)
              .option('limit', { alias: 'n', type: 'number', default: 50, describe: 'At most this many' })
              .option('source', {
                type: 'string',
                describe: 'Only sessions from this source (cli, tui, cron …)',
              })
              .option('query', { type: 'string', describe: 'Only sessions whose title contains this' }),
          (a) =>
            run(ctx, {
              action: 'list',
              json: a.json,
              limit: a.limit,
              ...(a.source ? { source: a.source } : {}),
              ...(a.query ? { query: a.query } : {}),
            }),
        )
        .command(
          'show <id>',
          'Show a session and its messages',
          (c) =>
            withSessionId(c).option('full', {
              type: 'boolean',
              default: false,
              describe: 'Also show the system prompt and long tool output',
            }),
          (a) => run(ctx, { action: 'show', json: a.json, id: String(a.id), full: a.full }),
        )
        .command(
          'search <query..>',
          'Full-text search over all messages (plain words; quotes and hyphens are fine)',
          (c) =>
            withJson(c)
              .positional('query', {
                type: 'string',
                array: true,
                demandOption: true,
                describe: 'Words to find',
              })
              .option('limit', {
                alias: 'n',
                type: 'number',
                default: 20,
                describe: 'At most this many hits',
              })
              .option('session', { type: 'string', describe: 'Only messages of this session' }),
          (a) =>
            run(ctx, {
              action: 'search',
              json: a.json,
              query: (a.query as unknown as string[]).join(' '),
              limit: a.limit,
              ...(a.session ? { session: a.session } : {}),
            }),
        )
        .command(
          'export <id>',
          'Export a session as Markdown (or JSON with --json)',
          (c) =>
            withSessionId(c).option('output', {
              alias: 'o',
              type: 'string',
              describe: 'Write to this file (mode 0600) instead of stdout',
            }),
          (a) =>
            run(ctx, {
              action: 'export',
              json: a.json,
              id: String(a.id),
              ...(a.output ? { output: a.output } : {}),
            }),
        )
        .command(
          'rename <id> <title..>',
          'Set the title of a session',
          (c) =>
            withSessionId(c).positional('title', {
              type: 'string',
              array: true,
              demandOption: true,
              describe: 'New title',
            }),
          (a) =>
            run(ctx, {
              action: 'rename',
              json: a.json,
              id: String(a.id),
              title: (a.title as unknown as string[]).join(' '),
            }),
        )
        .command(
          'delete <id>',
          'Delete a session and all its messages (refused while it is live; see --force)',
          (c) =>
            withSessionId(c)
              .option('yes', {
                alias: 'y',
                type: 'boolean',
                default: false,
                describe: 'Do not ask on a terminal',
              })
              .option('force', {
                type: 'boolean',
                default: false,
                describe: 'Also delete a session live in the daemon (ends it there first)',
              }),
          (a) => run(ctx, { action: 'delete', json: a.json, id: String(a.id), yes: a.yes, force: a.force }),
        )
        .demandCommand(1, 'Give a sessions sub-command: list, show, search, export, rename, delete'),
    handler: () => {},
  };
}
