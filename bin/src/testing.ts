/**
 * Test helper for the command modules: runs `hermes ARGV` in this process through the yargs CLI
 * (no child process, no build) and captures what it writes. Kept out of the build (tsconfig).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfIdentity } from '@hermes/client';
import { startTestServer, type TestServer } from '@hermes/client/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { HermesHome } from '@hermes/core/home';
import { vi } from 'vitest';
import { buildCli } from './cli.js';
import { DaemonLink } from './mcp-serve/daemon-link.js';
import { createMcpServer } from './mcp-serve/run-mcp-serve.js';

/** What a command wrote. */
export interface CliOutput {
  out: string;
  err: string;
}

/**
 * Runs `hermes ARGV` against `home`; resolves with stdout and stderr, or rejects as the command
 * does (e.g. `CliExit`). stderr is captured only with `captureStderr` (else it passes through).
 */
export async function runCliInProcess(
  home: HermesHome,
  argv: string[],
  opts: { captureStderr?: boolean } = {},
): Promise<CliOutput> {
  const output: CliOutput = { out: '', err: '' };
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    output.out += String(chunk);
    return true;
  });
  const e = opts.captureStderr
    ? vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        output.err += String(chunk);
        return true;
      })
    : undefined;
  try {
    await buildCli({ home, version: 'test' }, argv).parseAsync();
    return output;
  } finally {
    o.mockRestore();
    e?.mockRestore();
  }
}

/** An MCP client wired in memory to `hermes mcp serve`'s tools, over a scripted daemon. */
export interface McpToolHarness {
  /** The scripted daemon (`@hermes/client/testing`): add handlers, push events, read requests. */
  daemon: TestServer;
  /** Calls a tool; resolves with its result. */
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError?: boolean; content: { text: string }[] }>;
  /** Closes the client, the link and the scripted daemon. */
  close(): Promise<void>;
}

/**
 * Starts a scripted daemon (its discovery file in a temp root), the MCP server of
 * `mcp-serve/run-mcp-serve.ts` in profile `default` and an SDK client, joined by an in-memory
 * transport. `session.attach` answers an empty snapshot and `session.detach` ok unless replaced.
 */
export async function startMcpToolHarness(): Promise<McpToolHarness> {
  const root = mkdtempSync(join(tmpdir(), 'hermes-mcp-tools-'));
  const daemon = await startTestServer();
  daemon.handlers.set('session.attach', () => ({ kind: 'snapshot', open_requests: [] }));
  daemon.handlers.set('session.detach', () => ({ ok: true }));
  writeFileSync(
    join(root, 'tui-gateway.json'),
    JSON.stringify({
      ...selfIdentity(),
      port: daemon.port,
      token: daemon.token,
      version: 't',
      epoch: daemon.epoch,
    }),
  );
  const link = new DaemonLink({
    root,
    profile: 'default',
    version: '0.0.0',
    start: () => Promise.reject(new Error('no daemon in this test')),
    log: () => undefined,
  });
  const server = createMcpServer(
    { link, profile: 'default', stateDbFile: join(root, 'state.db'), defaultCwd: root },
    '0.0.0',
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'harness', version: '1' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return {
    daemon,
    call: async (name, args) =>
      (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { text: string }[];
      },
    close: async () => {
      await client.close();
      await link.close();
      await server.close();
      await daemon.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
