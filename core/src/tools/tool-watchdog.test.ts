/**
 * The watchdog of tool processes: its script ends the listed groups at the end of its input
 * (leaving a reused pid and a forgotten group alone), and a Hermes process killed with SIGKILL
 * while a recorded tool command runs takes that command's whole group with it, through its
 * watchdog, with no daemon start; a killed watchdog is replaced by the next recorded command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  groupExists,
  processStartTime,
  recordToolProcess,
  reapToolProcessesAtStart,
} from './process-registry.js';
import { toolWatchdogPid, WATCHDOG_NAME, WATCHDOG_SCRIPT } from './tool-watchdog.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '../../..');

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** A detached shell (its own group) with a background child. */
function group(): number {
  const c = spawn('/bin/sh', ['-c', 'sleep 301 & while :; do sleep 1; done'], {
    detached: true,
    stdio: 'ignore',
  });
  c.unref();
  cleanup.push(() => killGroup(c.pid!));
  return c.pid!;
}

async function until<T>(get: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const exited = (c: ChildProcess): Promise<void> =>
  c.exitCode !== null || c.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => c.once('exit', () => r()));

describe('tool watchdog', () => {
  it('ends the listed groups at the end of its input; a reused pid and a forgotten group are left alone', async () => {
    const [ended, reused, forgotten] = [group(), group(), group()];
    await until(() => [ended, reused, forgotten].every((p) => processStartTime(p) !== null), 'the groups');
    const w = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, '5'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    w.stdin.write(`+ ${ended} ${processStartTime(ended)}\n+ ${reused} 1\n`);
    const f = processStartTime(forgotten);
    // forgotten; a later group with its pid (another start time) ending is not this one
    w.stdin.write(`+ ${forgotten} ${f}\n- ${forgotten} ${f}\n+ ${ended} 1\n- ${ended} 1\n`);
    w.stdin.end(); // what the kernel does when the watchdog's owner dies
    await exited(w);
    await until(() => !groupExists(ended), 'the listed group to be gone'); // SIGKILL lands a moment later
    expect(groupExists(reused)).toBe(true);
    expect(groupExists(forgotten)).toBe(true);
  });

  it("a Hermes process killed with SIGKILL takes its tool command's group along; the next start reports it ended", async () => {
    const root = mkdtempSync(join(tmpdir(), 'tool-watchdog-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const registry = resolve(HERE, 'process-registry.ts');
    // an owner that records one command (a loop and a background child) and waits
    const code = `
      import { spawn } from 'node:child_process';
      import { recordToolProcess } from ${JSON.stringify(registry)};
      const c = spawn('/bin/sh', ['-c', 'sleep 303 & while :; do sleep 1; done'], { detached: true, stdio: 'ignore' });
      recordToolProcess({ root: ${JSON.stringify(root)}, session: 's1', profile: 'default' }, c.pid, 'loop');
      process.stdout.write(String(c.pid) + '\\n');
      setInterval(() => {}, 1000);
    `;
    const o = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanup.push(() => o.kill('SIGKILL'));
    let out = '';
    o.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const pid = await until(
      () => (/^(\d+)\n/.exec(out) ? Number(/^(\d+)\n/.exec(out)![1]) : undefined),
      'the pid',
    );
    cleanup.push(() => killGroup(pid));
    await until(
      () => readFileSync(join(root, 'run', 'tool-processes.json'), 'utf8').includes(`"pid": ${pid}`),
      'the record',
    );
    o.kill('SIGKILL');
    await exited(o);
    await until(() => !groupExists(pid), 'the group to be ended by the watchdog');
    const report = await reapToolProcessesAtStart(root);
    expect(report.stopped).toEqual([]);
    expect(report.ended.map((e) => e.pid)).toEqual([pid]);
  });

  it('a killed watchdog is replaced by the next recorded command', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tool-watchdog-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const first = group();
    await until(() => processStartTime(first) !== null, 'the group');
    const releaseFirst = recordToolProcess({ root, session: 's', profile: 'default' }, first, 'a');
    const w1 = await until(() => toolWatchdogPid(), 'the watchdog');
    expect(readFileSync(`/proc/${w1}/cmdline`, 'utf8')).toContain(WATCHDOG_NAME);
    process.kill(w1, 'SIGKILL');
    await until(() => toolWatchdogPid() === undefined, 'the watchdog to be gone');
    const second = group();
    const releaseSecond = recordToolProcess({ root, session: 's', profile: 'default' }, second, 'b');
    const w2 = await until(() => toolWatchdogPid(), 'a new watchdog');
    expect(w2).not.toBe(w1);
    releaseFirst();
    releaseSecond();
  });
});
