import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { ProcessManager, profileProcesses } from '../processes/index.js';
import { createApprovalGuard } from '../approvals/guard.js';
import { defaultConfig } from '../config/schema.js';
import { processTool, stdinLine } from './process.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let manager: ProcessManager;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-proc-tool-'));
  manager = new ProcessManager({ root: join(root, 'home'), graceMs: 500 });
  const base = makeToolContext(root);
  ctx = { ...base, processes: profileProcesses(manager, base.home) };
});
afterEach(async () => {
  await manager.stopAll();
  manager.close();
  rmSync(root, { recursive: true, force: true });
});

const call = (args: Record<string, unknown>, c: ToolContext = ctx) =>
  runTool(processTool, JSON.stringify(args), c);
const start = (command: string) =>
  ctx.processes!.start({
    session: 's1',
    command,
    cwd: ctx.cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });

describe('process tool', () => {
  it('lists the profile’s processes', async () => {
    const e = start('sleep 30');
    const r = await call({ action: 'list' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain(`${e.id}  pid ${e.pid}  running`);
    expect(r.summary).toBe('1 running');
  });

  it('polls new output from an offset and returns the next offset', async () => {
    const e = start("printf 'abc\\n'; read x; printf 'def\\n'; sleep 30");
    let first = await call({ action: 'poll', id: e.id, offset: 0 });
    const deadline = Date.now() + 5_000;
    while (!first.content.includes('abc') && Date.now() < deadline)
      first = await call({ action: 'poll', id: e.id, offset: 0 });
    expect(first.content).toContain('abc');
    expect(first.content).toContain('--- next_offset: 4 ---');
    expect((await call({ action: 'write', id: e.id, data: 'go\n' })).ok).toBe(true);
    let second = await call({ action: 'poll', id: e.id, offset: 4 });
    while (!second.content.includes('def') && Date.now() < deadline)
      second = await call({ action: 'poll', id: e.id, offset: 4 });
    expect(second.content).toContain('def');
    expect(second.content).not.toContain('abc');
    expect(second.content).toContain('--- next_offset: 8 ---');
  });

  it('judges what it writes as the text the process reads: a shell is asked, split lines are seen whole', async () => {
    const guard = createApprovalGuard({ config: defaultConfig(), home: ctx.home, sessionId: 's1' }); // headless
    const judged: string[] = [];
    const guarded: ToolContext = {
      ...ctx,
      checkCommand: (command, cwd) => {
        judged.push(command);
        return guard.check(command, undefined, undefined, cwd);
      },
    };
    const sh = start('bash');
    const r = await call({ action: 'write', id: sh.id, data: 'rm -rf /tmp/x\n' }, guarded);
    expect(r.ok).toBe(false);
    expect(r.blocked).toEqual({ reason: 'no_frontend' });
    expect(judged[0]).toMatch(/^\{ bash\n\} <<'HERMES_STDIN_[0-9a-f]{8}'\nrm -rf \/tmp\/x\n/);
    // a plain program fed plain text is not asked; its unterminated line is judged with the next write
    const cat = start('cat');
    expect((await call({ action: 'write', id: cat.id, data: 'rm -r' }, guarded)).ok).toBe(true);
    await call({ action: 'write', id: cat.id, data: 'f /tmp/x\n' }, guarded);
    expect(judged.at(-1)).toContain('\nrm -rf /tmp/x\n');
  });

  it('stdinLine picks a delimiter the text does not hold', () => {
    const line = stdinLine('bash', 'HERMES_STDIN_00000000\n');
    const delim = /<<'([^']+)'/.exec(line)![1]!;
    expect(line.endsWith(`\n${delim}`)).toBe(true);
    expect('HERMES_STDIN_00000000\n'.includes(delim)).toBe(false);
  });

  it('waits with a timeout, then reports the end', async () => {
    const e = start('sleep 30');
    const r = await call({ action: 'wait', id: e.id, timeout: 0 });
    expect(r.content).toContain('still running after 0 s');
    const f = start('echo fin; exit 4');
    const w = await call({ action: 'wait', id: f.id, timeout: 10 });
    expect(w.content).toContain(`${f.id} (pid ${f.pid}): exited 4`);
    expect(w.content).toContain('fin');
  });

  it('kills', async () => {
    const e = start('sleep 30');
    const r = await call({ action: 'kill', id: e.id });
    expect(r.content).toContain('killed');
  });

  it('never reaches another profile’s process', async () => {
    const other = new HermesHome(join(root, 'home'), 'work');
    const theirs = manager.start({ home: other, session: 's', command: 'sleep 30', cwd: ctx.cwd, env: {} });
    for (const action of ['poll', 'wait', 'write', 'kill']) {
      const r = await call({ action, id: theirs.id, data: 'x', timeout: 0 });
      expect(r.ok, action).toBe(false);
      expect(r.content).toContain(`no background process "${theirs.id}" in this profile`);
    }
    expect((await call({ action: 'list' })).content).not.toContain(theirs.id);
    expect(manager.get('work', theirs.id).state).toBe('running');
  });

  it('needs an id, and the daemon', async () => {
    expect((await call({ action: 'poll' })).content).toContain('action "poll" needs "id"');
    const r = await call({ action: 'list' }, { ...ctx, processes: undefined } as ToolContext);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('only in sessions run by the Hermes daemon');
  });
});
