/**
 * The repository's own start-up scripts (run `npm run build` first): `npm start`
 * (scripts/start.mjs) builds only when a source is newer than the bundles, and `npm run link`
 * (scripts/link.mjs) puts `hermes` on PATH without sudo.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function temp(): string {
  const t = mkdtempSync(join(tmpdir(), 'hermes-scripts-'));
  temps.push(t);
  return t;
}

type Fresh = { fresh: boolean; why?: string };
async function startModule(): Promise<{ buildIsFresh: (root?: string) => Fresh }> {
  return (await import(pathToFileURL(join(repo, 'scripts', 'start.mjs')).href)) as {
    buildIsFresh: (root?: string) => Fresh;
  };
}

/** A tree shaped like the repository: one package with a source, and both bundles. */
function fakeTree(): string {
  const root = temp();
  for (const p of ['core', 'client', 'tui-gateway', 'ui-tui', 'bin', 'plugins/platforms/irc']) {
    mkdirSync(join(root, p, 'src'), { recursive: true });
    writeFileSync(join(root, p, 'tsconfig.json'), '{}');
  }
  writeFileSync(join(root, 'ui-tui/src/app.ts'), 'export {};');
  writeFileSync(join(root, 'ui-tui/src/app.test.ts'), 'export {};');
  mkdirSync(join(root, 'bin/dist/bundle'), { recursive: true });
  mkdirSync(join(root, 'ui-tui/dist/bundle'), { recursive: true });
  const old = new Date(Date.now() - 60_000);
  for (const f of ['ui-tui/src/app.ts', 'ui-tui/src/app.test.ts', 'ui-tui/tsconfig.json'])
    utimesSync(join(root, f), old, old);
  for (const p of ['core', 'client', 'tui-gateway', 'bin', 'plugins/platforms/irc'])
    utimesSync(join(root, p, 'tsconfig.json'), old, old);
  writeFileSync(join(root, 'bin/dist/bundle/main.js'), '');
  writeFileSync(join(root, 'ui-tui/dist/bundle/app.js'), '');
  return root;
}

describe('npm start', () => {
  it('is fresh when the bundles are newer than every source; a changed source or a missing bundle is not', async () => {
    const { buildIsFresh } = await startModule();
    const root = fakeTree();
    expect(buildIsFresh(root)).toEqual({ fresh: true });
    // a test file is no build input
    utimesSync(join(root, 'ui-tui/src/app.test.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(buildIsFresh(root)).toEqual({ fresh: true });
    utimesSync(join(root, 'ui-tui/src/app.ts'), new Date(), new Date(Date.now() + 60_000));
    expect(buildIsFresh(root)).toEqual({ fresh: false, why: 'sources changed since the last build' });
    rmSync(join(root, 'bin/dist/bundle/main.js'));
    expect(buildIsFresh(root)).toEqual({ fresh: false, why: 'bin/dist/bundle/main.js is missing' });
  });

  it('runs hermes without building when the build is fresh', async () => {
    const { buildIsFresh } = await startModule();
    expect(buildIsFresh(), 'run `npm run build` first').toEqual({ fresh: true });
    const out = execFileSync(process.execPath, [join(repo, 'scripts', 'start.mjs'), '--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toMatch(/^hermes \d+\.\d+\.\d+/);
  });
});

describe('npm run link', () => {
  it('links hermes into ~/.local/bin and says when that folder is not on PATH', () => {
    const home = temp();
    const run = (path: string): string =>
      execFileSync(process.execPath, [join(repo, 'scripts', 'link.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, HOME: home, XDG_BIN_HOME: '', PATH: path },
      });
    const bin = join(home, '.local', 'bin');
    expect(run('/usr/bin:/bin')).toContain(`${bin} is not on your PATH`);
    expect(readlinkSync(join(bin, 'hermes'))).toBe(join(repo, 'bin', 'hermes'));
    expect(readlinkSync(join(bin, 'hermes-status-line'))).toBe(join(repo, 'bin', 'hermes-status-line'));
    // again, with the folder on PATH: the same link, no advice
    expect(run(`${bin}:/usr/bin:/bin`)).not.toContain('not on your PATH');
    const version = execFileSync(join(bin, 'hermes'), ['--version'], { encoding: 'utf8' });
    expect(version).toMatch(/^hermes /);
  });
});

describe('the bundle folder across rebuilds (scripts/bundle-outputs.mjs)', () => {
  type Prune = (outdir: string, written: string[], now?: number, keepMs?: number) => string[];
  const prune = async (): Promise<Prune> =>
    (
      (await import(pathToFileURL(join(repo, 'scripts', 'bundle-outputs.mjs')).href)) as {
        pruneSuperseded: Prune;
      }
    ).pruneSuperseded;

  it('keeps the chunks of an earlier build for a running daemon, deletes them once long superseded', async () => {
    const pruneSuperseded = await prune();
    const dir = temp();
    for (const f of ['main.js', 'chunk-OLD.js', 'chunk-SAME.js', 'chunk-NEW.js'])
      writeFileSync(join(dir, f), '');
    const day = 24 * 3600 * 1000;
    const t0 = Date.UTC(2026, 0, 1);
    // a rebuild that no longer writes chunk-OLD.js: it stays
    expect(
      pruneSuperseded(dir, [join(dir, 'main.js'), 'chunk-SAME.js', 'chunk-NEW.js'], t0, 30 * day),
    ).toEqual([]);
    expect(existsSync(join(dir, 'chunk-OLD.js'))).toBe(true);
    // still kept 29 days later, counted from when it was superseded (not from a later build)
    expect(pruneSuperseded(dir, ['main.js', 'chunk-SAME.js'], t0 + 29 * day, 30 * day)).toEqual([]);
    expect(existsSync(join(dir, 'chunk-OLD.js'))).toBe(true);
    // past the keeping time it goes; chunk-NEW.js, superseded only at the second build, stays
    expect(pruneSuperseded(dir, ['main.js', 'chunk-SAME.js'], t0 + 31 * day, 30 * day)).toEqual([
      'chunk-OLD.js',
    ]);
    expect(existsSync(join(dir, 'chunk-NEW.js'))).toBe(true);
    expect(existsSync(join(dir, 'main.js'))).toBe(true);
  });
});
