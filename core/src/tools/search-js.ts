/**
 * The pure-JavaScript engine of `search_files`, used when ripgrep (`rg`) is not installed.
 *
 * Same rules as the rg engine as far as practical: hidden files and folders, `node_modules` and
 * `.git` are skipped; the search root's own `.gitignore` is applied (simple patterns: names,
 * `dir/`, `/anchored`, `a/b`, globs; negations `!x` are ignored, and `.gitignore` files of parent
 * or sub folders are not read, unlike rg); files over 10 MB and binary files are skipped in
 * content searches; regexes use JavaScript syntax (rg's Rust syntax is nearly the same).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { looksBinary } from './read-file.js';

/** Folders never searched. */
export const ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**'];
/** Files larger than this are skipped in content searches, bytes. */
export const SEARCH_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** One content match. `file` is absolute; `line` 1-based. */
export interface ContentHit {
  file: string;
  line: number;
  text: string;
}

/** Translates the lines of a `.gitignore` into tinyglobby ignore globs (see the file comment). */
export function gitignoreToGlobs(text: string): string[] {
  const globs: string[] = [];
  for (const rawLine of text.split('\n')) {
    let line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    if (line.endsWith('/')) line = line.slice(0, -1);
    const anchored = line.startsWith('/') || line.slice(0, -1).includes('/');
    line = line.replace(/^\//, '');
    if (line === '') continue;
    const base = anchored ? line : `**/${line}`;
    globs.push(base, `${base}/**`);
  }
  return globs;
}

/**
 * Lists the files under `root` (sorted), or `[root]` when it is a file.
 * @throws Error when `root` does not exist.
 */
export async function listFilesJs(root: string): Promise<string[]> {
  if (statSync(root).isFile()) return [root];
  const gitignore = join(root, '.gitignore');
  const ignore = [...ALWAYS_IGNORED];
  if (existsSync(gitignore)) ignore.push(...gitignoreToGlobs(readFileSync(gitignore, 'utf8')));
  const { glob } = await import('tinyglobby'); // loaded on first use: start-up speed
  const files = await glob(['**/*'], {
    cwd: root,
    absolute: true,
    dot: false,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore,
  });
  return files.sort();
}

/**
 * Searches file contents with a JavaScript regex, in path order, stopping after `max` hits.
 * @throws SyntaxError when `pattern` is not a valid regex.
 */
export async function searchContentJs(
  files: string[],
  pattern: string,
  max: number,
  signal: AbortSignal,
): Promise<ContentHit[]> {
  const re = new RegExp(pattern);
  const hits: ContentHit[] = [];
  for (const file of files) {
    if (signal.aborted || hits.length >= max) break;
    try {
      if ((await stat(file)).size > SEARCH_MAX_FILE_BYTES || looksBinary(file)) continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      for (let i = 0; i < lines.length && hits.length < max; i++) {
        const text = lines[i]!.replace(/\r$/, '');
        if (re.test(text)) hits.push({ file, line: i + 1, text });
      }
    } catch {
      /* unreadable: skipped, as rg does */
    }
  }
  return hits;
}
