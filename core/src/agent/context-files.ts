/**
 * Project context files (step 4 of the system prompt): the first of `AGENTS.md`, `.hermes.md`, `CLAUDE.md`,
 * `.cursorrules` found from the working directory up to the filesystem root.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { capHeadTail } from '../util/head-tail.js';

/** File names looked for in each folder, in this order. */
export const CONTEXT_FILE_NAMES = ['AGENTS.md', '.hermes.md', 'CLAUDE.md', '.cursorrules'] as const;

/** Longest context text kept, in chars; longer files are cut with a marker. */
export const CONTEXT_FILE_MAX_CHARS = 20_000;

/** A context file found for a working directory. */
export interface ContextFile {
  path: string;
  /** Content without YAML front matter, truncated to `CONTEXT_FILE_MAX_CHARS`. */
  content: string;
  truncated: boolean;
}

/** Removes a leading `---` YAML front matter block. */
export function stripFrontMatter(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/**
 * Finds the nearest context file from `cwd` upwards.
 * @returns undefined when none exists or the file cannot be read.
 */
export function findContextFile(cwd: string): ContextFile | undefined {
  let dir = resolve(cwd);
  for (;;) {
    for (const name of CONTEXT_FILE_NAMES) {
      const path = join(dir, name);
      try {
        if (existsSync(path) && statSync(path).isFile()) {
          const raw = stripFrontMatter(readFileSync(path, 'utf8')).trim();
          const { text: content, truncated } = capHeadTail(raw, CONTEXT_FILE_MAX_CHARS, { headRatio: 0.7 });
          return { path, content, truncated };
        }
      } catch {
        /* unreadable: keep looking */
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
