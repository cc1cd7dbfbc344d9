// app-script.ts: the bundled app runs from a script with a V8 code cache beside it, written once,
// used while it matches the bundle, ignored (and replaced) when stale, corrupt or unwritable.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs';
import { cachePath, loadAppScript, yieldToInput } from './app-script.js';

const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A bundle script whose exports name `tag`, in a new folder; returns its path. */
function writeBundle(tag: string, dir?: string): string {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'hermes-app-script-'));
  if (!dir) dirs.push(d);
  const file = join(d, 'app.js');
  // enough functions for V8 to have something to cache
  const helpers = Array.from({ length: 50 }, (_, i) => `function h${i}(x) { return x * ${i} + 1; }`).join(
    '\n',
  );
  writeFileSync(
    file,
    `(async function (require, importLazy, importMetaUrl) {
${helpers}
const { basename } = require('node:path');
await null;
let sum = 0;
for (let i = 0; i < 50; i++) sum += eval('h' + i)(i);
return { tag: ${JSON.stringify(tag)}, name: basename(new URL(importMetaUrl).pathname), sum, lazy: await importLazy('pkg') };
})`,
  );
  return file;
}

type Exports = { tag: string; name: string; sum: number; lazy: unknown };

/** Loads `bundle` in a new Node process and saves the cache there: what it saw. */
function loadInChild(bundle: string): { tag: string; cached: boolean; saved: boolean } {
  const code = [
    `const { loadAppScript } = await import(${JSON.stringify(join(here, 'app-script.ts'))});`,
    `const app = await loadAppScript(${JSON.stringify(bundle)}, async () => null);`,
    'const saved = app.saveCache();',
    'process.stdout.write(JSON.stringify({ tag: app.exports.tag, cached: app.cached, saved }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { tag: string; cached: boolean; saved: boolean };
}
const lazy = async (name: string): Promise<unknown> => `lazy ${name}`;

describe('loadAppScript', () => {
  it('runs the script; the first run writes the cache, later runs use it and leave it', async () => {
    const bundle = writeBundle('one');
    const first = await loadAppScript<Exports>(bundle, lazy);
    expect(first.exports).toMatchObject({ tag: 'one', name: 'app.js', lazy: 'lazy pkg' });
    expect(first.cached).toBe(false);
    expect(existsSync(cachePath(bundle))).toBe(false);
    expect(first.saveCache()).toBe(true);
    expect(first.saveCache()).toBe(false); // once
    const written = statSync(cachePath(bundle)).mtimeMs;

    const second = await loadAppScript<Exports>(bundle, lazy);
    expect(second.cached).toBe(true);
    expect(second.exports.tag).toBe('one');
    expect(second.saveCache()).toBe(false);
    expect(statSync(cachePath(bundle)).mtimeMs).toBe(written);
  });

  it('ignores the cache of another build of the bundle, even of the same length, and replaces it', async () => {
    const bundle = writeBundle('one');
    const first = await loadAppScript<Exports>(bundle, lazy);
    first.saveCache();
    writeBundle('two', join(bundle, '..')); // same length, new content
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = await loadAppScript<Exports>(bundle, lazy);
    expect(rebuilt.exports.tag).toBe('two');
    expect(rebuilt.cached).toBe(false);
    expect(rebuilt.saveCache()).toBe(true);
    expect((await loadAppScript<Exports>(bundle, lazy)).cached).toBe(true);
  });

  it('runs without a cache V8 rejects (corrupt data) and writes a good one', () => {
    // in another process each time: V8 keeps compiled scripts per process, and would not read it
    const bundle = writeBundle('one');
    expect(loadInChild(bundle)).toEqual({ tag: 'one', cached: false, saved: true });
    expect(loadInChild(bundle)).toEqual({ tag: 'one', cached: true, saved: false });
    const file = readFileSync(cachePath(bundle));
    const nl = file.indexOf(10);
    writeFileSync(
      cachePath(bundle),
      Buffer.concat([file.subarray(0, nl + 1), Buffer.alloc(file.length - nl - 1, 7)]),
    );
    expect(loadInChild(bundle)).toEqual({ tag: 'one', cached: false, saved: true });
    expect(loadInChild(bundle)).toEqual({ tag: 'one', cached: true, saved: false });
  }, 30_000);

  it('a header-less or garbage cache file is ignored', async () => {
    const bundle = writeBundle('one');
    writeFileSync(cachePath(bundle), 'not a cache');
    expect((await loadAppScript<Exports>(bundle, lazy)).cached).toBe(false);
    writeFileSync(cachePath(bundle), '{"size":1}\nxx');
    expect((await loadAppScript<Exports>(bundle, lazy)).cached).toBe(false);
  });

  it('a cache that cannot be written is skipped without an error, leaving no temporary file', async () => {
    const bundle = writeBundle('one');
    mkdirSync(cachePath(bundle)); // a folder where the file would go
    const app = await loadAppScript<Exports>(bundle, lazy);
    expect(app.saveCache()).toBe(false);
    expect(statSync(cachePath(bundle)).isDirectory()).toBe(true);
    expect(existsSync(`${cachePath(bundle)}.${process.pid}.tmp`)).toBe(false);
  });

  it('does not label a cache of the bundle it ran with a bundle rewritten meanwhile', async () => {
    const bundle = writeBundle('one');
    const app = await loadAppScript<Exports>(bundle, lazy);
    writeBundle('two', join(bundle, '..'));
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    expect(app.saveCache()).toBe(false);
    expect(existsSync(cachePath(bundle))).toBe(false);
  });
});

describe('yieldToInput', () => {
  it('called from an I/O callback, resolves only after the event loop went round (timers, poll)', async () => {
    const order: string[] = [];
    await new Promise<void>((done) => {
      readFile(fileURLToPath(import.meta.url), () => {
        // an immediate alone would run before this timer, in the same loop iteration
        setTimeout(() => order.push('timer'), 0);
        void yieldToInput().then(() => {
          order.push('yielded');
          done();
        });
      });
    });
    expect(order).toEqual(['timer', 'yielded']);
  });
});
