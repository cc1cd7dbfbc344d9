import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withoutGlobalFetch } from './load-quietly.js';

/** Loads yoga-layout in a fresh Node process; tells whether Node's HTTP client got loaded. */
function undiciLoadedByYoga(quietly: boolean): { undici: boolean; fetch: string } {
  // inside the package, so that `yoga-layout` resolves from its node_modules
  const pkg = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(pkg, '.load-quietly-'));
  try {
    const script = join(dir, 'probe.mjs');
    const helper = pathToFileURL(fileURLToPath(new URL('./load-quietly.ts', import.meta.url))).href;
    writeFileSync(
      script,
      `import { withoutGlobalFetch } from ${JSON.stringify(helper)};
       const load = () => import('yoga-layout');
       await (${quietly} ? withoutGlobalFetch(load) : load());
       process.stdout.write(JSON.stringify({
         undici: process.moduleLoadList.some((m) => m.includes('undici')),
         fetch: typeof fetch,
       }));`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      cwd: pkg,
    });
    return JSON.parse(out) as { undici: boolean; fetch: string };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('withoutGlobalFetch', () => {
  it('hides fetch while loading and puts it back, also after a failure', async () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
    const seen = await withoutGlobalFetch(async () => typeof globalThis.fetch);
    expect(seen).toBe('undefined');
    expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toEqual(before);
    await expect(withoutGlobalFetch(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(typeof globalThis.fetch).toBe('function');
  });

  it('loads Yoga without loading Node’s HTTP client', () => {
    expect(undiciLoadedByYoga(false).undici).toBe(true); // what it avoids
    expect(undiciLoadedByYoga(true)).toEqual({ undici: false, fetch: 'function' });
  });
});
