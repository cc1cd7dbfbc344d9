import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../testing.js';
import { CliExit } from '../context.js';

let home: HermesHome;

/** Runs `hermes ARGS` in process; returns what it wrote to stdout and stderr. */
const hermes = (...argv: string[]): Promise<{ out: string; err: string }> =>
  runCliInProcess(home, argv, { captureStderr: true });

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

/** Runs `hermes ARGS` expecting a failure; returns the error. */
async function refused(...argv: string[]): Promise<Error> {
  return hermes(...argv).then(
    () => {
      throw new Error(`hermes ${argv.join(' ')} succeeded`);
    },
    (e: unknown) => e as Error,
  );
}

describe('hermes config set', () => {
  it('refuses a key Hermes does not know, with a did-you-mean, and writes nothing', async () => {
    writeFileSync(home.configFile, '_config_version: 2\n# my model\nmodel:\n  default: a\n');
    const before = readFileSync(home.configFile, 'utf8');
    const err = await refused('config', 'set', 'modle.default', 'gpt-x');
    expect(err).toBeInstanceOf(CliExit);
    expect(err.message).toContain('unknown config key "modle" (did you mean "model"?)');
    expect(err.message).toContain('--force');
    expect((await refused('config', 'set', 'approvals.timout', '5')).message).toContain(
      '"approvals.timout" (did you mean "approvals.timeout"?)',
    );
    expect((await refused('config', 'set', 'approvals', '{mode: off, timout: 5}')).message).toContain(
      '"approvals.timout"',
    );
    expect(readFileSync(home.configFile, 'utf8')).toBe(before);
  });

  it('writes an unknown key with --force, with a warning, and is quiet for a known key', async () => {
    const typo = await hermes('config', 'set', 'modle.default', 'gpt-x', '--force');
    expect(typo.out).toBe(`modle.default set in ${home.configFile}\n`);
    expect(typo.err).toContain('unknown key "modle" (did you mean "model"?)');
    expect(readFileSync(home.configFile, 'utf8')).toContain('modle:');
    const ok = await hermes('config', 'set', 'model.default', 'gpt-y');
    expect(ok.err).toBe('');
    const platform = await hermes('config', 'set', 'platforms.irc.server', 'irc.example');
    expect(platform.err).toBe('');
  });

  it('stores null as the YAML null, not the string "null"', async () => {
    await hermes('config', 'set', 'compression.summary_model', 'small-model');
    await hermes('config', 'set', 'weird_plugin', 'null', '--force');
    const text = readFileSync(home.configFile, 'utf8');
    expect(text).toMatch(/^weird_plugin: null$/m);
    expect(text).not.toContain('"null"');
    expect((await hermes('config', 'get', 'weird_plugin')).out).toBe('null\n');
  });

  it('refuses an empty model.default', async () => {
    await hermes('config', 'set', 'model.default', 'm1');
    for (const empty of ['', '  ', 'null']) {
      const err = await refused('config', 'set', 'model.default', empty);
      expect(err.message).toContain('model.default cannot be empty');
    }
    expect((await hermes('config', 'get', 'model.default')).out).toBe('m1\n');
  });

  it('points usage errors at hermes config --help', async () => {
    expect((await refused('config', 'set')).message).toContain('hermes config --help');
    expect((await refused('config', 'set', 'model.default')).message).toContain('hermes config --help');
    expect((await refused('config', 'unset')).message).toContain('hermes config --help');
  });
});

describe('hermes config unset', () => {
  it('removes the key and a parent left empty, keeping comments and other keys', async () => {
    writeFileSync(
      home.configFile,
      '_config_version: 2\n# which model\nmodel:\n  default: m # pinned\nmodle:\n  default: typo\napprovals:\n  timeout: 5\n',
    );
    const { out } = await hermes('config', 'unset', 'modle.default');
    expect(out).toBe(`modle.default removed from ${home.configFile} (it now has its default value)\n`);
    await hermes('config', 'unset', 'approvals.timeout');
    const text = readFileSync(home.configFile, 'utf8');
    expect(text).toBe('_config_version: 2\n# which model\nmodel:\n  default: m # pinned\n');
    expect((await hermes('config', 'get', 'approvals.timeout')).out).toBe('300\n');
  });

  it('says so when the key is not in the file', async () => {
    writeFileSync(home.configFile, '_config_version: 2\n');
    const err = await refused('config', 'unset', 'model.default');
    expect(err.message).toBe(`no key "model.default" in ${home.configFile}; nothing removed`);
  });
});

describe('hermes config show', () => {
  it('prints the effective config as YAML with secrets hidden; bare `config` and `get` do the same', async () => {
    writeFileSync(
      home.configFile,
      '_config_version: 2\nmodel:\n  default: m\n  api_key_env: MY_KEY\nmy_plugin:\n  api_key: sk-very-secret\n  bot_token: 123:abc\n  max_tokens: 5\n',
    );
    const { out } = await hermes('config', 'show');
    expect(out).toContain('model:\n  default: m\n');
    expect(out).toContain('  api_key: <hidden>\n');
    const shown = JSON.parse((await hermes('config', 'show', '--json')).out) as Record<
      string,
      Record<string, unknown>
    >;
    expect(shown.model!.default).toBe('m');
    expect(shown.model!.api_key_env).toBe('MY_KEY');
    expect(shown.approvals!.timeout).toBe(300); // defaults are filled in
    expect(shown.my_plugin).toEqual({ api_key: '<hidden>', bot_token: '<hidden>', max_tokens: 5 });
    expect(out).not.toContain('sk-very-secret');
    expect((await hermes('config')).out).toBe(out);
    expect((await hermes('config', 'get')).out).toBe(out);
    expect((await hermes('config', 'get', 'my_plugin.api_key')).out).toBe('<hidden>\n');
  });
});

describe('hermes config allowlist', () => {
  const entry = 'recursive-delete: rm -f -r [/p/build]';
  const write = (): void =>
    writeFileSync(
      home.configFile,
      `_config_version: 2\n# my list\ncommand_allowlist:\n  - recursive-delete\n  - "${entry}"\n  - git push origin main\n`,
    );

  it('lists the entries numbered, saying which old forms do what now', async () => {
    write();
    const { out } = await hermes('config', 'allowlist');
    expect(out).toBe(
      [
        `command_allowlist in ${home.configFile}:`,
        '  1. recursive-delete  (ignored: approves a whole class; remove it)',
        `  2. ${entry}`,
        '  3. git push origin main  (old form: approves this exact command line)',
        '',
      ].join('\n'),
    );
    expect((await hermes('config', 'allowlist', 'list')).out).toBe(out);
  });

  it('check warns about the class entry and counts it apart from unknown keys', async () => {
    write();
    const lines = (await hermes('config', 'check')).out.trim().split('\n');
    expect(lines).toEqual([
      `warning: ${home.configFile}: command_allowlist entry 'recursive-delete' approves a whole class and is no longer honoured; remove it with /permissions or \`hermes config allowlist remove\``,
      `${home.configFile}: valid, 1 ignored allowlist entry`,
    ]);
  });

  it('removes one entry by number or by text, keeping comments and the others', async () => {
    write();
    expect((await hermes('config', 'allowlist', 'remove', '1')).out).toBe(
      'removed from command_allowlist: recursive-delete\n',
    );
    expect((await hermes('config', 'allowlist', 'remove', entry)).out).toBe(
      `removed from command_allowlist: ${entry}\n`,
    );
    expect(readFileSync(home.configFile, 'utf8')).toContain('# my list');
    expect((await hermes('config', 'get', 'command_allowlist', '--json')).out).toBe(
      JSON.stringify(['git push origin main'], null, 2) + '\n',
    );
    expect((await hermes('config', 'check')).out).toBe(`${home.configFile}: OK\n`);
    expect((await refused('config', 'allowlist', 'remove', '5')).message).toContain(
      'No entry 5: there are 1.',
    );
    expect((await refused('config', 'allowlist', 'remove')).message).toContain('needs N');
    expect((await refused('config', 'allowlist', 'drop')).message).toContain(
      'takes list, remove N|TEXT or clear',
    );
  });

  it('clear empties the list', async () => {
    write();
    expect((await hermes('config', 'allowlist', 'clear')).out).toBe(
      `command_allowlist in ${home.configFile} cleared (3 entries removed)\n`,
    );
    expect((await hermes('config', 'allowlist')).out).toBe(
      `command_allowlist in ${home.configFile} is empty\n`,
    );
  });
});
