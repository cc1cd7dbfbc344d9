/** `hermes [-p PROFILE] acp`: serve the Agent Client Protocol on stdio for an editor. */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `acp` command. */
export function acpCommand(ctx: CliContext): CommandModule {
  return {
    command: 'acp',
    describe: 'Serve the Agent Client Protocol on stdio (for editors: Zed, JetBrains, Neovim)',
    builder: (y) => y,
    handler: async () => {
      const { runAcp } = await import('../acp/run-acp.js');
      process.exitCode = await runAcp(ctx);
    },
  };
}
