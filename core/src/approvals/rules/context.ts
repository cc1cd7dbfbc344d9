/**
 * Builds the `RuleContext` of a line: where it runs and how its path words expand.
 *
 * Path words are expanded the way the shell would when the command runs, against the file system
 * as it is when the command is checked: a leading `~` (or `~user` for the current user), `$HOME`,
 * `${HOME}` and any variable of `env` (unknown variables expand to nothing, as in the shell),
 * relative paths against the working folder, and globs (`*`, `?`, `[…]`, `{a,b}`) against the
 * folders that exist. Each match and its real path (symlinks resolved) are returned, so a rule
 * that protects a folder sees through globs, variables and links alike.
 */
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import type { DetectContext } from '../detection-types.js';
import type { ShellAnalysis, ShellWord } from '../shell/analyze.js';
import { pathForms } from '../../util/paths.js';
import type { RuleContext } from './types.js';

/** Most file-system matches one glob word expands to (the rest are not looked at). */
export const GLOB_MATCH_LIMIT = 200;

/** Expands `$NAME` / `${NAME}` from `env`; returns undefined when the word holds anything else dynamic. */
function expandVariables(value: string, env: RuleContext['env']): string | undefined {
  if (/\$\(|`|\$\(\(/.test(value)) return undefined;
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (_all, a?: string, b?: string) => {
      return env[(a ?? b)!] ?? '';
    },
  );
}

/** Creates the context in which the rules judge one line. */
export function ruleContext(analysis: ShellAnalysis, opts: DetectContext): RuleContext {
  const userHome = opts.userHome ?? homedir();
  const cwd = opts.cwd ?? process.cwd();
  const env = { ...(opts.env ?? {}), HOME: userHome };
  const cache = new Map<string, string[]>();
  const paths = (word: ShellWord): string[] => {
    const hit = cache.get(word.value);
    if (hit) return hit;
    let value: string | undefined = word.value;
    if (!word.literal) {
      if (value === '~' || value.startsWith('~/')) value = userHome + value.slice(1);
      value = expandVariables(value, env);
    }
    let out: string[] = [];
    if (value !== undefined && value !== '') {
      const abs = isAbsolute(value) ? value : resolve(cwd, value);
      const found = new Set<string>([resolve(abs), ...pathForms(resolve(abs))]);
      if (word.glob || /[*?[{]/.test(value)) {
        try {
          const matches = globSync(abs, {
            absolute: true,
            dot: true,
            onlyFiles: false,
            expandDirectories: false,
          });
          for (const m of matches.slice(0, GLOB_MATCH_LIMIT))
            for (const f of pathForms(resolve(m))) found.add(f);
        } catch {
          /* an unreadable folder: the pattern itself still counts */
        }
      }
      out = [...found];
    }
    cache.set(word.value, out);
    return out;
  };
  return { analysis, hermesRoot: opts.hermesRoot, userHome, cwd, env, paths };
}
