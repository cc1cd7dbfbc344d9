/**
 * Daemon set-up shared by the platform adapter tests (platform-*.test.ts): start the daemon of a
 * test home and wait until one adapter reports `connected`, read `gateway.status`, and stop it.
 * Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type DeliveryState, SessionDB } from '@hermes/core/state';
import { connect } from '@hermes/client';
import { aliveDiscovery, killDaemons, pidRuns, waitFor } from './gateway-process.js';
import { runHermes } from './hermes-cli.js';

/** `gateway.status` of the daemon serving `root`, over a short-lived connection. */
export async function gatewayStatus(root: string) {
  const c = await connect({ root }, { name: 'test', capabilities: { approvals: false } });
  try {
    return await c.request('gateway.status');
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
  let last: { state: string; error?: string; last_error?: string } | undefined;
  try {
    await waitFor(
      async () => {
        last = (await gatewayStatus(root)).platforms?.find((p) => p.platform === platform);
        // a platform failed for good never connects: say why at once instead of at the deadline
        if (last?.state === 'failed') throw new Error(`${platform} failed for good: ${last.error ?? '?'}`);
        return last?.state === 'connected';
      },
      what ?? `${platform} to connect`,
      // a deadline, not a wait: CI runs this beside a full test suite on two cores
      30_000,
    );
  } catch (err) {
    const state = last
      ? `${last.state}${last.last_error ? ` (last error: ${last.last_error})` : ''}`
      : 'unreported';
    throw new Error(`${(err as Error).message}; ${platform} was ${state}\n${daemonLog(root).slice(-3_000)}`, {
      cause: err,
    });
  }
}

/** `hermes gateway stop` in `root` (when set), then kills whatever is left. */
export async function stopDaemon(root: string | undefined): Promise<void> {
  if (!root) return;
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
}

/** The daemon log of `root` ('' before it exists). */
function daemonLog(root: string): string {
  try {
    return readFileSync(join(root, 'logs', 'tui-gateway.log'), 'utf8');
  } catch {
    return '';
  }
}

/** `kill -9` of the daemon serving `root`; resolves once it is gone. */
export async function killDaemonHard(root: string): Promise<void> {
  const pid = aliveDiscovery(root)?.pid;
  if (!pid) throw new Error(`no daemon runs in ${root}`);
  process.kill(pid, 'SIGKILL');
  await waitFor(() => !pidRuns(pid), 'the killed daemon to be gone');
}

/**
 * The `message outcome:` lines of the daemon log of `root`: of every daemon life, or of the one
 * with process id `pid`. (A `kill -9` can lose the last lines still in the log stream's buffer.)
 */
export function outcomeLines(root: string, pid?: number): string[] {
  return daemonLog(root)
    .split('\n')
    .filter((l) => l.includes('message outcome: ') && (pid === undefined || l.includes(` pid=${pid} `)));
}

/** Delivery-ledger rows of `platform` in `states` (a read-only look at state.db). */
export function deliveries(root: string, platform: string, states: DeliveryState[]): number {
  const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
  try {
    return db.platforms.listDeliveries(platform, states).length;
  } finally {
    db.close();
  }
}

/** Delivery-ledger rows of `platform` whose outcome is still open. */
export function openDeliveries(root: string, platform: string): number {
  return deliveries(root, platform, ['accepted', 'running', 'pending']);
}

/** The URL the newest daemon life's webhook listens on (its log line; config `port: 0`). */
export function webhookUrl(root: string): string | undefined {
  const all = [...daemonLog(root).matchAll(/webhook: listening on (http:\/\/\S+)/g)];
  return all.at(-1)?.[1];
}
