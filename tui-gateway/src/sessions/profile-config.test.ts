/** A profile's config.yaml and .env re-read on change (stat-on-use), keeping the last good config. */
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setConfigValue, CONFIG_VERSION } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import { ProfileConfigFiles } from './profile-config.js';

/** A home with this config.yaml (current `_config_version`: no migration rewrites it) and .env. */
function home(config: string, env = ''): HermesHome {
  const h = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-pcfg-'))).ensure();
  writeFileSync(h.configFile, `_config_version: ${CONFIG_VERSION}\n${config}`);
  writeFileSync(h.envFile, env, { mode: 0o600 });
  return h;
}

describe('ProfileConfigFiles', () => {
  it('re-reads config.yaml when it changed on disk and bumps the version; a touch changes nothing', () => {
    const h = home('model:\n  default: alpha\n');
    const lines: string[] = [];
    const files = new ProfileConfigFiles(h, 'profile default', (l) => lines.push(l));
    expect(files.getConfig().model.default).toBe('alpha');
    expect(files.refresh()).toBeUndefined();

    writeFileSync(h.configFile, `_config_version: ${CONFIG_VERSION}\nmodel:\n  default: beta-model\n`);
    expect(files.refresh()).toEqual({ files: ['config.yaml'], same: false });
    expect(files.getConfig().model.default).toBe('beta-model');
    expect(files.version).toBe(1);
    expect(lines.some((l) => l.includes('reloaded config.yaml'))).toBe(true);

    utimesSync(h.configFile, new Date(), new Date(2002, 2, 2));
    expect(files.refresh()).toEqual({ files: [], same: true });
    expect(files.version).toBe(1);
  });

  it('keeps the last good config when an edit breaks config.yaml, reports the file and key once', () => {
    const h = home('model:\n  default: good\n');
    const lines: string[] = [];
    const files = new ProfileConfigFiles(h, 'profile default', (l) => lines.push(l));
    files.getConfig();

    writeFileSync(h.configFile, 'model:\n  default: broken\napprovals:\n  mode: sometimes\n');
    const change = files.refresh()!;
    expect(change.same).toBe(false);
    expect(change.files).toEqual([]);
    expect(change.problem).toMatchObject({ id: 1, file: h.configFile, key: 'approvals.mode' });
    expect(change.problem!.message).toContain(h.configFile);
    expect(files.getConfig().model.default).toBe('good');
    expect(files.version).toBe(0);
    const logged = lines.filter((l) => l.includes('approvals.mode'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('keeping the last good config');

    // another broken save with the same error: nothing new to tell
    writeFileSync(h.configFile, 'model:\n  default: broken2\napprovals:\n  mode: sometimes\n');
    expect(files.refresh()).toMatchObject({ same: true, problem: { id: 1 } });
    writeFileSync(h.configFile, 'model: [unclosed\n');
    expect(files.refresh()!.problem).toMatchObject({ id: 2 });
    expect(files.refresh()).toBeUndefined();

    writeFileSync(h.configFile, 'model:\n  default: fixed\n');
    expect(files.refresh()).toEqual({ files: ['config.yaml'], same: false });
    expect(files.problem).toBeUndefined();
    expect(files.getConfig().model.default).toBe('fixed');
  });

  it('a broken config.yaml at the first read still throws (nothing to fall back on)', () => {
    const h = home('approvals:\n  mode: sometimes\n');
    const files = new ProfileConfigFiles(h, 'profile default');
    expect(() => files.getConfig()).toThrow(/approvals\.mode/);
    expect(files.refresh()).toBeUndefined();
  });

  it('re-reads .env when it changed, without logging its values', () => {
    const h = home('', 'API_KEY=first-secret\n');
    const lines: string[] = [];
    const files = new ProfileConfigFiles(h, 'profile default', (l) => lines.push(l));
    expect(files.getSecrets()).toEqual({ API_KEY: 'first-secret' });
    expect(files.refresh()).toBeUndefined(); // reading it (0600 already) did not change its stamp

    writeFileSync(h.envFile, 'API_KEY=second-secret\n');
    expect(files.refresh()).toEqual({ files: ['.env'], same: false });
    expect(files.getSecrets()).toEqual({ API_KEY: 'second-secret' });
    expect(files.version).toBe(1);
    expect(lines.join('\n')).not.toMatch(/secret/);
  });

  it('refresh(true) re-reads whatever the stamps say; files never read are left alone', () => {
    const h = home('model:\n  default: one\n');
    const files = new ProfileConfigFiles(h, 'profile default');
    expect(files.refresh(true)).toBeUndefined(); // nothing loaded yet
    files.getConfig();
    expect(files.refresh(true)).toEqual({ files: [], same: true });
  });
});

describe('ProfileConfigFiles loosened approval settings', () => {
  it('an edit the daemon did not make is reported without `by` (outside Hermes); a tightening is not', () => {
    const h = home('approvals:\n  mode: manual\n');
    const files = new ProfileConfigFiles(h, 'profile default');
    files.getConfig();
    writeFileSync(h.configFile, `_config_version: ${CONFIG_VERSION}\napprovals:\n  mode: off\n`);
    expect(files.refresh()).toEqual({
      files: ['config.yaml'],
      same: false,
      loosened: [{ key: 'approvals.mode', from: 'manual', to: 'off' }],
    });
    writeFileSync(h.configFile, `_config_version: ${CONFIG_VERSION}\napprovals:\n  mode: manual\n`);
    expect(files.refresh()).toEqual({ files: ['config.yaml'], same: false });
  });

  it("the daemon's own write names who asked, or is not reported; only for the keys it wrote", () => {
    const h = home('approvals:\n  mode: manual\n');
    const files = new ProfileConfigFiles(h, 'profile default');
    files.getConfig();
    setConfigValue(h, 'approvals.mode', 'smart');
    files.noteOwnWrite('approvals.mode', 'tui:c-1');
    expect(files.refresh()!.loosened).toEqual([
      { key: 'approvals.mode', from: 'manual', to: 'smart', by: 'tui:c-1' },
    ]);

    // an `always` answer written by the guard (no `by`): the user's own answer, not reported
    setConfigValue(h, 'command_allowlist', ['recursive-delete']);
    files.noteOwnWrite('command_allowlist');
    expect(files.refresh()).toEqual({ files: ['config.yaml'], same: false });

    // a write of the daemon that carries another key's loosening along: that one is outside
    writeFileSync(
      h.configFile,
      `_config_version: ${CONFIG_VERSION}\napprovals:\n  mode: smart\n  timeout: 999\ncommand_allowlist: [recursive-delete]\n`,
    );
    setConfigValue(h, 'command_allowlist', ['recursive-delete', 'execute-code']);
    files.noteOwnWrite('command_allowlist');
    expect(files.refresh()!.loosened).toEqual([{ key: 'approvals.timeout', from: 300, to: 999 }]);
  });

  it("a write by someone else after the daemon's own is reported as outside", () => {
    const h = home('approvals:\n  mode: manual\n');
    const files = new ProfileConfigFiles(h, 'profile default');
    files.getConfig();
    setConfigValue(h, 'approvals.mode', 'smart');
    files.noteOwnWrite('approvals.mode');
    writeFileSync(h.configFile, `_config_version: ${CONFIG_VERSION}\napprovals:\n  mode: off\n`);
    expect(files.refresh()!.loosened).toEqual([{ key: 'approvals.mode', from: 'manual', to: 'off' }]);
  });
});
