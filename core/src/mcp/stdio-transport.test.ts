import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolProcessesFile } from '../tools/process-registry.js';
import { HermesStdioTransport } from './stdio-transport.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Whether `pid` runs (a zombie counts as gone). */
function runs(pid: number): boolean {
  try {
    return !/^\S+ \S+ [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/\(.*\)/, 'x'));
  } catch {
    return false;
  }
}

/** Waits until `cond` holds, polling every 20 ms; throws after `ms`. */
async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Recorded pids under `root`. */
function recorded(root: string): number[] {
  try {
    return (JSON.parse(readFileSync(toolProcessesFile(root), 'utf8')) as Array<{ pid: number }>).map(
      (e) => e.pid,
    );
  } catch {
    return [];
  }
}

describe('HermesStdioTransport and its process group', () => {
  /** A temp folder, removed after the test. */
  const scratch = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'hermes-stdio-'));
    dirs.push(d);
    return d;
  };
  /** The pid a shell wrote to `file`, once it has. */
  const pidIn = async (file: string): Promise<number> => {
    await until(() => existsSync(file) && Number(readFileSync(file, 'utf8')) > 0, `a pid in ${file}`);
    return Number(readFileSync(file, 'utf8'));
  };

  it('close() ends the server and what it started; the record lists it only while it runs', async () => {
    const root = scratch();
    const file = join(root, 'child.pid');
    // a server that ignores its stdin's end and SIGTERM, with a child of its own
    const t = new HermesStdioTransport({
      command: '/bin/sh',
      args: ['-c', `trap '' TERM; sleep 301 & echo $! > ${file}; while :; do sleep 1; done`],
      track: { root, profile: 'default', session: 'mcp:stubborn' },
    });
    await t.start();
    const pid = t.pid!;
    const child = await pidIn(file);
    expect(recorded(root)).toContain(pid);
    await t.close();
    await until(() => !runs(pid) && !runs(child), 'the server and its child to end');
    await until(() => !recorded(root).includes(pid), 'the record to drop the server');
  }, 15_000);

  it('what a server that exits leaves running in its group is killed', async () => {
    const file = join(scratch(), 'child.pid');
    // the child holds no pipe of the server's: only the group kill ends it
    const t = new HermesStdioTransport({
      command: '/bin/sh',
      args: ['-c', `sleep 302 </dev/null >/dev/null 2>&1 & echo $! > ${file}; exit 0`],
    });
    const closed = new Promise<void>((r) => (t.onclose = r));
    await t.start();
    const child = await pidIn(file);
    await closed;
    await until(() => !runs(child), 'the left-over child to end');
    expect(t.exitReason).toBe('exited with code 0');
  });
});
