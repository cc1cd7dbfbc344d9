import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-file.js';
import { defaultConfig, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createApprovalGuard, type ApprovalGuardOptions } from './guard.js';
import type { ApprovalCallback, ApprovalChoice, ApprovalRequest } from './types.js';

let root: string;
let home: HermesHome;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-guard-'));
  home = new HermesHome(root).ensure();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function config(patch: Partial<HermesConfig> = {}): HermesConfig {
  return { ...defaultConfig(), ...patch };
}

function answering(choice: ApprovalChoice) {
  const requests: ApprovalRequest[] = [];
  const callback: ApprovalCallback = async (req) => {
    requests.push(req);
    return choice;
  };
  return { requests, callback };
}

function guard(opts: Partial<ApprovalGuardOptions> = {}) {
  return createApprovalGuard({ config: config(), home, sessionId: 's1', ...opts });
}

const RM = 'rm -rf ./build';

describe('createApprovalGuard', () => {
  it('allows safe commands without asking', async () => {
    const { requests, callback } = answering('deny');
    expect(await guard({ callback }).check('ls -la')).toEqual({ allowed: true, reason: 'safe' });
    expect(requests).toHaveLength(0);
  });

  it('denies a dangerous command when no frontend can answer (headless), with a do-not-retry message', async () => {
    const v = await guard().check(RM);
    expect(v.allowed).toBe(false);
    if (v.allowed) return;
    expect(v.reason).toBe('no_frontend');
    expect(v.message).toMatch(/denied/);
    expect(v.message).toMatch(/recursive delete/);
    expect(v.message).toMatch(/Do not run it again/);
  });

  it('allows everything in mode off (--yolo), from the option or from config', async () => {
    expect(await guard({ mode: 'off' }).check(RM)).toEqual({ allowed: true, reason: 'mode_off' });
    const fromConfig = createApprovalGuard({
      config: config({ approvals: { ...defaultConfig().approvals, mode: 'off' } }),
      home,
      sessionId: 's1',
    });
    expect(fromConfig.mode).toBe('off');
    expect(await fromConfig.check(RM)).toEqual({ allowed: true, reason: 'mode_off' });
  });

  it('mode smart without a reviewer model (no smart options) asks like manual', async () => {
    const { requests, callback } = answering('once');
    const g = guard({ mode: 'smart', callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(requests).toHaveLength(1);
  });

  it('allows commands covered by command_allowlist (pattern key, description or exact command)', async () => {
    const byKey = guard({ config: config({ command_allowlist: ['recursive-delete'] }) });
    expect(await byKey.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
    const byDescription = guard({ config: config({ command_allowlist: ['recursive delete (rm -r)'] }) });
    expect(await byDescription.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
    const exact = guard({ config: config({ command_allowlist: ['git push --force origin main'] }) });
    expect(await exact.check('git  push --force origin main')).toEqual({
      allowed: true,
      reason: 'allowlist',
    });
    expect((await exact.check('git push --force origin dev')).allowed).toBe(false);
  });

  it('still asks when only some of the matched patterns are allowlisted', async () => {
    const { requests, callback } = answering('deny');
    const g = guard({ config: config({ command_allowlist: ['recursive-delete'] }), callback });
    expect((await g.check('sudo rm -rf /srv/x')).allowed).toBe(false);
    expect(requests[0]!.patternKeys).toEqual(expect.arrayContaining(['recursive-delete', 'sudo-rm']));
  });

  it('tells who answered (an answer with `by`), and records timeouts as a deny by timeout', async () => {
    const g = guard({ callback: async () => ({ choice: 'session', by: 'connection:c1' }) });
    expect(await g.check(RM)).toEqual({
      allowed: true,
      reason: 'approved',
      asked: { choice: 'session', by: 'connection:c1' },
    });
    const plain = answering('once');
    expect((await guard({ callback: plain.callback }).check(RM)).asked).toEqual({
      choice: 'once',
      by: 'user',
    });
    const silent = guard({ callback: () => new Promise(() => {}), timeoutMs: 20 });
    expect(await silent.check(RM)).toMatchObject({
      allowed: false,
      reason: 'timeout',
      asked: { choice: 'deny', by: 'timeout' },
    });
  });

  it('sends the frontend a complete request', async () => {
    const { requests, callback } = answering('once');
    await guard({ callback }).check(RM);
    const req = requests[0]!;
    expect(req.sessionId).toBe('s1');
    expect(req.command).toBe(RM);
    expect(req.patternKeys).toEqual(['recursive-delete']);
    expect(req.description).toBe('recursive delete (rm -r)');
    expect(req.choices).toEqual(['once', 'session', 'always', 'deny']);
    expect(req.requestId).toMatch(/[0-9a-f-]{36}/);
  });

  it('once allows this time only', async () => {
    const { requests, callback } = answering('once');
    const g = guard({ callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(requests).toHaveLength(2);
  });

  it('session remembers the pattern for the rest of the session only', async () => {
    const { requests, callback } = answering('session');
    const g = guard({ callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(await g.check('rm -r other')).toEqual({ allowed: true, reason: 'session' });
    expect(requests).toHaveLength(1);
    expect(g.sessionApprovals()).toEqual(['recursive-delete']);
    expect(existsSync(home.configFile)).toBe(false);
    // Another session asks again.
    const other = answering('deny');
    expect((await guard({ sessionId: 's2', callback: other.callback }).check(RM)).allowed).toBe(false);
    expect(other.requests).toHaveLength(1);
  });

  it("always appends the pattern keys to this profile's command_allowlist in config.yaml", async () => {
    writeFileSync(
      home.configFile,
      '# my settings\n_config_version: 2\ncommand_allowlist: [git-reset-hard]\n',
    );
    const { requests, callback } = answering('always');
    const g = guard({ config: loadConfig(home), callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(await g.check('rm -r again')).toEqual({ allowed: true, reason: 'allowlist' });
    expect(requests).toHaveLength(1);
    expect(loadConfig(home).command_allowlist).toEqual(['git-reset-hard', 'recursive-delete']);
    expect(readFileSync(home.configFile, 'utf8')).toContain('# my settings');
    // A later session of the same profile does not ask.
    const later = guard({ config: loadConfig(home), sessionId: 's9' });
    expect(await later.check('rm -rf ./dist')).toEqual({ allowed: true, reason: 'allowlist' });
    // Another profile is not affected.
    const work = new HermesHome(root, 'work').ensure();
    expect(loadConfig(work).command_allowlist).toEqual([]);
  });

  it('always with persistAllowlist false or a writer function', async () => {
    const g = guard({ callback: answering('always').callback, persistAllowlist: false });
    expect((await g.check(RM)).allowed).toBe(true);
    expect(existsSync(home.configFile)).toBe(false);
    const written: string[][] = [];
    const w = guard({
      callback: answering('always').callback,
      persistAllowlist: (l) => void written.push(l),
    });
    expect((await w.check(RM)).allowed).toBe(true);
    expect(written).toEqual([['recursive-delete']]);
  });

  it('always still allows once when config.yaml cannot be written, and reports the error', async () => {
    writeFileSync(home.configFile, 'approvals: [broken\n');
    const errors: unknown[] = [];
    const g = guard({ callback: answering('always').callback, onError: (e) => errors.push(e) });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(errors).toHaveLength(1);
    expect(readFileSync(home.configFile, 'utf8')).toBe('approvals: [broken\n');
  });

  it('deny denies with a message for the model', async () => {
    const v = await guard({ callback: answering('deny').callback }).check(RM);
    expect(v).toMatchObject({ allowed: false, reason: 'denied' });
    if (!v.allowed) expect(v.message).toMatch(/^BLOCKED: The user denied .*Do not run it again/);
  });

  it('denies on timeout and tells the frontend to drop its prompt', async () => {
    let frontendSignal: AbortSignal | undefined;
    const callback: ApprovalCallback = (_req, signal) => {
      frontendSignal = signal;
      return new Promise(() => {});
    };
    const started = Date.now();
    const v = await guard({ callback, timeoutMs: 50 }).check(RM);
    expect(v).toMatchObject({ allowed: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(frontendSignal?.aborted).toBe(true);
  });

  it('uses approvals.timeout (seconds) by default', async () => {
    const g = guard({
      config: config({ approvals: { ...defaultConfig().approvals, timeout: 1 } }),
      callback: () => new Promise(() => {}),
    });
    const v = await g.check(RM);
    expect(v).toMatchObject({ allowed: false, reason: 'timeout' });
    if (!v.allowed) expect(v.message).toContain('within 1 s');
  });

  it('denies when interrupted while waiting, or already interrupted', async () => {
    const ctrl = new AbortController();
    let asked!: () => void;
    const askedP = new Promise<void>((r) => (asked = r));
    const g = guard({
      callback: () => {
        asked();
        return new Promise(() => {});
      },
    });
    const pending = g.check(RM, ctrl.signal);
    await askedP;
    ctrl.abort();
    expect(await pending).toMatchObject({ allowed: false, reason: 'interrupted' });
    expect(await g.check(RM, ctrl.signal)).toMatchObject({ allowed: false, reason: 'interrupted' });
  });

  it('fails closed when the callback throws or answers nonsense', async () => {
    const throwing = guard({
      callback: () => {
        throw new Error('frontend gone');
      },
    });
    expect(await throwing.check(RM)).toMatchObject({ allowed: false, reason: 'denied' });
    const rejecting = guard({ callback: () => Promise.reject(new Error('x')) });
    expect(await rejecting.check(RM)).toMatchObject({ allowed: false, reason: 'denied' });
    const nonsense = guard({ callback: async () => 'yes please' as ApprovalChoice });
    expect(await nonsense.check(RM)).toMatchObject({ allowed: false, reason: 'denied' });
  });

  it('asks for commands disguised with ANSI escapes and case', async () => {
    const { requests, callback } = answering('deny');
    const g = guard({ callback });
    expect((await g.check('\u001b[32mRM\u001b[0m -RF ./build')).allowed).toBe(false);
    expect((await g.check('GIT PUSH -F origin main')).allowed).toBe(false);
    expect(requests.map((r) => r.patternKeys[0])).toEqual(['recursive-delete', 'git-force-push']);
  });
});
