/**
 * The .env writer across processes: several processes setting different variables of one home
 * at the same moment (the daemon's secrets.set next to `hermes auth add`) lose none of them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecrets } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'support', 'env-writer-child.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(home: string, prefix: string, count: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@hermes/source', '--import', 'tsx', CHILD, home, prefix, String(count)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

describe('.env writer across processes', () => {
  it('four processes setting 25 variables each at once: all 100 arrive, 0600, no lock left', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-envrace-'));
    dirs.push(root);
    const home = new HermesHome(root).ensure();
    writeFileSync(home.envFile, '# keys\nKEEP=me\n', { mode: 0o600 });
    const codes = await Promise.all(['A', 'B', 'C', 'D'].map((p) => run(root, p, 25)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const secrets = loadSecrets(home);
    const missing = ['A', 'B', 'C', 'D'].flatMap((p) =>
      Array.from({ length: 25 }, (_, i) => `${p}_${i}`).filter(
        (k) => secrets[k] !== `value ${p} ${k.slice(2)}`,
      ),
    );
    expect(missing).toEqual([]);
    expect(secrets.KEEP).toBe('me');
    expect(statSync(home.envFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(root).filter((f) => f.includes('.env.') || f.endsWith('.lock'))).toEqual([]);
  }, 60_000);
});
