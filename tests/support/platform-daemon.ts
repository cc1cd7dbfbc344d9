/**
 * Daemon set-up shared by the platform adapter tests (platform-*.test.ts): start the daemon of a
 * test home and wait until one adapter reports `connected`, read `gateway.status`, and stop it.
 * Run `npm run build` first.
 */
import { expect } from 'vitest';
import { connectDaemon } from '@hermes/tui-gateway';
import { killDaemons, waitFor } from './gateway-process.js';
import { runHermes } from './hermes-cli.js';

/** `gateway.status` of the daemon serving `root`, over a short-lived connection. */
export async function gatewayStatus(root: string) {
  const c = await connectDaemon({ root }, { name: 'test', capabilities: { approvals: false } });
  try {
    return await c.call('gateway.status');
  } finally {
    await c.close();
  }
}

/**
 * `hermes gateway start` in `root`, then waits (with a deadline) until `platform` is connected.
 * @param what names the wait in a timeout message (default "<platform> to connect").
 */
export async function startDaemonWithPlatform(root: string, platform: string, what?: string): Promise<void> {
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
  await waitFor(
    async () =>
      (await gatewayStatus(root)).platforms?.find((p) => p.platform === platform && p.state === 'connected'),
    what ?? `${platform} to connect`,
    20_000,
  );
}

/** `hermes gateway stop` in `root` (when set), then kills whatever is left. */
export async function stopDaemon(root: string | undefined): Promise<void> {
  if (!root) return;
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
}
