/**
 * `hermes acp`: the Agent Client Protocol over stdio for editors (Zed, JetBrains, Neovim …).
 * A thin process: it connects to the daemon of this root (starting it when absent, as `hermes
 * tui` does) in the selected profile and serves the editor's sessions there. stdout carries only
 * the protocol; diagnostics go to stderr.
 */
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { connect } from '@hermes/client';
import type { CliContext } from '../context.js';
import { startDaemon } from '../commands/tui.js';
import { createAcpAgent } from './agent.js';

/** One diagnostic line on stderr. */
function log(line: string): void {
  process.stderr.write(`hermes acp: ${line}\n`);
}

/**
 * Serves ACP on stdin/stdout until the editor closes stdin or the daemon goes away.
 * @returns the exit code: 0 when the editor closed the connection, 1 when the daemon went away.
 */
export async function runAcp(ctx: CliContext): Promise<number> {
  const root = ctx.home.root;
  const daemon = await connect(
    { root },
    {
      name: 'hermes-acp',
      version: ctx.version,
      capabilities: { approvals: true },
      profile: ctx.home.profile,
      connectTimeoutMs: 10_000,
      start: () => startDaemon(root),
    },
  );
  const acp = createAcpAgent({ daemon, version: ctx.version, log });
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as unknown as Parameters<typeof ndJsonStream>[0],
    Readable.toWeb(process.stdin) as unknown as Parameters<typeof ndJsonStream>[1],
  );
  const conn = acp.app.connect(stream);
  const ended = await Promise.race([
    conn.closed.then(() => 'editor' as const),
    daemon.closed.then(() => 'daemon' as const),
  ]);
  if (ended === 'daemon') {
    log('the daemon went away; exiting (the editor may restart the agent)');
    conn.close();
    return 1;
  }
  await acp.close();
  await daemon.close();
  return 0;
}
