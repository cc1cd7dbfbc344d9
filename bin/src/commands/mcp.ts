/**
 * `hermes mcp serve`: this agent as an MCP server on stdio, for other agents and apps (Claude
 * Code, Claude Desktop, Cursor …). stdout carries the protocol only; logs go to stderr. The work
 * is in `../mcp-serve/`, loaded only when the command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `mcp` command for the selected profile. */
export function mcpCommand(ctx: CliContext): CommandModule {
  return {
    command: 'mcp',
    describe: 'Hermes as an MCP server (see docs/mcp-serve.md)',
    builder: (y) =>
      y
        .command(
          'serve',
          'Serve the sessions of this profile to an MCP client over stdio (starts the daemon when needed)',
          (c) => c,
          async () => {
            const { runMcpServe } = await import('../mcp-serve/run-mcp-serve.js');
            await runMcpServe(ctx);
          },
        )
        .demandCommand(1, 'Name a sub-command: serve'),
    handler: () => undefined,
  };
}
