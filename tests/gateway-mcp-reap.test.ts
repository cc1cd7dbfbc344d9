/**
 * A stdio MCP server outlives no daemon: its process group (the server and what it started) is in
 * the record of tool processes while it runs. After `kill -9` of the daemon alone the watchdog
 * ends the group, even for a server that ignores the end of its stdin; a clean `hermes gateway
 * stop` ends it too, and the record is left empty. Real `hermes gateway` processes (run
 * `npm run build` first).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hermes, pidRuns, waitFor } from './support/gateway-process.js';
import { startGateway, useDaemonRoots } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-mcp-reap-');
const echo = join(process.cwd(), 'tests', 'support', 'mcp-echo-server.ts');

/** A root whose `linger` MCP server writes its pid and its child's pid to `pidFile`. */
function rootWithLingeringServer(pidFile: string): string {
  const args = JSON.stringify(['--import', 'tsx', echo, '--linger', pidFile]);
  return fx.root(
    `mcp_servers:\n  linger:\n    command: ${process.execPath}\n    args: ${args}\n    cwd: ${JSON.stringify(process.cwd())}\n`,
  );
}

/** The server's pid and its child's, once the server wrote them. */
function readPids(file: string): [number, number] | undefined {
  if (!existsSync(file)) return undefined;
  const [a, b] = readFileSync(file, 'utf8').trim().split(' ').map(Number);
  return a && b ? [a, b] : undefined;
}

/** Pids the tool-process record under `root` lists. */
function recordedPids(root: string): number[] {
  try {
    return (
      JSON.parse(readFileSync(join(root, 'run', 'tool-processes.json'), 'utf8')) as Array<{ pid: number }>
    ).map((e) => e.pid);
  } catch {
    return []; // not written yet, or being replaced
  }
}

/** Starts the daemon of a new root and its lingering MCP server; returns both pids and the root. */
async function startWithServer(): Promise<{ root: string; daemon: number; server: number; child: number }> {
  const scratch = mkdtempSync(join(tmpdir(), 'hermes-mcp-reap-pids-'));
  onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
  const pidFile = join(scratch, 'pids');
  const root = rootWithLingeringServer(pidFile);
  const daemon = (await startGateway(root)).pid;
  const c = await fx.client(root, 'mcp-reap');
  await c.c.request('session.create', { cwd: root }); // the profile's first use starts its servers
  const [server, child] = await waitFor(() => readPids(pidFile), 'the MCP server to start', 20_000);
  await waitFor(() => recordedPids(root).includes(server), 'the server in the record');
  onTestFinished(() => {
    for (const p of [server, child])
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone, as it should be */
      }
  });
  return { root, daemon, server, child };
}

describe('stdio MCP servers and the end of their daemon', () => {
  it('kill -9 of the daemon: the watchdog ends the server and what it started', async () => {
    const { daemon, server, child } = await startWithServer();
    process.kill(daemon, 'SIGKILL');
    await waitFor(() => !pidRuns(server) && !pidRuns(child), 'the server and its child to be ended', 10_000);
    expect(pidRuns(daemon)).toBe(false);
  });

  it('hermes gateway stop ends the server and its child, and empties the record', async () => {
    const { root, server, child } = await startWithServer();
    const stopped = await hermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !pidRuns(server) && !pidRuns(child), 'the server and its child to be ended', 10_000);
    expect(recordedPids(root)).not.toContain(server);
  });
});
