/**
 * The record of running tool processes: entries added and removed, 0600; reaping stops the group
 * of a dead owner's process (children too), keeps a live owner's entries, and leaves a process
 * whose start time differs (a reused pid) alone.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  processStartTime,
  reapToolProcesses,
  recordToolProcess,
  toolProcessesFile,
  type ToolProcessEntry,
} from './process-registry.js';

const roots: string[] = [];
const groups: number[] = [];
afterEach(() => {
  for (const g of groups.splice(0)) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function root(): string {
  const r = mkdtempSync(join(tmpdir(), 'tool-procs-'));
  roots.push(r);
  return r;
}

/** A detached shell (its own group) with a background child. */
function group(): number {
  const c = spawn('/bin/sh', ['-c', 'sleep 301 & sleep 300'], { detached: true, stdio: 'ignore' });
  c.unref();
  groups.push(c.pid!);
  return c.pid!;
}

const entries = (r: string): ToolProcessEntry[] =>
  JSON.parse(readFileSync(toolProcessesFile(r), 'utf8')) as ToolProcessEntry[];

function rewrite(r: string, change: (e: ToolProcessEntry) => ToolProcessEntry): void {
  writeFileSync(toolProcessesFile(r), JSON.stringify(entries(r).map(change)));
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe('tool process record', () => {
  it('adds an entry (0600) and removes it', () => {
    const r = root();
    const pid = group();
    const release = recordToolProcess({ root: r, session: 's1', profile: 'default' }, pid, 'sleep 300');
    expect(statSync(toolProcessesFile(r)).mode & 0o777).toBe(0o600);
    expect(entries(r)).toEqual([
      expect.objectContaining({
        pid,
        session: 's1',
        profile: 'default',
        command: 'sleep 300',
        owner: process.pid,
      }),
    ]);
    release();
    expect(entries(r)).toEqual([]);
  });

  it("stops a dead owner's group, keeps a live owner's entry", async () => {
    const r = root();
    const pid = group();
    await until(() => processStartTime(pid) !== null, 'the group');
    recordToolProcess({ root: r, session: 's1', profile: 'default' }, pid, 'sleep 300');
    const lines: string[] = [];
    expect(await reapToolProcesses(r, (l) => lines.push(l))).toEqual([]); // this process owns it
    rewrite(r, (e) => ({ ...e, owner: 0x3fffffff, owner_start: '1' }));
    const stopped = await reapToolProcesses(r, (l) => lines.push(l));
    expect(stopped.map((e) => e.pid)).toEqual([pid]);
    await until(() => processStartTime(pid) === null, 'the leader to be gone');
    expect(lines[0]).toMatch(
      new RegExp(
        `^a command left running by the previous daemon was stopped: pid ${pid} .*session s1: sleep 300$`,
      ),
    );
    expect(entries(r)).toEqual([]);
  });

  it('leaves a process whose start time differs (a reused pid) alone', async () => {
    const r = root();
    const pid = group();
    await until(() => processStartTime(pid) !== null, 'the group');
    recordToolProcess({ root: r, session: 's1', profile: 'default' }, pid, 'sleep 300');
    rewrite(r, (e) => ({ ...e, start: '1', owner: 0x3fffffff, owner_start: '1' }));
    expect(await reapToolProcesses(r)).toEqual([]);
    expect(processStartTime(pid)).not.toBeNull();
    expect(entries(r)).toEqual([]); // the stale entry is dropped either way
  });
});
