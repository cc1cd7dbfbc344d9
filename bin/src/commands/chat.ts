/** `hermes chat [-q TEXT] [--session ID | --continue] [--json] [--yolo] [-m MODEL]` (issue 2 "Headless chat"). */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `chat` command. */
export function chatCommand(ctx: CliContext): CommandModule {
  return {
    command: 'chat',
    describe: 'Chat with the agent: one turn with -q, else a line-by-line chat',
    builder: (y) =>
      y
        .option('query', { alias: 'q', type: 'string', describe: 'Run one turn with this text and exit' })
        .option('session', { type: 'string', describe: 'Continue the session with this id (or exact title)' })
        .option('continue', {
          alias: 'c',
          type: 'boolean',
          default: false,
          describe: 'Continue the most recent session',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON event per line' })
        .option('yolo', {
          type: 'boolean',
          default: false,
          describe: 'Run dangerous commands without asking',
        })
        .option('model', { alias: 'm', type: 'string', describe: 'Model id for this run' })
        .check((a) => {
          if (a.session !== undefined && a.continue)
            throw new Error('--session and --continue cannot be used together');
          return true;
        }),
    handler: async (argv) => {
      const { runChat } = await import('../chat/run-chat.js');
      process.exitCode = await runChat(ctx, {
        query: argv.query as string | undefined,
        session: argv.session as string | undefined,
        continue: Boolean(argv.continue),
        json: Boolean(argv.json),
        yolo: Boolean(argv.yolo),
        model: argv.model as string | undefined,
      });
    },
  };
}
