import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HermesHome } from '../home/home.js';
import { loadConfig, loadConfigWithWarnings } from './config-file.js';
import { openSections } from './open-sections.js';
import { CONFIG_VERSION, ConfigSchema } from './schema.js';
import { closestKey, editDistance, findUnknownKeys } from './unknown-keys.js';

const freshHome = (): HermesHome => new HermesHome(mkdtempSync(join(tmpdir(), 'cfg-unknown-'))).ensure();

describe('findUnknownKeys', () => {
  it('reports a typo of a top-level key with a suggestion', () => {
    expect(findUnknownKeys({ modle: { default: 'x' } }, ConfigSchema)).toEqual([
      { path: 'modle', suggestion: 'model' },
    ]);
  });

  it('reports unknown nested keys of a known section with the full path', () => {
    const found = findUnknownKeys(
      { model: { defualt: 'gpt' }, approvals: { mode: 'manual', timout: 5 }, compression: { zzz: 1 } },
      ConfigSchema,
    );
    expect(found).toEqual([
      { path: 'model.defualt', suggestion: 'model.default' },
      { path: 'approvals.timout', suggestion: 'approvals.timeout' },
      { path: 'compression.zzz' },
    ]);
  });

  it('reports nothing for a file of known keys only', () => {
    const data = {
      _config_version: CONFIG_VERSION,
      model: { default: 'm', provider: 'openai', timeout: 30 },
      approvals: { mode: 'off' },
      fallback_providers: [{ provider: 'openai', model: 'x' }],
      gateway: { session_reset: { mode: 'none' } },
      cron: { tick_interval: 5 },
    };
    expect(findUnknownKeys(data, ConfigSchema)).toEqual([]);
  });

  it('walks array items and nested objects below records', () => {
    const found = findUnknownKeys(
      {
        fallback_providers: [{ provider: 'openai' }, { provider: 'openai', modle: 'x' }],
        gateway: { session_reset: { mdoe: 'none' } },
      },
      ConfigSchema,
    );
    expect(found).toEqual([
      { path: 'fallback_providers[1].modle', suggestion: 'fallback_providers[1].model' },
      { path: 'gateway.session_reset.mdoe', suggestion: 'gateway.session_reset.mode' },
    ]);
  });

  it('leaves plugin-owned sections and open maps alone', () => {
    const data = {
      platforms: {
        irc: { enabled: true, server: 'irc.example', channels: ['#a'] },
        mybot: { token_file: 'x' },
      },
      mcp_servers: { files: { command: 'npx', args: [], whatever: 1 } },
    };
    expect(findUnknownKeys(data, ConfigSchema)).toEqual([]);
  });

  it('takes the known keys from the schema it is given, and respects openSections marks', () => {
    const inner = z.looseObject({ a: z.number() });
    const open = z.looseObject({ b: z.number() }).register(openSections, { owner: 'test' });
    const schema = z.looseObject({ inner: inner.optional(), open: open.optional() });
    expect(findUnknownKeys({ inner: { a: 1, c: 2 }, open: { c: 3 }, top: 1 }, schema)).toEqual([
      { path: 'inner.c' },
      { path: 'top' },
    ]);
  });

  it('ignores values that are not objects where the schema expects one', () => {
    expect(findUnknownKeys({ model: 'a string' }, ConfigSchema)).toEqual([]);
    expect(findUnknownKeys(null, ConfigSchema)).toEqual([]);
  });
});

describe('closestKey / editDistance', () => {
  it('counts a transposition as one edit, ignoring case and - vs _', () => {
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('Model', 'model')).toBe(0);
    expect(editDistance('command-allowlist', 'command_allowlist')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests only close keys', () => {
    const known = ['model', 'memory', 'approvals', 'compression'];
    expect(closestKey('modle', known)).toBe('model');
    expect(closestKey('approval', known)).toBe('approvals');
    expect(closestKey('compresion', known)).toBe('compression');
    expect(closestKey('weather', known)).toBeUndefined();
    expect(closestKey('mod', known)).toBeUndefined();
  });
});

describe('loadConfigWithWarnings', () => {
  it('names the file and the key, suggests the known key, and keeps the value', () => {
    const home = freshHome();
    writeFileSync(
      home.configFile,
      `_config_version: ${CONFIG_VERSION}\nmodle:\n  default: gpt-x\nmodel:\n  defualt: gpt-y\n`,
    );
    const { config, warnings } = loadConfigWithWarnings(home);
    expect(warnings.map((w) => [w.key, w.suggestion])).toEqual([
      ['modle', 'model'],
      ['model.defualt', 'model.default'],
    ]);
    expect(warnings[0]!.file).toBe(home.configFile);
    expect(warnings[0]!.message).toContain(home.configFile);
    expect(warnings[0]!.message).toContain('unknown key "modle"');
    expect(warnings[0]!.message).toContain('did you mean "model"?');
    // kept, not dropped: in the loaded config and in the file
    expect((config as Record<string, unknown>).modle).toEqual({ default: 'gpt-x' });
    expect((config.model as Record<string, unknown>).defualt).toBe('gpt-y');
    expect(readFileSync(home.configFile, 'utf8')).toContain('modle:');
    expect(loadConfig(home).model.default).toBe('');
  });

  it('has no warnings without a file or for a clean file', () => {
    const home = freshHome();
    expect(loadConfigWithWarnings(home).warnings).toEqual([]);
    writeFileSync(home.configFile, `_config_version: ${CONFIG_VERSION}\nmodel:\n  default: m\n`);
    expect(loadConfigWithWarnings(home).warnings).toEqual([]);
  });

  it('checks the migrated document, so keys moved by a migration are not reported', () => {
    const home = freshHome();
    writeFileSync(home.configFile, 'model: gpt-old\nprovider: openai\nmemroy: {}\n');
    const { config, warnings } = loadConfigWithWarnings(home);
    expect(config.model.provider).toBe('openai');
    expect(warnings.map((w) => w.key)).toEqual(['memroy']);
    expect(warnings[0]!.suggestion).toBe('memory');
  });
});
