import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@hermes/core/config/errors';
import { HermesHome } from '@hermes/core/home/home';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli } from '../cli.js';

let home: HermesHome;

/** Runs `hermes ARGS` in process; returns what it wrote to stdout and stderr. */
async function hermes(...argv: string[]): Promise<{ out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  try {
    await buildCli({ home, version: 'test' }, argv).parseAsync();
    return { out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

beforeEach(() => {
  home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-config-cmd-'))).ensure();
});
afterEach(() => vi.restoreAllMocks());

describe('hermes config check', () => {
  it('lists unknown keys with the file, the key path and a suggestion, and keeps them', async () => {
    const text = '_config_version: 2\nmodle:\n  default: x\napprovals:\n  timout: 5\nweird_plugin: 1\n';
    writeFileSync(home.configFile, text);
    const { out } = await hermes('config', 'check');
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      `warning: ${home.configFile}: unknown key "modle" (did you mean "model"?); it is kept but Hermes does not use it`,
    );
    expect(lines[1]).toContain('unknown key "approvals.timout" (did you mean "approvals.timeout"?)');
    expect(lines[2]).toContain('unknown key "weird_plugin"; it is kept');
    expect(lines[3]).toBe(`${home.configFile}: valid, 3 unknown key(s)`);
    expect(readFileSync(home.configFile, 'utf8')).toBe(text);
  });

  it('says OK for a clean file, and does not flag platform adapter keys', async () => {
    writeFileSync(
      home.configFile,
      '_config_version: 2\nmodel:\n  default: m\nplatforms:\n  irc:\n    enabled: true\n    server: irc.example\n',
    );
    expect((await hermes('config', 'check')).out).toBe(`${home.configFile}: OK\n`);
  });

  it('fails on a broken file with the ConfigError naming the key', async () => {
    writeFileSync(home.configFile, '_config_version: 2\napprovals:\n  mode: sometimes\n');
    const err = await hermes('config', 'check').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('approvals.mode');
  });
});

describe('hermes config set', () => {
  it('warns on stderr when the key it wrote is unknown, and is quiet for a known key', async () => {
    const typo = await hermes('config', 'set', 'modle.default', 'gpt-x');
    expect(typo.out).toBe(`modle.default set in ${home.configFile}\n`);
    expect(typo.err).toContain('unknown key "modle" (did you mean "model"?)');
    expect(readFileSync(home.configFile, 'utf8')).toContain('modle:');
    const ok = await hermes('config', 'set', 'model.default', 'gpt-y');
    expect(ok.err).toBe('');
  });
});
