import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { detectSandbox } from '@hermes/core/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing.js';

let dir: string;
let home: HermesHome;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-cli-sbx-'));
  home = new HermesHome(join(dir, 'root')).ensure();
});
afterEach(() => {
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('hermes sandbox check', () => {
  it('says whether the sandbox works here, with bwrap and user namespaces, exit 1 when not', async () => {
    const { out } = await runCliInProcess(home, ['sandbox', 'check']);
    const works = detectSandbox().available;
    expect(out).toContain(works ? 'sandbox: works here' : 'sandbox: does NOT work here');
    expect(out).toContain('user namespaces:');
    expect(out).toMatch(/cron\s+(workspace|off) \(default/);
    expect(process.exitCode ?? 0).toBe(works ? 0 : 1);
  });

  it('--json gives the same as data, with the lanes of the profile config', async () => {
    home.ensure();
    const { out } = await runCliInProcess(home, ['sandbox', 'check', '--json']);
    const r = JSON.parse(out) as { support: { available: boolean }; lanes: { lane: string }[] };
    expect(r.lanes.map((l) => l.lane)).toEqual(['tui', 'platforms', 'cron', 'api']);
    expect(typeof r.support.available).toBe('boolean');
  });
});
