import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import {
  getConfigValue,
  loadConfig,
  loadConfigWithWarnings,
  onConfigWrite,
  parseConfigValue,
  previewConfigValue,
  setConfigValue,
  unsetConfigValue,
} from './config-file.js';
import { ConfigError } from './errors.js';
import { CONFIG_VERSION } from './schema.js';
import { loadSecrets, lookupSecret, setSecret } from './secrets.js';

const freshHome = (): HermesHome => new HermesHome(mkdtempSync(join(tmpdir(), 'cfg-'))).ensure();

describe('config.yaml', () => {
  it('fills defaults when the file is absent', () => {
    const c = loadConfig(freshHome());
    expect(c.approvals.mode).toBe('manual');
    expect(c.agent.max_turns).toBe(90);
    expect(c.memory.memory_char_limit).toBe(2200);
  });

  it('deep-merges a partial file over defaults and keeps unknown keys', () => {
    const home = freshHome();
    writeFileSync(
      home.configFile,
      `_config_version: ${CONFIG_VERSION}\napprovals:\n  timeout: 60\nmy_plugin: {x: 1}\n`,
    );
    const c = loadConfig(home);
    expect(c.approvals.timeout).toBe(60);
    expect(c.approvals.mode).toBe('manual');
    expect((c as Record<string, unknown>).my_plugin).toEqual({ x: 1 });
  });

  it('names the file and the key of a bad value, and leaves the file alone', () => {
    const home = freshHome();
    const text = `_config_version: ${CONFIG_VERSION}\napprovals:\n  mode: sometimes\n`;
    writeFileSync(home.configFile, text);
    let err: unknown;
    try {
      loadConfig(home);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('approvals.mode');
    expect((err as Error).message).toContain(home.configFile);
    expect(() => setConfigValue(home, 'agent.max_turns', 5)).toThrow(/approvals\.mode/);
    expect(readFileSync(home.configFile, 'utf8')).toBe(text);
  });

  it('reports unparsable YAML naming the file', () => {
    const home = freshHome();
    writeFileSync(home.configFile, 'model: [unclosed\n');
    expect(() => loadConfig(home)).toThrow(
      new RegExp(`${home.configFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid YAML`),
    );
  });

  it('names the line of a YAML error, without a dangling colon', () => {
    const home = freshHome();
    writeFileSync(home.configFile, 'model:\n  default: a\nmodel:\n  default: b\n');
    expect(() => loadConfig(home)).toThrow(
      /not valid YAML: Map keys must be unique at line 3, column 1: "model:"$/,
    );
  });

  it('migrates an old file after writing a backup', () => {
    const home = freshHome();
    writeFileSync(home.configFile, '# my settings\nmodel: gpt-4o\nprovider: openai\n');
    const c = loadConfig(home);
    expect(c.model.default).toBe('gpt-4o');
    expect(c.model.provider).toBe('openai');
    const backups = readdirSync(home.dir).filter((f) => f.startsWith('config.yaml.bak-v0-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(home.dir, backups[0]!), 'utf8')).toContain('model: gpt-4o');
    expect(statSync(join(home.dir, backups[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
    const migrated = readFileSync(home.configFile, 'utf8');
    expect(migrated).toContain('# my settings');
    expect(migrated).toContain(`_config_version: ${CONFIG_VERSION}`);
  });

  it('sets a dotted key keeping comments, with typed values', () => {
    const home = freshHome();
    writeFileSync(home.configFile, `# keep me\n_config_version: ${CONFIG_VERSION}\n`);
    setConfigValue(home, 'approvals.timeout', parseConfigValue('42'));
    setConfigValue(home, 'command_allowlist', parseConfigValue('[rm -rf build]'));
    const text = readFileSync(home.configFile, 'utf8');
    expect(text).toContain('# keep me');
    const c = loadConfig(home);
    expect(getConfigValue(c, 'approvals.timeout')).toBe(42);
    expect(c.command_allowlist).toEqual(['rm -rf build']);
    expect(getConfigValue(c, 'no.such.key')).toBeUndefined();
    expect(() => setConfigValue(home, 'approvals.timeout', 'soon')).toThrow(/approvals\.timeout/);
  });

  it('warns about old command_allowlist entries that approved a whole class (keys, descriptions)', () => {
    const home = freshHome();
    const entry = 'recursive-delete: rm -f -r [/p/build]';
    writeFileSync(
      home.configFile,
      `_config_version: ${CONFIG_VERSION}\ncommand_allowlist:\n  - recursive-delete\n  - "${entry}"\n  - git push origin main\n  - recursive delete (rm -r)\n`,
    );
    const { config, warnings } = loadConfigWithWarnings(home);
    expect(config.command_allowlist).toHaveLength(4); // kept as written
    expect(warnings.map((w) => [w.kind, w.key])).toEqual([
      ['allowlist_class', 'command_allowlist[0]'],
      ['allowlist_class', 'command_allowlist[3]'],
    ]);
    expect(warnings[0]!.message).toBe(
      `${home.configFile}: command_allowlist entry 'recursive-delete' approves a whole class and is no longer honoured; ` +
        'remove it with /permissions or `hermes config allowlist remove`',
    );
  });
});

describe('.env secrets', () => {
  it('parses into a map without touching process.env, written 0600', () => {
    const home = freshHome();
    setSecret(home, 'OPENAI_API_KEY', 'sk-test 123');
    setSecret(home, 'OTHER', 'x');
    expect(statSync(home.envFile).mode & 0o777).toBe(0o600);
    const s = loadSecrets(home);
    expect(s.OPENAI_API_KEY).toBe('sk-test 123');
    expect(process.env.OTHER).toBeUndefined();
    setSecret(home, 'OTHER', undefined);
    expect(loadSecrets(home).OTHER).toBeUndefined();
    expect(lookupSecret(loadSecrets(home), 'OPENAI_API_KEY', {})).toBe('sk-test 123');
    expect(lookupSecret({}, 'X', { X: 'from-env' })).toBe('from-env');
    expect(existsSync(home.envFile)).toBe(true);
  });

  it('keeps the other lines byte for byte, even in another encoding; a new value is UTF-8', () => {
    const home = freshHome();
    const latin1Line = Buffer.from('# caf\xe9 notes, not UTF-8\nOLD=1\n', 'latin1');
    writeFileSync(home.envFile, latin1Line, { mode: 0o600 });
    setSecret(home, 'NEW_KEY', 'naïve');
    const bytes = readFileSync(home.envFile);
    expect(bytes.subarray(0, latin1Line.length).equals(latin1Line)).toBe(true);
    expect(bytes.subarray(latin1Line.length).toString('utf8')).toBe('NEW_KEY="naïve"\n');
    expect(loadSecrets(home).NEW_KEY).toBe('naïve');
  });
});

describe('config keys', () => {
  it('refuses prototype keys', () => {
    const home = freshHome();
    expect(() => setConfigValue(home, '__proto__.polluted', 1)).toThrow(/not keys/);
    expect(() => setConfigValue(home, 'constructor.prototype.x', 1)).toThrow(/not keys/);
  });
});

describe('previewConfigValue and onConfigWrite', () => {
  it('a preview validates without writing; each write of this process is told with its key', () => {
    const home = freshHome();
    setConfigValue(home, 'approvals.mode', 'manual');
    const before = readFileSync(home.configFile, 'utf8');
    expect(previewConfigValue(home, 'approvals.mode', 'off').approvals.mode).toBe('off');
    expect(() => previewConfigValue(home, 'approvals.mode', 'sometimes')).toThrow(ConfigError);
    expect(readFileSync(home.configFile, 'utf8')).toBe(before);

    const seen: Array<[string, string, string]> = [];
    const stop = onConfigWrite((file, key, phase) => {
      seen.push([file, key, phase]);
      throw new Error('a listener that fails does not fail the write');
    });
    setConfigValue(home, 'approvals.timeout', 60);
    unsetConfigValue(home, 'approvals.timeout');
    stop();
    setConfigValue(home, 'approvals.timeout', 90);
    const f = home.configFile;
    expect(seen).toEqual([
      [f, 'approvals.timeout', 'before'],
      [f, 'approvals.timeout', 'after'],
      [f, 'approvals.timeout', 'before'],
      [f, 'approvals.timeout', 'after'],
    ]);
    expect(loadConfig(home).approvals.timeout).toBe(90);
  });
});
