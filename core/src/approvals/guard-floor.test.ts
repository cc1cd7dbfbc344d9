/**
 * The guard's floor: every floor command is refused (reason `floor`) in every mode — `off` given as
 * the `--yolo` option and from config, manual with a user who approves anything, smart with a
 * reviewer that approves anything, headless (cron) — and whatever the allowlist or the session's
 * approvals hold. Nobody is asked and the reviewer is never called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { ConfigSchema, type HermesConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import { entriesForLine, scriptEntry } from './allowlist.js';
import { detectCommand } from './detect.js';
import { createApprovalGuard, EXECUTE_CODE_KEY, type ApprovalGuardOptions } from './guard.js';
import { FLOOR_KEYS } from './rules/index.js';
import { FLOOR, makeFixture, type Fixture } from './rules/testing.js';
import { verdict } from './testing.js';
import type { ApprovalCallback, ApprovalRequest } from './types.js';

let server: FakeModelServer;
let fx: Fixture;
let home: HermesHome;

// one fixture for the file: every guard here is read-only (persistAllowlist: false), and making
// and removing the folders per case cost more than the checks themselves
beforeAll(async () => {
  server = await startFakeModelServer({ whenEmpty: verdict('APPROVE', 'looks fine') });
  fx = makeFixture();
  home = new HermesHome(fx.root).ensure();
});
afterAll(() => {
  fx.remove();
  return server.close();
});

function config(patch: Record<string, unknown> = {}): HermesConfig {
  return ConfigSchema.parse({ model: { provider: 'custom', base_url: server.url, default: 'm' }, ...patch });
}

const asked: ApprovalRequest[] = [];
const yes: ApprovalCallback = async (req) => {
  asked.push(req);
  return 'always';
};

/** The guard in each mode a user could pick, most permissive settings around it. */
async function guards(line: string): Promise<[string, ReturnType<typeof createApprovalGuard>][]> {
  const where = fx.at();
  const d = await detectCommand(line, where);
  // entries as if the floor hits had been approved (what `session`/`always` would have stored)
  const entries = entriesForLine(line, { hits: d.floor, analysis: d.analysis }, where).map((e) => e.text);
  const allowlist = [...FLOOR_KEYS, line, ...entries];
  const base: ApprovalGuardOptions = {
    config: config({ command_allowlist: allowlist }),
    home,
    sessionId: 's1',
    userHome: fx.home,
    cwd: fx.proj,
    persistAllowlist: false,
    sessionApprovals: entries,
  };
  const smart = {
    model: createModelClient({ config: config(), secrets: {}, env: {}, maxRetries: 0 }),
    timeoutMs: 5_000,
  };
  return [
    ['--yolo (mode off option)', createApprovalGuard({ ...base, mode: 'off', callback: yes })],
    [
      'approvals.mode: off',
      createApprovalGuard({
        ...base,
        config: config({ command_allowlist: allowlist, approvals: { mode: 'off' } }),
      }),
    ],
    ['manual, user answers always', createApprovalGuard({ ...base, mode: 'manual', callback: yes })],
    ['smart, reviewer approves', createApprovalGuard({ ...base, mode: 'smart', callback: yes, smart })],
    ['headless (cron)', createApprovalGuard({ ...base, mode: 'manual' })],
  ];
}

describe('the floor in the guard', () => {
  it.each(FLOOR)('refuses %j in every mode, whatever is allowlisted', async (line) => {
    asked.length = 0;
    const before = server.requests.length;
    for (const [mode, g] of await guards(line)) {
      const v = await g.check(line);
      expect(v, mode).toMatchObject({ allowed: false, reason: 'floor' });
      if (!v.allowed)
        expect(v.message, mode).toMatch(
          /^REFUSED: .*catastrophic commands that Hermes never runs, in any approval mode/,
        );
    }
    expect(asked).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('names what was refused and tells the model not to work around it', async () => {
    const [, g] = (await guards('rm -rf ~'))[0]!;
    const v = await g.check('rm -rf ~');
    expect(v.allowed).toBe(false);
    if (v.allowed) return;
    expect(v.message).toContain('delete / , the home folder or a top-level system folder');
    expect(v.message).toMatch(/do not try to get the same effect another way/);
    expect(v.message).toMatch(/run it themselves/);
  });

  it('leaves the near misses to the asked classes: mode off still runs them', async () => {
    const [, yolo] = (await guards('rm -rf build'))[0]!;
    expect(await yolo.check('rm -rf build')).toEqual({ allowed: true, reason: 'mode_off' });
    expect(await yolo.check('git status')).toEqual({ allowed: true, reason: 'safe' });
  });

  it.each([
    { language: 'python', code: "import os\nos.system('rm -rf /')\n" },
    { language: 'python', code: "import shutil\nshutil.rmtree('/')" },
    { language: 'python', code: "import subprocess\nsubprocess.run('mkfs.ext4 /dev/sda', shell=True)" },
    { language: 'javascript', code: "require('child_process').execSync('rm -rf ~')" },
    { language: 'javascript', code: "require('fs').rmSync('/', { recursive: true, force: true })" },
  ])('refuses the execute_code script $code in every mode, whatever is approved', async (script) => {
    asked.length = 0;
    const entry = scriptEntry(EXECUTE_CODE_KEY, script.language, script.code).text;
    for (const [mode, g] of await guards('true')) {
      const approved = createApprovalGuard({
        config: config({ command_allowlist: [entry] }),
        home,
        sessionId: 's1',
        userHome: fx.home,
        cwd: fx.proj,
        persistAllowlist: false,
        mode: 'off',
      });
      expect(await g.checkScript(script), mode).toMatchObject({ allowed: false, reason: 'floor' });
      expect(await approved.checkScript(script), 'allowlisted').toMatchObject({
        allowed: false,
        reason: 'floor',
      });
    }
    expect(asked).toEqual([]);
  });

  it('leaves other scripts to the mode: off runs them', async () => {
    const [, yolo] = (await guards('true'))[0]!;
    expect(await yolo.checkScript({ language: 'python', code: "print('rm -rf /')" })).toEqual({
      allowed: true,
      reason: 'mode_off',
    });
  });
});
