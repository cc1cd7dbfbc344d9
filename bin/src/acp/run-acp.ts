/**
 * `hermes acp`: the Agent Client Protocol over stdio for editors (Zed, JetBrains, Neovim …).
 * A thin process: it connects to the daemon of this root (starting it when absent, as `hermes
 * tui` does) in the selected profile and serves the editor's sessions there. stdout carries only
 * the protocol; diagnostics go to stderr.
 */
import { existsSync } from 'node:fs';
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
 * Serves ACP on stdin/stdout until the editor closes the connection (stdin). A lost daemon is
 * reconnected to (see `start`); the editor's sessions are re-attached.
 * @returns the exit code, 0.
 * @throws what the first connect throws (the daemon could not be started or reached).
 */
export async function runAcp(ctx: CliContext): Promise<number> {
  const root = ctx.home.root;
  let reconnecting = false;
  // The first connect starts the daemon when none runs. Later, like the TUI, only a daemon that
  // died (its discovery file names a dead pid) is replaced; after `hermes gateway stop` (the file
  // is gone) this waits for a daemon started elsewhere.
  const start = async (): Promise<void> => {
    if (reconnecting && !existsSync(ctx.home.discoveryFile))
      throw new Error('the daemon was stopped; waiting for one to start');
    await startDaemon(root);
  };
  const daemon = await connect(
    { root },
    {
      name: 'hermes-acp',
      version: ctx.version,
      // files: the editor's buffers serve the file tools when it offers fs/* (agent.ts)
      capabilities: { approvals: true, clarify: true, files: true },
      profile: ctx.home.profile,
      connectTimeoutMs: 10_000,
      reconnect: true,
      start,
    },
  );
  reconnecting = true;
  daemon.on('state', (state, info) => {
    if (state === 'reconnecting' && info.attempt === 1) log('lost the daemon; reconnecting');
    if (state === 'connected') log('connected to the daemon');
  });
  const acp = createAcpAgent({ daemon, version: ctx.version, log });
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as unknown as Parameters<typeof ndJsonStream>[0],
    Readable.toWeb(process.stdin) as unknown as Parameters<typeof ndJsonStream>[1],
  );
  const conn = acp.app.connect(stream);
  await conn.closed;
  await acp.close();
  await daemon.close();
  return 0;
}
