/**
 * `hermes gateway restart` and the hint of `gateway start` on a running daemon: chat platforms and
 * the API server are read from config.yaml when the daemon starts, so enabling the API server in a
 * running daemon takes a restart, which the CLI says and does. Runs the compiled `bin/hermes`.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aliveDiscovery, killDaemons, pidRuns, waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

const root = makeTestHome();
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  rmSync(root, { recursive: true, force: true });
});

/** A TCP port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

describe('gateway restart', () => {
  it('start on a running daemon points at restart; restart brings the API server up', async () => {
    const first = await runHermes(root, ['gateway', 'start']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('tui-gateway started');
    const pid1 = aliveDiscovery(root)!.pid;

    const port = await freePort();
    appendFileSync(join(root, '.env'), 'API_SERVER_KEY=restart-test-key-0123456789\n', { mode: 0o600 });
    appendFileSync(
      join(root, 'config.yaml'),
      `platforms:\n  api_server:\n    enabled: true\n    port: ${port}\n`,
    );

    const again = await runHermes(root, ['gateway', 'start']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`tui-gateway already running: pid ${pid1}`);
    expect(again.stdout).toMatch(/API server read config\.yaml when the daemon starts: \S+ gateway restart/);

    const restarted = await runHermes(root, ['gateway', 'restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    const pid2 = aliveDiscovery(root)!.pid;
    expect(pid2).not.toBe(pid1);
    expect(pidRuns(pid1)).toBe(false);
    expect(restarted.stdout).toContain(`tui-gateway stopped (pid ${pid1}), then started: pid ${pid2}`);

    await waitFor(async () => {
      const s = await runHermes(root, ['gateway', 'status']);
      return s.stdout.includes('api_server: connected');
    }, 'the API server to be connected after the restart');
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
  });
});
