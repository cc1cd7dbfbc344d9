/** `model.pricing` in config.yaml: read as USD per million tokens; a bad value names the key. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-file.js';
import { HermesHome } from '../home/home.js';

const homeWith = (yaml: string): HermesHome => {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'cfg-pricing-'))).ensure();
  writeFileSync(home.configFile, yaml);
  return home;
};

describe('model.pricing', () => {
  it('is absent by default and read when set', () => {
    expect(loadConfig(homeWith('model:\n  default: x\n')).model.pricing).toBeUndefined();
    const c = loadConfig(
      homeWith('model:\n  default: x\n  pricing: {input: 0.5, output: 1.5, cache_read: 0.05}\n'),
    );
    expect(c.model.pricing).toEqual({ input: 0.5, output: 1.5, cache_read: 0.05 });
  });

  it('refuses a negative price, a missing output price or an unknown field, naming the key', () => {
    expect(() => loadConfig(homeWith('model:\n  pricing: {input: -1, output: 1}\n'))).toThrow(
      /model\.pricing\.input/,
    );
    expect(() => loadConfig(homeWith('model:\n  pricing: {input: 1}\n'))).toThrow(/model\.pricing\.output/);
    expect(() => loadConfig(homeWith('model:\n  pricing: {input: 1, output: 1, per_request: 2}\n'))).toThrow(
      /model\.pricing/,
    );
  });
});
