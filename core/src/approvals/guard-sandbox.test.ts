/**
 * The guard's questions about the sandbox: a command the model asks to run outside it
 * (`checkOutsideSandbox`) and a session whose sandbox cannot run here (`askSandboxFallback`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createApprovalGuard, OUTSIDE_SANDBOX_KEY, SANDBOX_FALLBACK_KEY } from './guard.js';
import type { ApprovalCallback, ApprovalChoice, ApprovalRequest } from './types.js';

let dir: string;
let home: HermesHome;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-guard-sbx-'));
  home = new HermesHome(join(dir, 'root')).ensure();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function guard(answer: ApprovalChoice | undefined, mode?: 'manual' | 'smart' | 'off') {
  const asked: ApprovalRequest[] = [];
  const callback: ApprovalCallback = async (req) => (asked.push(req), answer ?? 'deny');
  const g = createApprovalGuard({
    config: ConfigSchema.parse({}),
    home,
    sessionId: 's',
    cwd: dir,
    persistAllowlist: false,
    ...(mode ? { mode } : {}),
    ...(answer ? { callback } : {}),
  });
  return { g, asked };
}

describe('checkOutsideSandbox', () => {
  it('asks the user, showing the command; session covers that exact line only', async () => {
    const { g, asked } = guard('session');
    expect((await g.checkOutsideSandbox('make install')).allowed).toBe(true);
    expect(asked[0]).toMatchObject({ command: 'make install', patternKeys: [OUTSIDE_SANDBOX_KEY] });
    expect(asked[0]!.description).toMatch(/outside the sandbox/);
    expect(asked[0]!.allows).toEqual(["outside-sandbox: outside_sandbox 'make install'"]);
    expect(await g.checkOutsideSandbox('make install')).toMatchObject({ allowed: true, reason: 'session' });
    await g.checkOutsideSandbox('make uninstall');
    expect(asked.length).toBe(2);
  });

  it('denies headless and on deny; mode off allows; the floor refuses in every mode', async () => {
    expect(await guard(undefined).g.checkOutsideSandbox('ls')).toMatchObject({
      allowed: false,
      reason: 'no_frontend',
    });
    expect(await guard('deny').g.checkOutsideSandbox('ls')).toMatchObject({
      allowed: false,
      reason: 'denied',
    });
    expect(await guard(undefined, 'off').g.checkOutsideSandbox('ls')).toMatchObject({
      allowed: true,
      reason: 'mode_off',
    });
    expect(await guard('once', 'off').g.checkOutsideSandbox('rm -rf /')).toMatchObject({
      allowed: false,
      reason: 'floor',
    });
  });
});

describe('askSandboxFallback', () => {
  it('offers only once or deny, and remembers nothing', async () => {
    const { g, asked } = guard('once');
    expect((await g.askSandboxFallback('The sandbox cannot run here. Run without it?')).allowed).toBe(true);
    expect(asked[0]!.choices).toEqual(['once', 'deny']);
    expect(asked[0]!.patternKeys).toEqual([SANDBOX_FALLBACK_KEY]);
    await g.askSandboxFallback('again?');
    expect(asked.length).toBe(2);
    expect((await guard(undefined).g.askSandboxFallback('q')).allowed).toBe(false);
  });
});
