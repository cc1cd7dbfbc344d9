import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_PLATFORMS, loadBundledPlatform, platformPackage } from './bundled.js';

const PLUGINS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../plugins/platforms');

/** Folders under plugins/platforms holding a package. */
function pluginFolders(): string[] {
  return readdirSync(PLUGINS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(PLUGINS, d.name, 'package.json')))
    .map((d) => d.name)
    .sort();
}

describe('bundled platforms', () => {
  it('lists exactly the plugin folders (a new folder needs its name in BUNDLED_PLATFORMS)', () => {
    expect([...BUNDLED_PLATFORMS].sort()).toEqual(pluginFolders());
  });

  it.each(pluginFolders())('%s: package name, build config and definition match the folder', async (name) => {
    const pkg = JSON.parse(readFileSync(join(PLUGINS, name, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    expect(pkg.name).toBe(platformPackage(name));
    expect(existsSync(join(PLUGINS, name, 'tsconfig.json'))).toBe(true);
    const platform = await loadBundledPlatform(name);
    expect(platform?.name).toBe(name);
    expect(typeof platform?.createAdapter).toBe('function');
    // a definePlatform() definition carries its settings schema and validation
    expect(typeof platform?.validateConfig).toBe('function');
  });
});
