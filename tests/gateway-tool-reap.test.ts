/**
 * Tool processes a crashed daemon left running: a `terminal` call that started a child (and a
 * background grandchild) is recorded in `<root>/run/tool-processes.json`; after `kill -9` of the
 * daemon both outlive it, and the next daemon stops their process group within a few seconds
 * and logs them. Real `hermes gateway` processes (run `npm run build` first).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pidRuns, waitFor } from './support/gateway-process.js';
import { is, startGateway, useDaemonRoots } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-reap-');

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const n = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

describe('kill -9 while a tool runs, then start', () => {
  it('stops the tool process group the previous daemon left running, and logs it', async () => {
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
    const recorded = join(r, 'run', 'tool-processes.json');
    await waitFor(
      () => existsSync(recorded) && readFileSync(recorded, 'utf8').includes(`"pid": ${shell}`),
      'the record',
    );
    expect(statSync(recorded).mode & 0o777).toBe(0o600);

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
    await waitFor(
      () => !readFileSync(recorded, 'utf8').includes(`"pid": ${shell}`),
      'the entry removed',
      5_000,
    );
  });
});
