/**
 * `hermes gateway start | stop | status | install` across real processes (run
 * `npm run build` first). Every daemon is killed in afterEach; homes are temp dirs.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  aliveDiscovery,
  daemonPids,
  hermes,
  killDaemons,
  pidRuns,
  spawnTestDaemon,
  tempRoot,
  waitFor,
} from './support/gateway-process.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) {
    killDaemons(root);
    rmSync(root, { recursive: true, force: true });
  }
});
function root(): string {
  const r = tempRoot();
  roots.push(r);
  return r;
}

const startedRe = /tui-gateway (started|already running): pid (\d+), port (\d+)/;

describe('hermes gateway', () => {
  it('start, status, start again, stop', async () => {
    const r = root();
    const notRunning = await hermes(r, ['gateway', 'status']);
    expect(notRunning.code).toBe(1);
    expect(notRunning.stdout).toMatch(/not running/);

    const start = await hermes(r, ['gateway', 'start']);
    expect(start.code, start.stderr).toBe(0);
    const [, how, pid, port] = startedRe.exec(start.stdout)!;
    expect(how).toBe('started');
    const info = aliveDiscovery(r)!;
    expect(info).toMatchObject({ pid: Number(pid), port: Number(port), host: '127.0.0.1' });
    expect(info.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(r, 'tui-gateway.json')).mode & 0o777).toBe(0o600);

    const status = await hermes(r, ['gateway', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      running: true,
      pid: Number(pid),
      port: Number(port),
      epoch: info.epoch,
      sessions_live: 0,
      clients_attached: 0,
      shutting_down: false,
    });
    expect((await hermes(r, ['gateway', 'status'])).stdout).toMatch(/tui-gateway running[\s\S]*uptime/);

    const again = await hermes(r, ['gateway', 'start']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`already running: pid ${pid}, port ${port}`));

    const stop = await hermes(r, ['gateway', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(new RegExp(`stopped \\(pid ${pid}`));
    expect(pidRuns(Number(pid))).toBe(false);
    expect(existsSync(join(r, 'tui-gateway.json'))).toBe(false);
    expect(existsSync(join(r, 'tui-gateway.lock'))).toBe(false);
    expect((await hermes(r, ['gateway', 'stop'])).stdout).toMatch(/not running/);

    const log = readFileSync(join(r, 'logs', 'tui-gateway.log'), 'utf8');
    expect(log).toMatch(/started: pid/);
    expect(log).toMatch(/shutting down \(SIGTERM\)/);
    expect(log).not.toContain(info.token);
  });

  it('two starts at once leave exactly one daemon', async () => {
    const r = root();
    const runs = await Promise.all([1, 2, 3].map(() => hermes(r, ['gateway', 'start'])));
    const pids = runs.map((run) => {
      expect(run.code, run.stderr).toBe(0);
      return Number(startedRe.exec(run.stdout)![2]);
    });
    expect(new Set(pids).size).toBe(1);
    expect(runs.filter((run) => /started/.test(run.stdout))).toHaveLength(1);
    expect(runs.filter((run) => /already running/.test(run.stdout))).toHaveLength(2);
    // A loser that spawned a child before the winner was up: that child exits (code 3) once it
    // finds the lock held, logging "already running". Whether any loser gets that far depends on
    // timing (a fast winner is seen through its discovery file first), so the log is not asserted.
    const [only] = await waitFor(() => {
      const live = daemonPids(r);
      return live.length === 1 ? live : undefined;
    }, 'a single daemon process');
    expect(only).toBe(pids[0]);
    expect(aliveDiscovery(r)?.pid).toBe(pids[0]);
  });

  it('a kill -9 leaves stale files that the next start replaces', async () => {
    const r = root();
    const first = await hermes(r, ['gateway', 'start']);
    const old = aliveDiscovery(r)!;
    expect(first.code).toBe(0);
    process.kill(old.pid, 'SIGKILL');
    await waitFor(() => !pidRuns(old.pid), 'the daemon to die');
    expect(existsSync(join(r, 'tui-gateway.json'))).toBe(true);
    expect(existsSync(join(r, 'tui-gateway.lock'))).toBe(true);
    const status = await hermes(r, ['gateway', 'status']);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(new RegExp(`stale discovery: pid ${old.pid} is gone`));

    const second = await hermes(r, ['gateway', 'start']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/started/);
    const now = aliveDiscovery(r)!;
    expect(now.pid).not.toBe(old.pid);
    expect(now.epoch).not.toBe(old.epoch);
    expect(now.token).not.toBe(old.token);
    expect(JSON.parse(readFileSync(join(r, 'tui-gateway.lock'), 'utf8')).pid).toBe(now.pid);
    expect((await hermes(r, ['gateway', 'stop'])).code).toBe(0);
  });

  it('stop drains through the hook and removes discovery', async () => {
    const r = root();
    writeFileSync(join(r, 'config.yaml'), 'gateway:\n  drain_timeout: 7\n');
    const daemon = await spawnTestDaemon(r);
    const status = JSON.parse((await hermes(r, ['gateway', 'status', '--json'])).stdout);
    expect(status).toMatchObject({
      running: true,
      pid: daemon.info.pid,
      sessions_live: 2,
      version: '0.0.0-test',
    });

    const stop = await hermes(r, ['gateway', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(await daemon.exited).toBe(0);
    expect(JSON.parse(readFileSync(join(r, 'drain-called.json'), 'utf8'))).toMatchObject({
      reason: 'SIGTERM',
      timeoutMs: 7000,
    });
    expect(existsSync(join(r, 'tui-gateway.json'))).toBe(false);
    expect(daemon.output()).toMatch(/drained in \d+ ms \(clean: true\)/);
  });

  it('install writes a user unit that covers the drain; start warns about a short one', async () => {
    const r = root();
    const xdg = join(r, 'xdg');
    writeFileSync(join(r, 'config.yaml'), 'gateway:\n  drain_timeout: 60\n');
    const install = await hermes(r, ['gateway', 'install', '--no-systemctl'], { XDG_CONFIG_HOME: xdg });
    expect(install.code, install.stderr).toBe(0);
    const unitFile = join(xdg, 'systemd', 'user', 'hermes-gateway.service');
    const unit = readFileSync(unitFile, 'utf8');
    expect(unit).toMatch(/^ExecStart=.+ gateway run$/m);
    expect(unit).toContain(`Environment=HERMES_HOME=${r}`);
    expect(unit).toMatch(/^TimeoutStopSec=75$/m);
    expect(install.stdout).toMatch(
      /systemctl --user daemon-reload && systemctl --user enable --now hermes-gateway.service/,
    );

    writeFileSync(unitFile, unit.replace('TimeoutStopSec=75', 'TimeoutStopSec=20s'));
    expect((await hermes(r, ['gateway', 'start'], { XDG_CONFIG_HOME: xdg })).code).toBe(0);
    expect(readFileSync(join(r, 'logs', 'tui-gateway.log'), 'utf8')).toMatch(
      /TimeoutStopSec=20s, shorter than gateway.drain_timeout=60s/,
    );
    expect((await hermes(r, ['gateway', 'stop'])).code).toBe(0);

    const uninstall = await hermes(r, ['gateway', 'uninstall', '--no-systemctl'], { XDG_CONFIG_HOME: xdg });
    expect(uninstall.stdout).toMatch(/removed/);
    expect(existsSync(unitFile)).toBe(false);
  });
});
