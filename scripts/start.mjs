#!/usr/bin/env node
/**
 * `npm start [-- ARGS]`: builds only when a source is newer than the build, then runs
 * `hermes ARGS` (default `tui`) in this same process (no second Node start-up), in the folder
 * `npm start` was typed in.
 *
 * Fresh means: both bundles exist and the older of them is at least as new as the newest source
 * file (TypeScript sources other than tests, the packages' package.json and
 * tsconfig files, the bundle scripts). `npm run build` runs otherwise; a failed build stops here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** mtime (ms) of a file, undefined when it is missing. */
function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Package folders (relative to `root`) whose sources go into the build. */
function packages(root) {
  const plugins = readdirSync(join(root, 'plugins', 'platforms'), { withFileTypes: true })
    .filter(
      (e) =>
        e.isDirectory() && mtime(join(root, 'plugins', 'platforms', e.name, 'tsconfig.json')) !== undefined,
    )
    .map((e) => join('plugins', 'platforms', e.name));
  return ['core', 'client', 'tui-gateway', 'ui-tui', 'bin', ...plugins];
}

/** Newest mtime (ms) of the files under `dir` that the build reads; 0 when none. */
function newestSource(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (!e.isFile() || !/\.(ts|tsx|mts|mjs|json)$/.test(e.name) || /\.test\.tsx?$/.test(e.name)) continue;
    const m = mtime(join(e.parentPath ?? e.path, e.name)) ?? 0;
    if (m > newest) newest = m;
  }
  return newest;
}

/**
 * Whether the build outputs under `root` (default: this checkout) are at least as new as every
 * source; `{fresh: false, why}` says what is missing or that sources changed.
 */
export function buildIsFresh(root = repo) {
  const pkgs = packages(root);
  // the bundles are written by every build, after every package compiled (tsc -b leaves the
  // outputs of an unchanged package as they were, so those tell nothing)
  const outputs = ['bin/dist/bundle/main.js', 'ui-tui/dist/bundle/app.js'];
  let oldest = Infinity;
  for (const o of outputs) {
    const m = mtime(join(root, o));
    if (m === undefined) return { fresh: false, why: `${o} is missing` };
    oldest = Math.min(oldest, m);
  }
  const sources = pkgs.flatMap((p) => [join(p, 'src'), join(p, 'scripts')]);
  const tops = pkgs.flatMap((p) => [join(p, 'package.json'), join(p, 'tsconfig.json')]);
  tops.push('tsconfig.base.json', 'package.json', 'scripts/esbuild-node-esm.mjs');
  let newest = 0;
  for (const s of sources) newest = Math.max(newest, newestSource(join(root, s)));
  for (const t of tops) newest = Math.max(newest, mtime(join(root, t)) ?? 0);
  return newest <= oldest ? { fresh: true } : { fresh: false, why: 'sources changed since the last build' };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const state = buildIsFresh();
  if (!state.fresh) {
    process.stderr.write(`hermes: building (${state.why})…\n`);
    const npm = process.env.npm_execpath;
    const r = npm
      ? spawnSync(process.execPath, [npm, 'run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const bin = join(repo, 'bin', 'hermes');
  // npm runs scripts in the package folder: the TUI works in the folder `npm start` was typed in
  if (process.env.INIT_CWD) {
    try {
      process.chdir(process.env.INIT_CWD);
    } catch {
      // gone meanwhile: stay here
    }
  }
  const args = process.argv.slice(2);
  process.argv = [process.argv[0], bin, ...(args.length ? args : ['tui'])];
  await import(pathToFileURL(bin).href);
}
