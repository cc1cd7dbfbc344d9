/** `hermes chat` — being written (issue 2). */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

export function chatCommand(_ctx: CliContext): CommandModule {
  return { command: 'chat', describe: 'chat', handler: () => {} };
}
