/**
 * execute_code scripts under the session's sandbox (real bwrap): a script cannot write outside
 * the working folder, and its tool calls still reach the daemon over the RPC socket.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultConfig } from '../../config/schema.js';
import { HermesHome } from '../../home/home.js';
import { runTool } from '../registry.js';
import { createSessionSandbox } from '../sandbox/command-sandbox.js';
import { describeBwrap } from '../sandbox/testing.js';
import { makeToolContext } from '../testing.js';
import type { ToolContext } from '../types.js';
import { executeCodeTool, findPython } from './execute-code.js';

let base: string;
let user: string;
let ctx: ToolContext;

beforeAll(() => {
  base = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : process.cwd(), 'hermes-exec-sbx-'));
  user = join(base, 'user');
  mkdirSync(join(user, 'x'), { recursive: true });
  mkdirSync(join(user, 'work'), { recursive: true });
  writeFileSync(join(user, 'x', 'file'), 'precious\n');
  const config = defaultConfig();
  config.terminal.sandbox = 'workspace';
  const home = new HermesHome(join(user, '.hermes'));
  const sandbox = createSessionSandbox({
    lane: 'platforms',
    home,
    sessionId: `exec-sbx-${process.pid}`,
    userHome: user,
  }).forConfig(config);
  ctx = makeToolContext(base, { home, cwd: join(user, 'work'), config, sandbox });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const run = (code: string, language = 'javascript') =>
  runTool(executeCodeTool, JSON.stringify({ code, language }), ctx);

describeBwrap('execute_code in the sandbox', () => {
  it('a JavaScript script cannot delete outside the working folder', async () => {
    const r = await run(
      `import { rmSync } from 'node:fs'; rmSync(${JSON.stringify(join(user, 'x'))}, { recursive: true });`,
    );
    expect(r.ok).toBe(false);
    expect(r.content).toContain('blocked by the sandbox');
    expect(r.blocked).toEqual({ reason: 'sandbox' });
    expect(readFileSync(join(user, 'x', 'file'), 'utf8')).toBe('precious\n');
  });

  it.skipIf(!findPython())('a Python script neither [skipped without python3]', async () => {
    const r = await run(`import shutil\nshutil.rmtree(${JSON.stringify(join(user, 'x'))})`, 'python');
    expect(r.content).toContain('blocked by the sandbox');
    expect(existsSync(join(user, 'x', 'file'))).toBe(true);
  });

  it('writes in the working folder and calls tools over the RPC socket', async () => {
    const r = await run(
      `import { writeFileSync } from 'node:fs'; writeFileSync('out.txt', 'hi'); console.log(await terminal({ command: 'cat out.txt' }));`,
    );
    expect(r.content).toContain('hi');
    expect(r.ok).toBe(true);
  });
});
