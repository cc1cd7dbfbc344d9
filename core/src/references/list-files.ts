/**
 * Listing the files of a folder for `@` completion, streamed: each engine calls `onFiles` with
 * batches of paths (relative, `/`-separated) as they are found, so completion can answer before
 * a large tree is fully listed.
 *
 * Engines, first that applies: ripgrep (`rg --files`: .gitignore, .ignore and global git
 * excludes, also outside a git repository), `git ls-files` (tracked plus untracked files not
 * ignored) inside a work tree, else a walk in JavaScript applying every `.gitignore` on the way
 * with the `ignore` package. Each skips `.git` and `node_modules`; hidden files are listed.
 */
import { spawn } from 'node:child_process';
import { opendir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import ignoreModule, { type Ignore } from 'ignore';
import { hasRipgrep } from '../tools/search-files.js';

/** How a listing is made. `auto`: rg, else git, else js. */
export type ListEngine = 'auto' | 'rg' | 'git' | 'js';

/** Folders never listed. */
export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** Options of `listFiles`. */
export interface ListOptions {
  engine?: ListEngine;
  /** Stop after this many files (default 200,000). */
  maxFiles?: number;
  signal?: AbortSignal;
  /**
   * A folder above `root` whose `.gitignore` files (and those between it and `root`) apply too,
   * as they do for rg and git: the session's folder when listing one of its sub-folders.
   */
  ignoreFrom?: string;
}

/** Default cap on listed files. */
export const LIST_MAX_FILES = 200_000;

/**
 * Lists the files under `root`, calling `onFiles` with each batch.
 * @returns the engine that listed them and whether the cap cut the listing.
 */
export async function listFiles(
  root: string,
  onFiles: (batch: string[]) => void,
  opts: ListOptions = {},
): Promise<{ engine: Exclude<ListEngine, 'auto'>; capped: boolean }> {
  const max = opts.maxFiles ?? LIST_MAX_FILES;
  const engine = opts.engine ?? 'auto';
  if (engine === 'rg' || (engine === 'auto' && hasRipgrep())) {
    const args = [
      '--files',
      '--hidden',
      '--no-require-git',
      '--no-messages',
      '-g',
      '!.git',
      '-g',
      '!node_modules',
    ];
    return { engine: 'rg', capped: await streamLines('rg', args, root, '\n', onFiles, max, opts.signal) };
  }
  if (engine === 'git' || (engine === 'auto' && (await insideGitWorkTree(root)))) {
    const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'];
    const skip = (p: string): boolean => p.split('/').some((s) => ALWAYS_SKIPPED.has(s));
    const capped = await streamLines(
      'git',
      args,
      root,
      '\0',
      (b) => onFiles(b.filter((p) => !skip(p))),
      max,
      opts.signal,
    );
    return { engine: 'git', capped };
  }
  return { engine: 'js', capped: await walk(root, onFiles, max, opts.signal, opts.ignoreFrom) };
}

/** True when `dir` is inside a git work tree (and git is installed). */
export async function insideGitWorkTree(dir: string): Promise<boolean> {
  let out = '';
  const ok = await new Promise<boolean>((done) => {
    const p = spawn('git', ['rev-parse', '--is-inside-work-tree'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', () => done(false));
    p.on('close', (code) => done(code === 0));
  });
  return ok && out.trim() === 'true';
}

/** Runs a program and hands its output's separated items to `onFiles`; true when `max` cut it. */
function streamLines(
  cmd: string,
  args: string[],
  cwd: string,
  sep: string,
  onFiles: (batch: string[]) => void,
  max: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], ...(signal ? { signal } : {}) });
    let rest = '';
    let count = 0;
    let capped = false;
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (chunk: string) => {
      if (capped) return;
      const parts = (rest + chunk).split(sep);
      rest = parts.pop() ?? '';
      let batch = parts.filter((s) => s !== '').map((s) => (s.startsWith('./') ? s.slice(2) : s));
      if (count + batch.length >= max) {
        batch = batch.slice(0, max - count);
        capped = true;
        p.kill();
      }
      count += batch.length;
      if (batch.length) onFiles(batch);
    });
    p.on('error', (err) => reject(err));
    p.on('close', () => {
      if (!capped && rest) onFiles([rest]);
      resolve(capped);
    });
  });
}

// a CommonJS module whose typings declare an ES default: its export is the factory itself
const ignore = ignoreModule as unknown as (typeof ignoreModule)['default'];

interface Rules {
  /** Folder (relative to the root, `''` for the root) whose `.gitignore` these are. */
  base: string;
  /** For a folder above the root: the root's path relative to it (`''` otherwise). */
  above: string;
  ig: Ignore;
}

/** The `.gitignore` rules of the folders from `top` down to `root`'s parent (`top` above `root`). */
async function rulesAbove(root: string, top: string | undefined): Promise<Rules[]> {
  if (!top) return [];
  const rel = relative(top, root);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [];
  const parts = rel.split(sep);
  const out: Rules[] = [];
  for (let i = 0; i < parts.length; i++) {
    const dir = join(top, ...parts.slice(0, i));
    const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => undefined);
    if (text !== undefined) out.push({ base: '', above: parts.slice(i).join('/'), ig: ignore().add(text) });
  }
  return out;
}

/**
 * Walks `root` applying each folder's `.gitignore` to what lies under it (and those of the
 * folders from `ignoreFrom` down). True when capped.
 */
async function walk(
  root: string,
  onFiles: (batch: string[]) => void,
  max: number,
  signal?: AbortSignal,
  ignoreFrom?: string,
): Promise<boolean> {
  let count = 0;
  const visit = async (rel: string, rules: Rules[]): Promise<boolean> => {
    if (signal?.aborted) return false;
    const abs = rel ? join(root, rel) : root;
    const own = await readFile(join(abs, '.gitignore'), 'utf8').then(
      (t) => [...rules, { base: rel, above: '', ig: ignore().add(t) }],
      () => rules,
    );
    const ignored = (path: string, dir: boolean): boolean =>
      own.some((r) => {
        const sub = r.above ? `${r.above}/${path}` : r.base ? path.slice(r.base.length + 1) : path;
        return sub !== '' && r.ig.ignores(dir ? `${sub}/` : sub);
      });
    let handle;
    try {
      handle = await opendir(abs);
    } catch {
      return false;
    }
    const files: string[] = [];
    const dirs: string[] = [];
    for await (const e of handle) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!ALWAYS_SKIPPED.has(e.name) && !ignored(path, true)) dirs.push(path);
      } else if ((e.isFile() || e.isSymbolicLink()) && !ignored(path, false)) {
        files.push(path);
      }
    }
    if (count + files.length >= max) {
      onFiles(files.slice(0, max - count));
      count = max;
      return true;
    }
    count += files.length;
    if (files.length) onFiles(files);
    for (const d of dirs.sort()) if (await visit(d, own)) return true;
    return false;
  };
  return visit('', await rulesAbove(root, ignoreFrom));
}
