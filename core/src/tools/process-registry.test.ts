/**
 * The record of running tool processes: entries added and removed, 0600; reaping stops the group
 * of a dead owner's process (children too), keeps a live owner's entries, and leaves a process
 * whose start time differs (a reused pid) alone; a damaged record is reaped from its whole
 * entries, copied aside and never throws; the clean stop ends this process's groups and waits.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  groupExists,
  processStartTime,
  reapToolProcesses,
  reapToolProcessesAtStart,
  recordToolProcess,
  stopToolProcesses,
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
function group(script = 'sleep 301 & sleep 300'): number {
  const c = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' });
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

const DEAD_OWNER = { owner: 0x3fffffff, owner_start: '1' };

const damagedCopies = (r: string): string[] =>
  readdirSync(join(r, 'run')).filter((n) => n.startsWith('tool-processes.json.damaged-'));

describe('tool process record: damage, ended groups, clean stop', () => {
  it("reaps from a record cut short: the whole entries' groups are stopped, the file is kept aside", async () => {
    const r = root();
    const pid = group();
    await until(() => processStartTime(pid) !== null, 'the group');
    const release = recordToolProcess({ root: r, session: 's1', profile: 'default' }, pid, 'sleep 300');
    rewrite(r, (e) => ({ ...e, ...DEAD_OWNER }));
    const whole = readFileSync(toolProcessesFile(r), 'utf8');
    const cut = `${whole.trimEnd().slice(0, -1)},\n  {"pid": 77, "sta`; // a second entry cut short
    writeFileSync(toolProcessesFile(r), cut);
    const lines: string[] = [];
    const report = await reapToolProcessesAtStart(r, (l) => lines.push(l));
    expect(report.stopped.map((e) => e.pid)).toEqual([pid]);
    expect(groupExists(pid)).toBe(false);
    expect(lines[0]).toContain(`${toolProcessesFile(r)} is damaged`);
    expect(lines[0]).toContain('1 whole entry read from it');
    const copies = damagedCopies(r);
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(r, 'run', copies[0]!), 'utf8')).toBe(cut);
    expect(lines[1]).toBe(`the damaged file is kept as ${join(r, 'run', copies[0]!)}`);
    expect(lines[2]).toMatch(/^a command left running by the previous daemon was stopped: pid /);
    expect(entries(r)).toEqual([]);
    release();
  });

  it('a garbage record never throws: logged naming the file, kept aside, replaced by an empty list', async () => {
    const r = root();
    recordToolProcess({ root: r, session: 's1', profile: 'default' }, 0x3ffffffe, 'x')();
    writeFileSync(toolProcessesFile(r), '\u0000garbage');
    const lines: string[] = [];
    expect(await reapToolProcessesAtStart(r, (l) => lines.push(l))).toEqual({
      stopped: [],
      ended: [],
      problems: [expect.stringContaining(`${toolProcessesFile(r)} is damaged`)],
    });
    expect(lines).toHaveLength(2);
    expect(damagedCopies(r)).toHaveLength(1);
    expect(entries(r)).toEqual([]);
  });

  it('recording over a damaged record keeps a copy and its whole entries', () => {
    const r = root();
    const kept = { pid: 55, start: '1', session: 's0', profile: 'default', command: 'a', ...DEAD_OWNER };
    mkdirSync(join(r, 'run'));
    writeFileSync(toolProcessesFile(r), `[${JSON.stringify(kept)}, {"pid": 5`);
    const release = recordToolProcess({ root: r, session: 's1', profile: 'default' }, 0x3ffffffe, 'b');
    expect(entries(r).map((e) => e.pid)).toEqual([55, 0x3ffffffe]);
    expect(damagedCopies(r)).toHaveLength(1);
    release();
    expect(entries(r).map((e) => e.pid)).toEqual([55]);
  });

  it("reports a dead owner's entry whose group had already ended, and drops it", async () => {
    const r = root();
    const pid = group('exit 0');
    await until(() => !groupExists(pid), 'the group to end');
    const release = recordToolProcess({ root: r, session: 's1', profile: 'p' }, pid, 'make');
    rewrite(r, (e) => ({ ...e, start: '1', ...DEAD_OWNER }));
    const lines: string[] = [];
    const report = await reapToolProcessesAtStart(r, (l) => lines.push(l));
    expect(report.stopped).toEqual([]);
    expect(report.ended.map((e) => e.pid)).toEqual([pid]);
    expect(lines).toEqual([
      `a command the previous daemon was running when it died had ended with it: pid ${pid}, profile p, session s1: make`,
    ]);
    expect(entries(r)).toEqual([]);
    release();
  });

  it('the clean stop ends the groups this process runs (SIGKILL for one ignoring SIGTERM) and waits', async () => {
    const r = root();
    const polite = group();
    const stubborn = group("trap '' TERM; while :; do sleep 1; done");
    await until(() => processStartTime(polite) !== null && processStartTime(stubborn) !== null, 'the groups');
    recordToolProcess({ root: r, session: 's1', profile: 'default' }, polite, 'sleep 300');
    recordToolProcess({ root: r, session: 's2', profile: 'default' }, stubborn, 'loop');
    const lines: string[] = [];
    const stopped = await stopToolProcesses((l) => lines.push(l), 300);
    expect(stopped.map((e) => e.pid).sort()).toEqual([polite, stubborn].sort());
    expect(groupExists(polite)).toBe(false);
    expect(groupExists(stubborn)).toBe(false);
    expect(lines.find((l) => l.includes(`pid ${stubborn} `))).toContain('SIGKILL');
    expect(lines.find((l) => l.includes(`pid ${polite} `))).toContain('SIGTERM');
    expect(entries(r)).toEqual([]);
    expect(await stopToolProcesses()).toEqual([]); // nothing left
    expect(existsSync(toolProcessesFile(r))).toBe(true);
  });
});
