/**
 * Tool processes of a daemon that dies without a clean stop. A `terminal` call's process group is
 * recorded in `<root>/run/tool-processes.json` and told to the daemon's watchdog:
 * - after `kill -9` of the daemon alone, the watchdog ends the command's group at once, with no
 *   daemon start; the next daemon logs it and tells the session (`SessionInfo.notices`);
 * - after `kill -9` of the daemon and its watchdog together, the command and its background
 *   grandchild outlive them, and the next daemon stops their process group within a few seconds,
 *   logs them and tells the session.
 * And `hermes gateway stop` ends a running command's whole group (one ignoring SIGTERM too) before
 * it returns.
 * Real `hermes gateway` processes (run `npm run build` first).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hermes, pidRuns, waitFor } from './support/gateway-process.js';
import { is, startGateway, useDaemonRoots } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-reap-');

/** Pid of the tool watchdog the daemon `daemonPid` started (its child named `hermes-tool-watchdog`). */
function watchdogOf(daemonPid: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (
        ppid === daemonPid &&
        readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('hermes-tool-watchdog')
      )
        return Number(name);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

/** The log lines of the daemon serving `root` that contain `text`. */
function logLines(root: string, text: string): string[] {
  const log = join(root, 'logs', 'tui-gateway.log');
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes(text))
    : [];
}

/** Whether the tool-process record under `root` lists leader `pid`. */
function recorded(root: string, pid: number): boolean {
  try {
    const entries = JSON.parse(readFileSync(join(root, 'run', 'tool-processes.json'), 'utf8')) as Array<{
      pid: number;
    }>;
    return entries.some((e) => e.pid === pid);
  } catch {
    return false; // not written yet, or being replaced
  }
}

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const n = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

describe('kill -9 while a tool runs, then start', () => {
  it('the watchdog ends the command when the daemon alone is killed; the next daemon tells the session', async () => {
    const r = fx.root();
    const first = await startGateway(r);
    const a = await fx.client(r, 'wd-a');
    const { session } = await a.c.request('session.create', { title: 'watchdog' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    const scratch = mkdtempSync(join(tmpdir(), 'hermes-reap-pids-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const shellPidFile = join(scratch, 'loop.pid');
    const command = `echo $$ > ${shellPidFile}; while true; do sleep 1; done`;
    fx.model.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
    await a.c.request('prompt.submit', { session_id: sid, text: 'loop forever' });
    const shell = await waitFor(() => readPid(shellPidFile), 'the shell pid');
    await waitFor(() => watchdogOf(first.pid), 'the watchdog');
    // the record is written before the watchdog is told; still, the daemon is killed only once the
    // command is in it (a kill during the write would leave nothing for the next daemon to report)
    await waitFor(() => recorded(r, shell), 'the command in the record');

    process.kill(first.pid, 'SIGKILL');
    await a.c.closed;
    // no daemon runs: the watchdog ends the loop's group by itself
    await waitFor(() => !pidRuns(shell), 'the loop to be ended by the watchdog', 10_000);
    expect(pidRuns(first.pid)).toBe(false);

    await startGateway(r);
    const line = await waitFor(
      () => logLines(r, 'had ended with it').find((l) => l.includes(`pid ${shell}`)),
      'the log line',
      5_000,
    );
    expect(line).toContain(sid);
    const b = await fx.client(r, 'wd-b');
    const notices = await waitFor(async () => {
      const snap = await b.c.request('session.attach', { session_id: sid });
      return snap.session.notices?.find((n) => n.includes(`(pid ${shell})`));
    }, 'the notice');
    expect(notices).toContain('It was stopped with the daemon.');
  });

  it('stops the tool process group the previous daemon and its watchdog left running, and logs it', async () => {
    const r = fx.root();
    const first = await startGateway(r);
    const a = await fx.client(r, 'reap-a');
    const { session } = await a.c.request('session.create', { title: 'reap' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    // outside the root: commands touching Hermes's own home need an approval
    const scratch = mkdtempSync(join(tmpdir(), 'hermes-reap-pids-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const shellPidFile = join(scratch, 'shell.pid');
    const grandchildPidFile = join(scratch, 'grandchild.pid');
    const command = `echo $$ > ${shellPidFile}; sleep 301 & echo $! > ${grandchildPidFile}; sleep 300`;
    fx.model.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
    await a.c.request('prompt.submit', { session_id: sid, text: 'sleep a while' });
    await a.until(is('tool.start', sid), 'tool.start');
    const shell = await waitFor(() => readPid(shellPidFile), 'the shell pid');
    const grandchild = await waitFor(() => readPid(grandchildPidFile), 'the grandchild pid');
    await waitFor(() => recorded(r, shell), 'the record');
    expect(statSync(join(r, 'run', 'tool-processes.json')).mode & 0o777).toBe(0o600);

    // the daemon and its watchdog killed together (its whole control group, say)
    const watchdog = await waitFor(() => watchdogOf(first.pid), 'the watchdog');
    process.kill(watchdog, 'SIGKILL');
    process.kill(first.pid, 'SIGKILL');
    await a.c.closed;
    await waitFor(() => !pidRuns(first.pid), 'the killed daemon to be gone');
    // nothing reaps them by itself: the tool processes outlive the daemon
    expect(pidRuns(shell)).toBe(true);
    expect(pidRuns(grandchild)).toBe(true);

    await startGateway(r);
    await waitFor(
      () => !pidRuns(shell) && !pidRuns(grandchild),
      'the left-over tool processes to be gone',
      5_000,
    );
    const log = join(r, 'logs', 'tui-gateway.log');
    const line = await waitFor(
      () =>
        existsSync(log) &&
        readFileSync(log, 'utf8')
          .split('\n')
          .find(
            (l) =>
              l.includes('a command left running by the previous daemon was stopped') &&
              l.includes(`pid ${shell}`),
          ),
      'the log line',
      5_000,
    );
    expect(line).toContain(sid);
    expect(line).toContain('sleep 300');
    await waitFor(() => !recorded(r, shell), 'the entry removed', 5_000);
    const b = await fx.client(r, 'reap-b');
    const snap = await b.c.request('session.attach', { session_id: sid });
    expect(snap.session.notices).toEqual([
      expect.stringMatching(
        new RegExp(`\\(pid ${shell}\\)\\. It was still running and has been stopped\\.$`),
      ),
    ]);
  });
});

describe('hermes gateway stop while a tool runs', () => {
  it("ends the command's whole group, one ignoring SIGTERM too, before the stop returns", async () => {
    const r = fx.root('gateway:\n  drain_timeout: 1\n');
    const first = await startGateway(r);
    const a = await fx.client(r, 'stop-a');
    const { session } = await a.c.request('session.create', { title: 'stop' });
    const sid = session.id;
    await a.c.request('session.attach', { session_id: sid });
    const scratch = mkdtempSync(join(tmpdir(), 'hermes-reap-pids-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const shellPidFile = join(scratch, 'shell.pid');
    const grandchildPidFile = join(scratch, 'grandchild.pid');
    const command = `trap '' TERM; echo $$ > ${shellPidFile}; sleep 302 & echo $! > ${grandchildPidFile}; while true; do echo tick; sleep 1; done`;
    fx.model.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'stopped' });
    await a.c.request('prompt.submit', { session_id: sid, text: 'loop and ignore SIGTERM' });
    const shell = await waitFor(() => readPid(shellPidFile), 'the shell pid');
    const grandchild = await waitFor(() => readPid(grandchildPidFile), 'the grandchild pid');

    const stop = await hermes(r, ['gateway', 'stop']);
    expect(stop.code).toBe(0);
    expect(pidRuns(first.pid)).toBe(false);
    // the stop waited for the group: nothing of it runs once it returned
    expect(pidRuns(shell)).toBe(false);
    expect(pidRuns(grandchild)).toBe(false);
    expect(readFileSync(join(r, 'run', 'tool-processes.json'), 'utf8')).not.toContain(`"pid": ${shell}`);
  });
});
