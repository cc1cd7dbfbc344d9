import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import { acquireSessionLock, SessionLockedError } from '@hermes/core/state';
import { holderIsGone, takeSessionLock } from './session-lock-takeover.js';

const roots: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function home(): HermesHome {
  const root = mkdtempSync(join(tmpdir(), 'lock-takeover-'));
  roots.push(root);
  return new HermesHome(root);
}

/** A child process that takes the session lock, prints `locked`, and holds it until killed. */
async function holder(h: HermesHome, id: string): Promise<ChildProcess> {
  const code = `
    import { HermesHome } from '@hermes/core/home';
    import { acquireSessionLock } from '@hermes/core/state';
    acquireSessionLock(new HermesHome(${JSON.stringify(h.root)}), ${JSON.stringify(id)}, 'holder');
    console.log('locked');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(
    process.execPath,
    ['--conditions=@hermes/source', '--import', 'tsx', '--input-type=module', '-e', code],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (c) => reject(new Error(`holder exited with ${c}`)));
  });
  return child;
}

describe('takeSessionLock', () => {
  it('takes over at once from a holder killed with SIGKILL', async () => {
    const h = home();
    const child = await holder(h, 's1');
    expect(() => takeSessionLock(h, 's1', 'tui-gateway')).toThrow(SessionLockedError);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    // the plain lock still looks fresh (refreshed < 10 s ago) …
    expect(() => acquireSessionLock(h, 's1', 'x')).toThrow(/in use by holder \(pid \d+\)/);
    // … but its holder is gone
    const lock = takeSessionLock(h, 's1', 'tui-gateway');
    expect(() => acquireSessionLock(h, 's1', 'other')).toThrow(/in use by tui-gateway \(pid \d+\)/);
    lock.release();
  });

  it('never breaks the lock of a live holder or of this process', () => {
    expect(holderIsGone({ owner: 'me', pid: process.pid, since: 0 })).toBe(false);
    expect(holderIsGone(undefined)).toBe(false);
    expect(holderIsGone({ owner: 'init', pid: 1, since: 0 })).toBe(false);
    expect(holderIsGone({ owner: 'gone', pid: 2 ** 22 + 17, since: 0 })).toBe(true);
    const h = home();
    const mine = takeSessionLock(h, 's2', 'tui-gateway');
    expect(() => takeSessionLock(h, 's2', 'again')).toThrow(SessionLockedError);
    mine.release();
  });
});
