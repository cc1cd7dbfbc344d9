/**
 * Project context files (step 4 of the system prompt). One file is loaded, the first found in
 * this order:
 * 1. `.hermes.md` or `HERMES.md`: in the working directory, then each parent up to and including
 *    the git root (the nearest folder holding `.git`); outside a git repository only the working
 *    directory is looked at;
 * 2. `AGENTS.md` (or `agents.md`), 3. `CLAUDE.md` (or `claude.md`), 4. `.cursorrules`: in the
 *    working directory only, never in a parent (an AGENTS.md in `$HOME` does not reach every
 *    session started below it).
 * Front matter is removed and the text capped at `CONTEXT_FILE_MAX_CHARS` (head and tail kept).
 * The capped text passes the content scanner's `context` scope; a file with a finding is not
 * inserted: the prompt holds `[BLOCKED: <file>: <classes>]` instead, and the session reports the
 * same note to its clients.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { scanContent, threatClasses } from '../security/content-scan.js';
import { capHeadTail } from '../util/head-tail.js';

/** The git-root-scoped names, then the working-directory-only names, in priority order. */
export const HERMES_MD_NAMES = ['.hermes.md', 'HERMES.md'] as const;
/** Names looked for in the working directory only, in priority order after `.hermes.md`. */
export const CWD_CONTEXT_NAMES = [
  ['AGENTS.md', 'agents.md'],
  ['CLAUDE.md', 'claude.md'],
  ['.cursorrules'],
] as const;
/** Every name, in priority order. */
export const CONTEXT_FILE_NAMES = [...HERMES_MD_NAMES, ...CWD_CONTEXT_NAMES.flat()] as const;

/** Longest context text kept, in chars; longer files are cut with a marker. */
export const CONTEXT_FILE_MAX_CHARS = 20_000;

/** A context file found for a working directory. */
export interface ContextFile {
  path: string;
  /** Content without YAML front matter, truncated to `CONTEXT_FILE_MAX_CHARS`; the note when blocked. */
  content: string;
  truncated: boolean;
  /** Threat classes found by the content scanner; the content is then `[BLOCKED: …]`. */
  blocked?: string[];
}

/** Removes a leading `---` YAML front matter block. */
export function stripFrontMatter(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The nearest folder from `start` upwards holding `.git`; undefined outside a repository. */
export function findGitRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function findHermesMd(cwd: string): string | undefined {
  const stop = findGitRoot(cwd);
  let dir = resolve(cwd);
  for (;;) {
    for (const name of HERMES_MD_NAMES) if (isFile(join(dir, name))) return join(dir, name);
    const parent = dirname(dir);
    if (!stop || dir === stop || parent === dir) return undefined;
    dir = parent;
  }
}

/** The note that replaces a blocked file in the prompt. */
export function blockedNote(fileName: string, classes: readonly string[]): string {
  return `[BLOCKED: ${fileName}: ${classes.join(', ')}]`;
}

/** The `[BLOCKED: …]` notes of a built system prompt, for telling clients (one per line found). */
export function blockedNotes(systemPrompt: string): string[] {
  return [...systemPrompt.matchAll(/^\[BLOCKED: [^\]\n]{1,200}\]$/gm)].map((m) => m[0]);
}

function load(path: string): ContextFile | undefined {
  try {
    const raw = stripFrontMatter(readFileSync(path, 'utf8')).trim();
    const { text, truncated } = capHeadTail(raw, CONTEXT_FILE_MAX_CHARS, { headRatio: 0.7 });
    const classes = threatClasses(scanContent(text, 'context'));
    if (classes.length > 0)
      return { path, content: blockedNote(basename(path), classes), truncated, blocked: classes };
    return { path, content: text, truncated };
  } catch {
    return undefined; // unreadable: as if absent
  }
}

/**
 * Finds the project context file for `cwd` (see the module comment for the order).
 * @returns undefined when none exists or the file cannot be read.
 */
export function findContextFile(cwd: string): ContextFile | undefined {
  const hermes = findHermesMd(cwd);
  if (hermes) {
    const f = load(hermes);
    if (f) return f;
  }
  const dir = resolve(cwd);
  for (const names of CWD_CONTEXT_NAMES) {
    for (const name of names) {
      const path = join(dir, name);
      if (!isFile(path)) continue;
      const f = load(path);
      if (f) return f;
    }
  }
  return undefined;
}
