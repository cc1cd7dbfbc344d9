/**
 * execute_code: a script calling read_file twice returns only its stdout;
 * every limit is enforced with a clear message; approvals apply inside; interrupt kills the child.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig, type HermesConfig } from '../../config/schema.js';
import { builtinTools, runTool } from '../registry.js';
import { makeToolContext } from '../testing.js';
import type { ToolContext } from '../types.js';
import { executeCodeTool, findPython } from './execute-code.js';
import { startRpcServer } from './rpc-server.js';

const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone (what the tests assert) */
    }
  }
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function setup(
  codeExecution: Partial<HermesConfig['code_execution']> = {},
  overrides: Partial<ToolContext> = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'exec-'));
  const config = defaultConfig();
  config.code_execution = { ...config.code_execution, ...codeExecution };
  const ctx = makeToolContext(root, { config, ...overrides });
  writeFileSync(join(ctx.cwd, 'a.txt'), '20\n');
  writeFileSync(join(ctx.cwd, 'b.txt'), '22\n');
  return { root, ctx };
}

const run = (ctx: ToolContext, code: string, language = 'javascript') =>
  runTool(executeCodeTool, JSON.stringify({ code, language }), ctx);

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('execute_code', () => {
  it('is a built-in tool', () => {
    expect(builtinTools().map((t) => t.name)).toContain('execute_code');
  });

  it('JavaScript: two read_file calls, prints a sum; only stdout comes back', async () => {
    const { ctx } = setup();
    const progress: string[] = [];
    ctx.progress = (t) => progress.push(t);
    const r = await run(
      ctx,
      `const num = (t) => Number(t.split('\\n')[0].split('|')[1]);
       const a = await read_file({ path: 'a.txt' });
       const b = await read_file('b.txt');
       console.error('debug noise that must not reach the model');
       console.log(num(a) + num(b));`,
    );
    expect(r.ok).toBe(true);
    expect(r.content).toBe('42\n');
    expect(r.summary).toMatch(/exit 0 · 2 tool calls/);
    expect(progress).toEqual(['tool call 1: read_file a.txt', 'tool call 2: read_file b.txt']);
  });

  it.skipIf(!findPython())('Python: the same script through hermes_tools.py', async () => {
    const { ctx } = setup();
    const r = await run(
      ctx,
      [
        'import hermes_tools',
        'def num(t): return int(t.split("\\n")[0].split("|")[1])',
        'a = read_file(path="a.txt")',
        'b = hermes_tools.read_file("b.txt")',
        'print(num(a) + num(b))',
      ].join('\n'),
      'python',
    );
    expect(r.content).toBe('42\n');
    expect(r.ok).toBe(true);
  });

  it('enforces the tool call limit: extra calls fail inside the script and are not run', async () => {
    const { ctx } = setup({ max_tool_calls: 3 });
    const r = await run(
      ctx,
      `let refused = 0;
       for (let i = 1; i <= 5; i++) {
         try { await write_file({ path: 'f' + i + '.txt', content: 'x' }); }
         catch (e) { refused++; if (refused === 1) console.log('error:', e.message); }
       }
       console.log('refused', refused);`,
    );
    expect(r.content).toContain(
      'error: execute_code: tool call limit reached (3 calls, code_execution.max_tool_calls)',
    );
    expect(r.content).toContain('refused 2');
    expect(r.content).toContain(
      '[execute_code: tool call limit reached: the script asked for more than 3 tool calls',
    );
    expect(['f1', 'f2', 'f3'].every((f) => existsSync(join(ctx.cwd, `${f}.txt`)))).toBe(true);
    expect(existsSync(join(ctx.cwd, 'f4.txt'))).toBe(false);
  });

  it('caps stdout at 50,000 chars keeping start and end, and says so', async () => {
    const { ctx } = setup();
    const r = await run(ctx, `console.log('BEGIN' + 'x'.repeat(200_000) + 'END');`);
    expect(r.ok).toBe(true);
    expect(r.content.length).toBeLessThan(52_000);
    expect(r.content.startsWith('BEGIN')).toBe(true);
    expect(r.content).toContain('END\n');
    expect(r.content).toContain('[execute_code: stdout exceeded the 50,000-char limit (200,009 chars)');
  });

  it('kills the script at code_execution.timeout and says so', async () => {
    const { ctx } = setup({ timeout: 1 });
    const r = await run(ctx, `console.log('pid', process.pid); setInterval(() => {}, 1000);`);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/^pid \d+/);
    expect(r.content).toContain(
      '[execute_code: timed out after 1 s (code_execution.timeout); the script was killed.',
    );
    const pid = Number(/pid (\d+)/.exec(r.content)![1]);
    pids.push(pid);
    expect(alive(pid)).toBe(false);
  });

  it('shows stderr (capped at 10,000 chars) only when the script fails', async () => {
    const { ctx } = setup();
    const r = await run(
      ctx,
      `console.log('partial'); process.stderr.write('E'.repeat(30_000)); process.exit(3);`,
    );
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(
      /^partial\n--- stderr, over the 10,000-char limit: start and end shown ---\nE+/,
    );
    expect(r.content.length).toBeLessThan(11_000);
    expect(r.content).toContain('[execute_code: the script exited with code 3.]');
    const thrown = await run(ctx, `await read_file({ path: 'missing.txt' });`);
    expect(thrown.ok).toBe(false);
    expect(thrown.content).toContain('HermesToolError');
    expect(thrown.content).toContain('missing.txt');
  });

  it('dangerous commands inside still go through the approval guard', async () => {
    const asked: string[] = [];
    const { ctx } = setup(
      {},
      {
        checkCommand: async (command) => {
          asked.push(command);
          return { allowed: false, reason: 'denied', message: 'BLOCKED: the user denied this command' };
        },
      },
    );
    const r = await run(
      ctx,
      `try { await terminal('rm -rf build'); } catch (e) { console.log('refused:', e.message); }`,
    );
    expect(asked).toEqual(['rm -rf build']);
    expect(r.content).toBe('refused: BLOCKED: the user denied this command\n');
  });

  it('offers only the allowed tools', async () => {
    const { ctx } = setup();
    const r = await run(
      ctx,
      `const x = await call('memory', { action: 'add' }); console.log(x.ok, x.content);`,
    );
    expect(r.content).toMatch(
      /^false memory is not available inside execute_code\. Available: terminal, read_file, write_file, patch, search_files/,
    );
  });

  it('interrupt kills the script and its children', async () => {
    const ac = new AbortController();
    const { ctx } = setup({}, { signal: ac.signal });
    const marker = join(ctx.cwd, 'ready.txt');
    const pending = run(
      ctx,
      `import { writeFileSync } from 'node:fs';
       import { spawn } from 'node:child_process';
       const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
       writeFileSync('ready.txt', process.pid + ' ' + sleeper.pid);
       setInterval(() => {}, 1000);`,
    );
    await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').includes(' '));
    const [pid, sleeper] = readFileSync(marker, 'utf8').split(' ').map(Number) as [number, number];
    pids.push(pid, sleeper);
    ac.abort();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(r.content).toContain('[execute_code: interrupted by the user; the script was killed.]');
    await waitFor(() => !alive(pid) && !alive(sleeper), 3_000);
  });
});

describe('execute_code RPC server', () => {
  it('drops a connection without the token and never dispatches', async () => {
    let dispatched = 0;
    const server = await startRpcServer({
      allowed: new Set(['read_file']),
      maxCalls: 5,
      dispatch: async () => {
        dispatched++;
        return { ok: true, content: 'x' };
      },
    });
    const sock = connect(server.socketPath);
    const closed = new Promise<void>((r) => sock.on('close', () => r()));
    sock.on('error', () => undefined);
    sock.write(`${JSON.stringify({ id: 1, token: 'wrong', tool: 'read_file', args: {} })}\n`);
    await closed;
    expect(dispatched).toBe(0);
    await server.close();
    expect(existsSync(server.dir)).toBe(false);
  });
});
