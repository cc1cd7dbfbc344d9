/**
 * Where Hermes keeps itself, as the rules about Hermes see it (self.ts): the running root with
 * every profile's home under `profiles/`, the files in it that hold settings, keys, sessions and
 * the daemon's token, and the two folders of the running profile that are the agent's to use
 * (`workspace/` and `skills/`, as for the file tools: tools/paths.ts `protectedWriteReason`).
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isInside, pathForms, resolveRealPath } from '../../util/paths.js';
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { segmentRegex } from './context.js';
import type { RuleContext } from './types.js';

/** Files of a home whose reading or change matters most (named in targets and in scripts). */
export const HERMES_FILES = [
  'config.yaml',
  '.env',
  'auth.json',
  'state.db',
  'tui-gateway.json',
  'tui-gateway.lock',
] as const;

/** Folders of the running profile the agent may use freely. */
export const AGENT_FOLDERS = ['workspace', 'skills'] as const;

/** Largest script file whose text is read to see whether it reaches the root. */
export const SCRIPT_READ_LIMIT = 256 * 1024;

/** The root, its real path, and the running profile's free folders, for one context. */
export interface HermesPlaces {
  /** The root as given and its real path (one entry when they are the same). */
  roots: string[];
  /** The running profile's `workspace/` and `skills/`, as given and real. */
  free: string[];
  /** `dev:ino` of the existing settings/key files of every home (hard links to them count). */
  identities(): ReadonlySet<string>;
}

const placesCache = new WeakMap<RuleContext, HermesPlaces | null>();

/** The places of `ctx`'s root; null when the context knows no root. */
export function hermesPlaces(ctx: RuleContext): HermesPlaces | null {
  const cached = placesCache.get(ctx);
  if (cached !== undefined) return cached;
  const root = ctx.hermesRoot;
  if (!root || root.length < 2) {
    placesCache.set(ctx, null);
    return null;
  }
  const roots = pathForms(root.replace(/\/+$/, ''));
  const profile = ctx.profileHome ?? root;
  const free = AGENT_FOLDERS.flatMap((d) => pathForms(join(profile, d)));
  let ids: Set<string> | undefined;
  const identities = (): ReadonlySet<string> => {
    if (ids) return ids;
    ids = new Set();
    const homes = [roots.at(-1)!];
    try {
      const profilesDir = join(roots.at(-1)!, 'profiles');
      for (const n of readdirSync(profilesDir).slice(0, 128)) homes.push(join(profilesDir, n));
    } catch {
      /* no profiles */
    }
    for (const h of homes) {
      for (const f of HERMES_FILES) {
        try {
          const s = statSync(join(h, f));
          ids.add(`${s.dev}:${s.ino}`);
        } catch {
          /* not there */
        }
      }
    }
    return ids;
  };
  const places: HermesPlaces = { roots, free, identities };
  placesCache.set(ctx, places);
  return places;
}

/**
 * True when the absolute `path` lies in the root (the root itself included) outside the running
 * profile's free folders. A path in a free folder that is a symlink out of it is judged by its
 * real path, which `ctx.paths` lists too.
 */
export function inRoot(places: HermesPlaces, path: string): boolean {
  if (!places.roots.some((r) => isInside(r, path))) return false;
  return !places.free.some((f) => isInside(f, path));
}

/** True when the absolute `path` is a folder above the root (`~` for `~/.hermes`, `/`). */
export function aboveRoot(places: HermesPlaces, path: string): boolean {
  return places.roots.some((r) => r !== path && isInside(path, r));
}

/** True when `path` is a hard link to one of the homes' settings or key files. */
export function linksToHermesFile(places: HermesPlaces, path: string): boolean {
  try {
    const s = statSync(path);
    if (!s.isFile() || s.nlink < 2) return false;
    return places.identities().has(`${s.dev}:${s.ino}`);
  } catch {
    return false;
  }
}

/** The word's value split where an option or list may carry a path: `--file=x`, `a:b`, `-I/x`. */
function pieces(word: ShellWord): ShellWord[] {
  const v = word.value;
  const out: ShellWord[] = [];
  const add = (value: string): void => {
    if (value === '' || value === v || !/^[~/.$]|\//.test(value)) return;
    // bash expands `~` after `=` and `:` in assignment-like words (`dd if=~/x`, `PATH=a:~/b`)
    out.push({ ...word, value, literal: word.literal && !value.startsWith('~') });
  };
  const eq = v.indexOf('=');
  if (eq > 0) add(v.slice(eq + 1));
  if (/^-[A-Za-z][~/.]/.test(v)) add(v.slice(2));
  if (/[:,]/.test(v)) for (const p of v.split(/[:,=]/)) add(p);
  return out;
}

/** Words of a command that may name files: program path, arguments, assignments, redirects. */
export function pathWords(cmd: SimpleCommand): ShellWord[] {
  const out: ShellWord[] = [];
  const first = cmd.argv[0];
  if (first && first.value.includes('/')) out.push(first);
  for (const w of cmd.argv.slice(1)) {
    // bare flags (`-la`, `--force`) name no file
    if (!/^--?[A-Za-z][\w-]*$/.test(w.value)) out.push(w);
    out.push(...pieces(w));
  }
  for (const a of cmd.assignments) out.push(a.value, ...pieces(a.value));
  for (const r of cmd.redirects) {
    if (r.target && !/^\d+$|^-$/.test(r.target.value)) out.push(r.target, ...pieces(r.target));
  }
  return out;
}

/**
 * The paths in the root a word reaches: its expansions (`ctx.paths`) that lie in the root, or
 * that are hard links to a home's settings or key files. Each reported once, the form in the root.
 */
export function rootPathsOf(word: ShellWord, ctx: RuleContext, places: HermesPlaces): string[] {
  const all = ctx.paths(word);
  const hits = all.filter((p) => inRoot(places, p) || linksToHermesFile(places, p) || globReaches(places, p));
  if (hits.length === 0) return [];
  // a word reaching in by a symlink or glob: name the real paths in the root, not the pattern
  const inside = hits.filter((p) => inRoot(places, p));
  const named = inside.filter((p) => !/[*?[]/.test(p));
  return named.length > 0 ? named : hits;
}

/**
 * True when a glob pattern can name a path in the root: its segments match the root's segments
 * one by one and it goes on below it (`/*\/*\/.hermes/.env`) — also when the file-system walk
 * stopped at its limits before reaching the root.
 */
export function globReaches(places: HermesPlaces, pattern: string): boolean {
  if (!/[*?[]/.test(pattern)) return false;
  const segs = pattern.split('/').filter(Boolean);
  return places.roots.some((root) => {
    const parts = root.split('/').filter(Boolean);
    if (segs.length < parts.length || segs.slice(0, parts.length).includes('..')) return false;
    if (!parts.every((part, i) => segmentRegex(segs[i]!).test(part))) return false;
    // what it names below the root, as written: inside a free folder only if it says so literally
    const below = '/' + [...parts, ...segs.slice(parts.length)].join('/');
    return !places.free.some((f) => isInside(f, below));
  });
}

/** The part of a dynamic word after its last variable or substitution (`$X/a/.env` → `/a/.env`). */
export function literalTail(value: string): string | undefined {
  const m = /(?:\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$\([^)]*\)|`[^`]*`|\$[@*#?$!0-9])([^$`]*)$/.exec(value);
  return m ? m[1] : undefined;
}

/** True when a path tail names a Hermes home or one of its files or profile folders. */
export function namesHermesPlace(tail: string): boolean {
  return /(?:^|\/)(?:\.hermes(?:\/|$)|profiles\/|(?:config\.yaml|\.env|auth\.json|state\.db|tui-gateway\.(?:json|lock)|jobs\.json)$)/.test(
    tail,
  );
}

/** Patterns that, in a script's text, mean the script reaches Hermes's own home. */
export function mentionPatterns(ctx: RuleContext, places: HermesPlaces): RegExp[] {
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const out = places.roots.map((r) => new RegExp(`${esc(r)}(?![\\w.-])`));
  out.push(/tui-gateway\.(?:json|lock)/, /\bHERMES_HOME\b/);
  const home = ctx.userHome.replace(/\/+$/, '');
  for (const r of places.roots) {
    if (!isInside(home, r) || r === home) continue;
    const rel = r.slice(home.length + 1);
    out.push(
      new RegExp(
        `(?:~|\\$\\{?HOME\\}?|homedir\\(\\)|expanduser\\(['"]~['"]\\))[\\s'"+,/]*${esc(rel)}(?![\\w-])`,
      ),
    );
    // `join(homedir(), '.hermes')`, `Path.home() / ".hermes"`: the root's own name, quoted, in a
    // text that also names the home folder (a bare mention of `.hermes` is not enough)
    if (basename(r).startsWith('.')) {
      out.push(
        new RegExp(
          `^(?=[\\s\\S]*(?:homedir|expanduser|Path\\.home|\\bHOME\\b|UserHomeDir|home_dir))[\\s\\S]*['"\`/]${esc(basename(r))}(?:['"\`/]|$)`,
        ),
      );
    }
  }
  return out;
}

/** The first `limit` bytes of a regular file, or undefined when it is missing, too big or a folder. */
export function readHead(path: string, limit = SCRIPT_READ_LIMIT): string | undefined {
  try {
    const s = statSync(path);
    if (!s.isFile() || s.size > limit) return undefined;
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(Math.min(s.size, limit));
      const n = readSync(fd, buf, 0, buf.length, 0);
      return buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The real path of `p` (also when missing). */
export const realPath = resolveRealPath;
