import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDaemonLock, DaemonLockedError, readLockOwner } from './lock.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

describe('daemon lock', () => {
  it('is exclusive while its owner lives and released cleanly', async () => {
    const file = join(dir, 'a.lock');
    const lock = await acquireDaemonLock(file);
    expect(readLockOwner(file)?.pid).toBe(process.pid);
    await expect(acquireDaemonLock(file)).rejects.toBeInstanceOf(DaemonLockedError);
    lock.release();
    expect(existsSync(file)).toBe(false);
    const again = await acquireDaemonLock(file);
    again.release();
  });

  it('replaces a lock left by a dead process, and garbage', async () => {
    const file = join(dir, 'b.lock');
    writeFileSync(file, JSON.stringify({ pid: deadPid(), started_at: 'then' }));
    const lock = await acquireDaemonLock(file);
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    lock.release();
    writeFileSync(file, 'garbage');
    (await acquireDaemonLock(file)).release();
  });

  it('does not remove a lock that another process took over', async () => {
    const file = join(dir, 'c.lock');
    const lock = await acquireDaemonLock(file);
    const theirs = JSON.stringify({ pid: 1, started_at: 'x' });
    writeFileSync(file, theirs);
    lock.release();
    expect(readFileSync(file, 'utf8')).toBe(theirs);
  });
});
