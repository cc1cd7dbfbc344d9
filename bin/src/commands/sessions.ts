/** `hermes sessions` — being written (issue 2). */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

export function sessionsCommand(_ctx: CliContext): CommandModule {
  return { command: 'sessions', describe: 'sessions', handler: () => {} };
}
