import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { CONFIG_CACHE_FILE, loadConfigCached } from './config-cache.js';
import { ConfigError } from './errors.js';

/** A home with this config.yaml, already migrated to the current version (a load rewrites it once). */
async function home(config?: string): Promise<HermesHome> {
  const h = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-config-cache-'))).ensure();
  if (config !== undefined) {
    writeFileSync(h.configFile, config);
    await loadConfigCached(h, undefined);
  }
  return h;
}

const cacheOf = (h: HermesHome): { key: string; value: { config: { model: { default: string } } } } =>
  JSON.parse(readFileSync(h.path(CONFIG_CACHE_FILE), 'utf8'));

describe('loadConfigCached', () => {
  it('without a build id validates every time and writes no cache', async () => {
    const h = await home('model:\n  default: a/b\n');
    expect((await loadConfigCached(h, undefined)).config.model.default).toBe('a/b');
    expect(existsSync(h.path(CONFIG_CACHE_FILE))).toBe(false);
  });

  it('serves an unchanged config.yaml from the 0600 cache written by the same build', async () => {
    const h = await home('model:\n  default: a/b\n');
    await loadConfigCached(h, 'b1');
    expect(statSync(h.path(CONFIG_CACHE_FILE)).mode & 0o777).toBe(0o600);
    // prove the second load reads the cache: change the cached value under the same key
    const entry = cacheOf(h);
    entry.value.config.model.default = 'from/cache';
    writeFileSync(h.path(CONFIG_CACHE_FILE), JSON.stringify(entry));
    expect((await loadConfigCached(h, 'b1')).config.model.default).toBe('from/cache');
    // another build validates the file again
    expect((await loadConfigCached(h, 'b2')).config.model.default).toBe('a/b');
  });

  it('re-validates after any edit of config.yaml, even one of the same size', async () => {
    const h = await home('model:\n  default: a/b\n');
    expect((await loadConfigCached(h, 'b1')).config.model.default).toBe('a/b');
    writeFileSync(h.configFile, readFileSync(h.configFile, 'utf8').replace('a/b', 'c/d'));
    expect((await loadConfigCached(h, 'b1')).config.model.default).toBe('c/d');
  });

  it('keeps the warnings of unknown keys in the cached entry', async () => {
    const h = await home('modle:\n  default: x\n');
    const first = await loadConfigCached(h, 'b1');
    const second = await loadConfigCached(h, 'b1');
    expect(first.warnings.map((w) => w.key)).toEqual(['modle']);
    expect(second.warnings).toEqual(first.warnings);
  });

  it('caches the absence of config.yaml and notices when it appears', async () => {
    const h = await home();
    const defaults = (await loadConfigCached(h, 'b1')).config.model.default;
    writeFileSync(h.configFile, 'model:\n  default: now/set\n');
    expect((await loadConfigCached(h, 'b1')).config.model.default).toBe('now/set');
    expect(defaults).not.toBe('now/set');
  });

  it('a damaged cache file is ignored and rewritten', async () => {
    const h = await home('model:\n  default: a/b\n');
    writeFileSync(h.path(CONFIG_CACHE_FILE), '{not json');
    expect((await loadConfigCached(h, 'b1')).config.model.default).toBe('a/b');
    expect(cacheOf(h).value.config.model.default).toBe('a/b');
  });

  it('a broken config.yaml still fails with ConfigError naming the key, and is never cached', async () => {
    const h = await home('model:\n  default: a/b\n');
    await loadConfigCached(h, 'b1');
    writeFileSync(h.configFile, 'agent:\n  max_turns: lots\n');
    await expect(loadConfigCached(h, 'b1')).rejects.toThrow(ConfigError);
    await expect(loadConfigCached(h, 'b1')).rejects.toThrow(/max_turns/);
  });
});
