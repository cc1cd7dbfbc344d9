import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { groupMembers, processStartTime } from '../tools/process-registry.js';
import { ProcessManager, UnknownProcessError, type ProcessChange } from './manager.js';
import { readBackgroundRecord, writeBackgroundRecord, type BackgroundProcessEntry } from './record.js';
import { statSync as stat } from 'node:fs';

let root: string;
let managers: ProcessManager[];
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function manager(extra: Partial<ConstructorParameters<typeof ProcessManager>[0]> = {}): ProcessManager {
  const m = new ProcessManager({ root, graceMs: 500, ...extra });
  managers.push(m);
  return m;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-procs-'));
  managers = [];
});

afterEach(async () => {
  for (const m of managers) {
    await m.stopAll();
    m.close();
  }
  rmSync(root, { recursive: true, force: true });
});

const home = (profile = 'default') => new HermesHome(root, profile);
const start = (m: ProcessManager, command: string, profile = 'default', notify = false) =>
  m.start({ home: home(profile), session: 's1', command, cwd: root, env, notify });

describe('ProcessManager', () => {
  it('starts a detached process whose output is read with offsets, and records it 0600', async () => {
    const changes: ProcessChange[] = [];
    const m = manager({ onChange: (c) => changes.push(c) });
    const e = start(m, "printf 'one\\n'; sleep 0.3; printf 'two\\n'");
    expect(e.id).toMatch(/^bg-[0-9a-f]{8}$/);
    expect(e.start).toBe(processStartTime(e.pid));
    expect(e.log).toBe(join(root, 'processes', `${e.id}.log`));
    expect(stat(join(root, 'run', 'background-processes.json')).mode & 0o777).toBe(0o600);
    expect(stat(e.log).mode & 0o777).toBe(0o600);
    await until(() => m.read('default', e.id, 0).text.includes('one'));
    const first = m.read('default', e.id, 0);
    expect(first.text).toBe('one\n');
    expect(first.next_offset).toBe(4);
    const { ended } = await m.wait('default', e.id, 5_000);
    expect(ended).toBe(true);
    const next = m.read('default', e.id, first.next_offset);
    expect(next.text).toBe('two\n');
    expect(next.next_offset).toBe(8);
    expect(m.read('default', e.id, 8).text).toBe('');
    expect(m.get('default', e.id)).toMatchObject({ state: 'exited', exit_code: 0 });
    expect(changes.map((c) => c.reason)).toEqual(['started', 'ended']);
    expect(readBackgroundRecord(root).find((r) => r.id === e.id)?.state).toBe('exited');
  });

  it('keeps the log bounded: trims the front, keeps the tail, offsets stay logical', async () => {
    const m = manager({ maxLogBytes: 2_000, keepLogBytes: 1_000 });
    const e = start(m, 'for i in $(seq 1 1000); do echo "line $i"; done');
    await m.wait('default', e.id, 5_000);
    const size = statSync(e.log).size;
    expect(size).toBeLessThanOrEqual(2_000);
    const entry = m.get('default', e.id);
    expect(entry.dropped).toBeGreaterThan(0);
    const all = m.read('default', e.id, 0);
    expect(all.skipped).toBe(entry.dropped);
    expect(all.text.trimEnd().endsWith('line 1000')).toBe(true);
    expect(all.text.startsWith('line ')).toBe(true); // starts at a line
    expect(all.total).toBe(entry.dropped + size);
  });

  it('wait returns after its timeout while the process runs', async () => {
    const m = manager();
    const e = start(m, 'sleep 30');
    const t0 = Date.now();
    const r = await m.wait('default', e.id, 200);
    expect(r.ended).toBe(false);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
    expect(r.entry.state).toBe('running');
  });

  it('writes to stdin', async () => {
    const m = manager();
    const e = start(m, 'read line; echo "got:$line"');
    await m.write('default', e.id, 'hello\n');
    expect((await m.wait('default', e.id, 5_000)).ended).toBe(true);
    expect(m.read('default', e.id, 0).text).toBe('got:hello\n');
    await expect(m.write('default', e.id, 'x')).rejects.toThrow(/has ended/);
  });

  it('kill stops the whole process group', async () => {
    const m = manager();
    const e = start(m, 'sleep 60 & sleep 60 & wait');
    await until(() => groupMembers(e.pid).length >= 3);
    const killed = await m.kill('default', e.id);
    expect(killed.state).toBe('killed');
    expect(groupMembers(e.pid)).toEqual([]);
  });

  it('is its process group: `server &` keeps it running after the shell exits, until the group ends', async () => {
    const m = manager({ tickMs: 50 });
    const e = start(m, 'sleep 30 & echo forked');
    await until(() => m.read('default', e.id, 0).text === 'forked\n');
    await new Promise((r) => setTimeout(r, 300)); // the shell is long gone
    expect(processStartTime(e.pid)).toBeNull();
    expect(m.get('default', e.id).state).toBe('running');
    const killed = await m.kill('default', e.id);
    expect(killed.state).toBe('killed');
    expect(groupMembers(e.pid)).toEqual([]);

    const short = start(m, 'sleep 0.3 & exit 5');
    const r = await m.wait('default', short.id, 5_000);
    expect(r.entry).toMatchObject({ state: 'exited', exit_code: 5 });
  });

  it('shows a profile only its own processes', async () => {
    const m = manager();
    const e = start(m, 'sleep 30', 'work');
    expect(m.list('work').map((x) => x.id)).toEqual([e.id]);
    expect(m.list('default')).toEqual([]);
    expect(() => m.get('default', e.id)).toThrow(UnknownProcessError);
    expect(() => m.read('default', e.id, 0)).toThrow(UnknownProcessError);
    await expect(m.kill('default', e.id)).rejects.toThrow(UnknownProcessError);
    expect(m.get('work', e.id).state).toBe('running');
    expect(e.log).toBe(join(root, 'profiles', 'work', 'processes', `${e.id}.log`));
  });

  it('a new manager adopts a survivor by pid and start time: listed, readable, killable, no stdin', async () => {
    const first = manager();
    const e = start(first, 'echo up; sleep 30');
    await until(() => first.read('default', e.id, 0).text === 'up\n');
    first.close(); // the daemon goes; the process stays
    managers = managers.filter((x) => x !== first);
    const lines: string[] = [];
    const second = manager({ log: (l) => lines.push(l) });
    const adopted = second.recover();
    expect(adopted.map((x) => x.id)).toEqual([e.id]);
    expect(second.get('default', e.id)).toMatchObject({ state: 'running', adopted: true });
    expect(lines.join('\n')).toMatch(new RegExp(`${e.id} .*adopted`));
    expect(second.read('default', e.id, 0).text).toBe('up\n');
    await expect(second.write('default', e.id, 'x')).rejects.toThrow(/stdin is gone/);
    await second.kill('default', e.id);
    expect(processStartTime(e.pid)).toBeNull();
    expect(second.get('default', e.id).state).toBe('killed');
  });

  it('does not adopt a reused pid (same pid, other start time) and never signals it', () => {
    const entry = (over: Partial<BackgroundProcessEntry>): BackgroundProcessEntry => ({
      id: 'bg-00000001',
      pid: process.pid,
      start: 'not-the-start-time',
      profile: 'default',
      session: 's',
      command: 'sleep 1000',
      cwd: root,
      log: join(root, 'x.log'),
      started_at: new Date().toISOString(),
      notify: false,
      state: 'running',
      exit_code: null,
      signal: null,
      ended_at: null,
      dropped: 0,
      adopted: false,
      ...over,
    });
    writeBackgroundRecord(root, [entry({}), entry({ id: 'bg-00000002', pid: 2 ** 22 + 7, start: '1' })]);
    const lines: string[] = [];
    const m = manager({ log: (l) => lines.push(l) });
    expect(m.recover()).toEqual([]);
    expect(m.get('default', 'bg-00000001').state).toBe('gone');
    expect(m.get('default', 'bg-00000002').state).toBe('gone');
    expect(lines.join('\n')).toMatch(/bg-00000001 .*not adopted/);
    expect(processStartTime(process.pid)).not.toBeNull(); // still here
  });

  it('an adopted process that ends is marked gone', async () => {
    const first = manager();
    const e = start(first, 'sleep 0.5');
    first.close();
    managers = managers.filter((x) => x !== first);
    const second = manager({ tickMs: 50 });
    second.recover();
    const r = await second.wait('default', e.id, 5_000);
    expect(r.ended).toBe(true);
    expect(r.entry.state).toBe('gone');
  });

  it('stopAll stops every running process and reports each as stopping first', async () => {
    const changes: ProcessChange[] = [];
    const m = manager({ onChange: (c) => changes.push(c) });
    const a = start(m, 'sleep 30');
    const b = start(m, 'sleep 30', 'work');
    const stopped = await m.stopAll();
    expect(stopped.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect(changes.filter((c) => c.reason === 'stopping')).toHaveLength(2);
    for (const x of [a, b]) expect(processStartTime(x.pid)).toBeNull();
    expect(m.running()).toEqual([]);
  });
});

describe('ProcessManager limits and a damaged record', () => {
  it('refuses a process past the per-profile cap with a clear error; other profiles are not counted', async () => {
    const m = manager({ maxRunningPerProfile: 2 });
    start(m, 'sleep 30');
    start(m, 'sleep 30');
    expect(() => start(m, 'sleep 30')).toThrow(/2 background processes already run in profile "default"/);
    expect(m.list('default')).toHaveLength(2);
    const other = start(m, 'sleep 30', 'work');
    expect(other.state).toBe('running');
    await m.kill('default', m.list('default')[0]!.id);
    expect(start(m, 'true').state).toBe('running');
  });

  it('a write to a process that does not read its stdin fails after the write timeout instead of hanging', async () => {
    const m = manager({ writeTimeoutMs: 300 });
    const e = start(m, 'sleep 30');
    const t0 = Date.now();
    await expect(m.write('default', e.id, 'x'.repeat(4 * 1024 * 1024))).rejects.toThrow(
      /does not read its stdin/,
    );
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('a truncated record: the daemon starts, names the file, and keeps the damaged copy', () => {
    writeBackgroundRecord(root, []);
    const file = join(root, 'run', 'background-processes.json');
    writeFileSync(file, '[{"id": "bg-0000000');
    const lines: string[] = [];
    const m = manager({ log: (l) => lines.push(l) });
    expect(m.recover()).toEqual([]);
    expect(lines.join('\n')).toContain(file);
    const kept = readdirSync(join(root, 'run')).filter((f) =>
      f.startsWith('background-processes.json.damaged'),
    );
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(root, 'run', kept[0]!), 'utf8')).toBe('[{"id": "bg-0000000');
    // the daemon goes on: a new process is recorded
    const e = start(m, 'true');
    expect(readBackgroundRecord(root).map((x) => x.id)).toEqual([e.id]);
  });

  it('an entry with wrong types is dropped (named in the log); the other entries are kept and listed', () => {
    const good: BackgroundProcessEntry = {
      id: 'bg-0000abcd',
      pid: 999_999_999,
      start: null,
      profile: 'default',
      session: 's1',
      command: 'sleep 1',
      cwd: root,
      log: join(root, 'processes', 'bg-0000abcd.log'),
      started_at: new Date().toISOString(),
      notify: false,
      state: 'exited',
      exit_code: 0,
      signal: null,
      ended_at: new Date().toISOString(),
      dropped: 0,
      adopted: false,
    };
    const bad = [
      { ...good, id: 'bg-0000bad1', started_at: 12345 },
      { ...good, id: 'bg-0000bad2', state: 'zombie' },
      { ...good, id: '../../etc', log: '/etc/passwd' },
      {
        ...good,
        id: 'bg-0000bad3',
        log: '/tmp/elsewhere.log',
        started_at: new Date(Date.now() + 1000).toISOString(),
      },
      'not an entry',
    ];
    mkdirSync(join(root, 'run'), { recursive: true });
    writeFileSync(join(root, 'run', 'background-processes.json'), JSON.stringify([good, ...bad]));
    const lines: string[] = [];
    const m = manager({ log: (l) => lines.push(l) });
    m.recover();
    expect(m.list('default').map((e) => e.id)).toEqual(['bg-0000bad3', 'bg-0000abcd']);
    const said = lines.join('\n');
    expect(said).toContain(join(root, 'run', 'background-processes.json'));
    expect(said).toContain('bg-0000bad1');
    expect(said).toContain('../../etc');
    // the dropped entries are not lost: the file as it was is kept beside the record
    const kept = readdirSync(join(root, 'run')).filter((f) =>
      f.startsWith('background-processes.json.damaged'),
    );
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(root, 'run', kept[0]!), 'utf8')).toContain('bg-0000bad1');
  });

  it('an entry without the optional fields (an older record) is kept with their defaults', () => {
    mkdirSync(join(root, 'run'), { recursive: true });
    const e = {
      id: 'bg-00001234',
      pid: 999_999_999,
      profile: 'default',
      session: 's',
      command: 'x',
      cwd: root,
    };
    const log = join(root, 'processes', 'bg-00001234.log');
    const started_at = new Date().toISOString();
    writeFileSync(
      join(root, 'run', 'background-processes.json'),
      JSON.stringify([{ ...e, log, started_at, state: 'exited' }]),
    );
    const lines: string[] = [];
    const m = manager({ log: (l) => lines.push(l) });
    m.recover();
    expect(lines).toEqual([]);
    expect(m.get('default', 'bg-00001234')).toMatchObject({
      dropped: 0,
      adopted: false,
      notify: false,
      exit_code: null,
    });
  });

  it('a flooding log stays within its cap plus what the process writes between two size checks (50 ms), not half a second of output', async () => {
    const m = manager({ maxLogBytes: 1_000_000, keepLogBytes: 500_000, tickMs: 500 });
    // about 200 MB/s for 1 s: half a second of it is ~100 MB
    const e = start(m, 'for i in $(seq 100); do head -c 2000000 /dev/zero; sleep 0.01; done');
    let peak = 0;
    while (m.get('default', e.id).state === 'running') {
      try {
        peak = Math.max(peak, statSync(e.log).size);
      } catch {
        /* between trims */
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(m.get('default', e.id).dropped).toBeGreaterThan(50_000_000);
    expect(peak).toBeLessThan(30_000_000);
  }, 20_000);
});
