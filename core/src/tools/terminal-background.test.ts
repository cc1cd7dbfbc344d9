/**
 * `terminal` and background processes: `background: true` starts one through `ctx.processes`,
 * and a foreground command whose `cmd &` was stopped says so in its result.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessManager, profileProcesses } from '../processes/index.js';
import { processStartTime } from './process-registry.js';
import { runTool } from './registry.js';
import { terminalTool } from './terminal.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let manager: ProcessManager;
let ctx: ToolContext;

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-term-bg-'));
  manager = new ProcessManager({ root: join(root, 'home'), graceMs: 500 });
  const base = makeToolContext(root);
  ctx = { ...base, processes: profileProcesses(manager, base.home) };
});
afterEach(async () => {
  await manager.stopAll();
  manager.close();
  rmSync(root, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>, c: ToolContext = ctx) =>
  runTool(terminalTool, JSON.stringify(args), c);

describe('terminal: cmd & in a foreground command', () => {
  it('tells the model that a job left running with & was stopped, and how to keep one', async () => {
    const pidFile = join(root, 'pid');
    const r = await run({ command: `sleep 30 & echo $! > ${pidFile}; echo started` });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('started');
    expect(r.content).toMatch(
      /\[note: 1 process\(es\) started in the background \(with & or nohup\) were still running when the command ended and were stopped; to keep a process running use terminal with background: true\]$/,
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => processStartTime(pid) === null);
  });

  it('counts nohup jobs too', async () => {
    const r = await run({
      command: 'nohup sleep 30 >/dev/null 2>&1 & nohup sleep 30 >/dev/null 2>&1 & true',
    });
    expect(r.content).toContain('[note: 2 process(es) started in the background');
  });

  it('adds no note when nothing was left running', async () => {
    const r = await run({ command: '(sleep 0.1 &) ; sleep 0.3; echo done' });
    expect(r.content).not.toContain('[note:');
  });
});

describe('terminal: background: true', () => {
  it('returns at once with the id and log, and the process keeps running', async () => {
    const t0 = Date.now();
    const r = await run({ command: 'echo ready; sleep 30', background: true });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(r.ok).toBe(true);
    const id = /background process (bg-[0-9a-f]{8})/.exec(r.content)?.[1];
    expect(id).toBeDefined();
    const e = manager.get(ctx.home.profile, id!);
    expect(e).toMatchObject({ state: 'running', session: 'test-session', cwd: ctx.cwd, notify: false });
    expect(r.content).toContain(e.log);
    expect(r.content).toContain('notify_on_complete');
    await until(() => existsSync(e.log) && readFileSync(e.log, 'utf8') === 'ready\n');
  });

  it('records notify_on_complete', async () => {
    const r = await run({ command: 'true', background: true, notify_on_complete: true });
    const id = /(bg-[0-9a-f]{8})/.exec(r.content)![1]!;
    expect(manager.get(ctx.home.profile, id).notify).toBe(true);
    expect(r.content).toContain('You will get a message in this session when it ends.');
  });

  it('goes through the approval guard first', async () => {
    const denied = {
      ...ctx,
      checkCommand: async () => ({ allowed: false, reason: 'denied' as const, message: 'no' }),
    };
    const r = await run({ command: 'sleep 30', background: true }, denied as ToolContext);
    expect(r.ok).toBe(false);
    expect(manager.list(ctx.home.profile)).toEqual([]);
  });

  it('runs under the session’s sandbox (CommandSandbox.wrap), and reports a refusing one', async () => {
    const wrapped: Array<{ argv: readonly string[]; cwd: string }> = [];
    const sandbox = {
      mode: 'workspace' as const,
      wrap: (argv: readonly string[], o: { cwd: string }) => {
        wrapped.push({ argv, cwd: o.cwd });
        return ['/usr/bin/env', 'WRAPPED=yes', ...argv];
      },
    };
    const r = await run({ command: 'echo "wrapped=$WRAPPED"', background: true }, { ...ctx, sandbox });
    const id = /(bg-[0-9a-f]{8})/.exec(r.content)![1]!;
    expect(wrapped).toEqual([
      { argv: [expect.stringMatching(/sh$/), '-c', 'echo "wrapped=$WRAPPED"'], cwd: ctx.cwd },
    ]);
    await manager.wait(ctx.home.profile, id, 5_000);
    expect(manager.read(ctx.home.profile, id, 0).text).toBe('wrapped=yes\n');
    const refusing = {
      mode: 'strict' as const,
      wrap: () => {
        throw new Error('bwrap is not installed');
      },
    };
    const refused = await run({ command: 'sleep 30', background: true }, { ...ctx, sandbox: refusing });
    expect(refused.ok).toBe(false);
    expect(refused.content).toContain('cannot start the background process: bwrap is not installed');
  });

  it('refuses outside the daemon (no ctx.processes)', async () => {
    const r = await run({ command: 'sleep 30', background: true }, {
      ...ctx,
      processes: undefined,
    } as ToolContext);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('only in sessions run by the Hermes daemon');
  });
});
