/**
 * A profile archive that inflates to more than 3 GiB (a gzip stream of zeros written as tar
 * members, generated streaming: never 3 GiB on disk) is refused by `hermes profile import` with
 * the cap named, while the import process stays under 200 MB of memory and leaves no staging
 * folder behind. Run `npm run build` first.
 */
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { Header } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestHome, spawnHermes } from './support/hermes-cli.js';

const MIB = 1024 * 1024;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function header(path: string, size: number, type: 'File' | 'Directory'): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, size, type, mode: type === 'File' ? 0o644 : 0o755, mtime: new Date(0) }).encode(block);
  return block;
}

/** Writes `<dir>/bomb.tar.gz`: folder `bomb/`, then `members` files of `memberBytes` zeros each. */
async function writeBomb(dir: string, members: number, memberBytes: number): Promise<string> {
  const file = join(dir, 'bomb.tar.gz');
  const out = createWriteStream(file);
  const gz = createGzip({ level: 1 });
  gz.pipe(out);
  const write = async (b: Buffer): Promise<void> => {
    if (!gz.write(b)) await once(gz, 'drain');
  };
  await write(header('bomb/', 0, 'Directory'));
  const zeros = Buffer.alloc(4 * MIB);
  for (let i = 0; i < members; i++) {
    await write(header(`bomb/zeros-${i}.bin`, memberBytes, 'File'));
    for (let left = memberBytes; left > 0; left -= zeros.length)
      await write(zeros.subarray(0, Math.min(left, zeros.length)));
  }
  await write(Buffer.alloc(1024)); // end of archive
  gz.end();
  await once(out, 'close');
  return file;
}

/** Peak resident memory of a running process so far, bytes (0 once it is gone). */
function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

describe('profile import of an archive bomb', () => {
  it('is refused with the total size cap named, under 200 MB of memory, nothing left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-bomb-'));
    dirs.push(dir);
    const inflated = 8 * 400 * MIB; // 3.125 GiB
    const started = Date.now();
    const file = await writeBomb(dir, 8, 400 * MIB);
    const compressed = statSync(file).size;
    const root = makeTestHome();
    dirs.push(root);
    const run = spawnHermes(root, ['profile', 'import', file]);
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, peakRss(run.child.pid!))), 25);
    const done = await run.exited;
    clearInterval(poll);
    console.log(
      `bomb: ${(compressed / MIB).toFixed(1)} MiB inflating to ${(inflated / MIB).toFixed(0)} MiB ` +
        `(made in ${Date.now() - started} ms); import exit ${done.code}, peak RSS ${(peak / MIB).toFixed(0)} MiB`,
    );
    expect(inflated).toBeGreaterThanOrEqual(3 * 1024 * MIB);
    expect(done.code).not.toBe(0);
    expect(done.stderr + done.stdout).toMatch(/total inflated size cap/);
    expect(done.stderr + done.stdout).toContain(file);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(200 * 1000 * 1000);
    const profiles = join(root, 'profiles');
    expect(existsSync(profiles) ? readdirSync(profiles) : []).toEqual([]);
  }, 60_000);
});
