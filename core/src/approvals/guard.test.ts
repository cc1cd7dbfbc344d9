import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-file.js';
import { defaultConfig, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createApprovalGuard, type ApprovalGuardOptions } from './guard.js';
import { answering } from './testing.js';
import type { ApprovalCallback, ApprovalChoice } from './types.js';

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

  it('allows a command covered by an entry of command_allowlist', async () => {
    const first = answering('deny');
    await guard({ callback: first.callback }).check(RM);
    const g = guard({ config: config({ command_allowlist: first.requests[0]!.allows }) });
    expect(await g.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
  });

  it('old class entries (a bare pattern key, a description) approve nothing; an old full command line approves that line', async () => {
    const { requests, callback } = answering('deny');
    const classes = ['recursive-delete', 'recursive delete (rm -r)', 'execute-code'];
    const g = guard({ config: config({ command_allowlist: classes }), callback });
    expect(await g.check(RM)).toMatchObject({ allowed: false, reason: 'denied' });
    expect(await g.checkScript({ code: 'print(1)', language: 'python' })).toMatchObject({ allowed: false });
    expect(requests).toHaveLength(2);
    const exact = guard({ config: config({ command_allowlist: ['git push --force origin main'] }) });
    expect(await exact.check('git  push --force origin main')).toEqual({
      allowed: true,
      reason: 'allowlist',
    });
    expect((await exact.check('git push --force origin dev')).allowed).toBe(false);
  });

  it('still asks when only some of the hits are allowlisted', async () => {
    const { requests, callback } = answering('deny');
    await guard({ callback }).check('sudo rm -rf /srv/x');
    const req = requests[0]!;
    expect(req.patternKeys).toEqual(expect.arrayContaining(['recursive-delete', 'sudo-rm']));
    expect(req.allows).toHaveLength(req.patternKeys.length);
    const one = req.allows.find((e) => e.startsWith('recursive-delete: '))!;
    const partly = guard({ config: config({ command_allowlist: [one] }), callback });
    expect((await partly.check('sudo rm -rf /srv/x')).allowed).toBe(false);
    expect(requests).toHaveLength(2);
    const all = guard({ config: config({ command_allowlist: req.allows }) });
    expect(await all.check('sudo rm -rf /srv/x')).toEqual({ allowed: true, reason: 'allowlist' });
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

  it('session remembers what the request showed, for the rest of the session only', async () => {
    const { requests, callback } = answering('session');
    const g = guard({ callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(await g.check(RM)).toEqual({ allowed: true, reason: 'session' });
    expect(requests).toHaveLength(1);
    // another command of the same class is asked about
    expect(await g.check('rm -r other')).toMatchObject({ allowed: true, reason: 'approved' });
    expect(requests).toHaveLength(2);
    expect(g.sessionApprovals()).toEqual([...requests[0]!.allows, ...requests[1]!.allows]);
    expect(g.sessionApprovals()).not.toContain('recursive-delete');
    expect(existsSync(home.configFile)).toBe(false);
    // Another session asks again.
    const other = answering('deny');
    expect((await guard({ sessionId: 's2', callback: other.callback }).check(RM)).allowed).toBe(false);
    expect(other.requests).toHaveLength(1);
  });

  it("always appends narrow entries to this profile's command_allowlist in config.yaml; a wider command still asks", async () => {
    writeFileSync(
      home.configFile,
      '# my settings\n_config_version: 2\ncommand_allowlist: [git-reset-hard]\n',
    );
    const { requests, callback } = answering('always');
    const g = guard({ config: loadConfig(home), callback });
    expect(await g.check(RM)).toMatchObject({ allowed: true, reason: 'approved' });
    expect(await g.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
    expect(requests).toHaveLength(1);
    const written = requests[0]!.allows;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^recursive-delete: .*build/);
    expect(loadConfig(home).command_allowlist).toEqual(['git-reset-hard', ...written]);
    expect(readFileSync(home.configFile, 'utf8')).toContain('# my settings');
    // the next wider command asks
    const wide = answering('deny');
    const same = guard({ config: loadConfig(home), sessionId: 's8', callback: wide.callback });
    expect(await same.check('rm -rf ~/Documents')).toMatchObject({ allowed: false, reason: 'denied' });
    expect(await same.check('rm -rf ./build ~/Documents')).toMatchObject({ allowed: false });
    expect(wide.requests).toHaveLength(2);
    // A later session of the same profile does not ask about the approved command.
    const later = guard({ config: loadConfig(home), sessionId: 's9' });
    expect(await later.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
    expect((await later.check('rm -rf ./dist')).allowed).toBe(false);
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
    expect(written).toHaveLength(1);
    expect(written[0]).toHaveLength(1);
    expect(written[0]![0]).toMatch(/^recursive-delete: /);
    expect(await w.check(RM)).toEqual({ allowed: true, reason: 'allowlist' });
  });

  it('an approval in one folder does not cover the same relative command in another', async () => {
    const { requests, callback } = answering('always');
    const g = guard({ callback, persistAllowlist: false, cwd: join(root, 'a') });
    expect((await g.check(RM)).allowed).toBe(true);
    expect(await g.check(RM, undefined, undefined, join(root, 'a'))).toEqual({
      allowed: true,
      reason: 'allowlist',
    });
    expect(await g.check(RM, undefined, undefined, join(root, 'b'))).toMatchObject({ reason: 'approved' });
    expect(requests).toHaveLength(2);
  });

  it('a session approval of a script covers that exact script only', async () => {
    const { requests, callback } = answering('session');
    const g = guard({ callback });
    const script = { code: 'print(1)', language: 'python' };
    expect(await g.checkScript(script)).toMatchObject({ reason: 'approved' });
    expect(await g.checkScript(script)).toEqual({ allowed: true, reason: 'session' });
    expect(await g.checkScript({ ...script, code: 'import shutil' })).toMatchObject({ reason: 'approved' });
    expect(await g.checkScript({ ...script, language: 'javascript' })).toMatchObject({ reason: 'approved' });
    expect(requests).toHaveLength(3);
  });

  it('revoke forgets a session approval and an in-memory allowlist entry', async () => {
    const { requests, callback } = answering('session');
    const g = guard({ callback, sessionApprovals: [] });
    await g.check(RM);
    const [entry] = g.sessionApprovals();
    expect(g.revoke(entry!)).toBe(true);
    expect(g.revoke(entry!)).toBe(false);
    expect(g.sessionApprovals()).toEqual([]);
    expect(await g.check(RM)).toMatchObject({ reason: 'approved' });
    expect(requests).toHaveLength(2);
    const listed = guard({ config: config({ command_allowlist: [entry!] }), callback });
    expect(listed.revoke(entry!)).toBe(true);
    expect(await listed.check(RM)).toMatchObject({ reason: 'approved' });
  });

  it('a rebuilt guard keeps the session approvals it is given', async () => {
    const first = guard({ callback: answering('session').callback });
    await first.check(RM);
    const rebuilt = guard({ sessionApprovals: first.sessionApprovals() });
    expect(await rebuilt.check(RM)).toEqual({ allowed: true, reason: 'session' });
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
