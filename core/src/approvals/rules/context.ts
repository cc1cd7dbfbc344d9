/**
 * Builds the `RuleContext` of a line: where it runs and how its path words expand.
 *
 * Path words are expanded the way bash would when the command runs, against the file system as it
 * is when the command is checked:
 * - brace expansion first (`{a,b}`, nested, `{1..3}`, `{a..c}`), as bash does, whether or not the
 *   results exist;
 * - a leading `~`, `~/…`, `~+` (`$PWD`), `~user` (the current user, else `/etc/passwd`);
 * - `$NAME`, `${NAME}`, `${NAME:-word}` / `${NAME-word}` / `${NAME:=word}` from `env`, `$PWD`
 *   (the working folder), and from assignments written in the line itself (`R=~/.hermes; cat
 *   $R/.env`, `export R=…`): a variable assigned several values yields each. An unknown variable
 *   expands to nothing, as in the shell; `HERMES_HOME` unknown to `env` stands for the running
 *   root (tool processes do not get it, but a command naming it means the root);
 * - relative paths against the working folder, and also against each folder the line `cd`s or
 *   `pushd`es into (`cd /tmp && cat ../x`): one word may name a path under each;
 * - globs (`*`, `?`, `[…]`; `**` is `*`, as without `globstar`) against the folders that exist,
 *   segment by segment with bash's rule that a leading `.` must be matched explicitly, reading at
 *   most `GLOB_DIR_LIMIT` folders and returning at most `GLOB_MATCH_LIMIT` matches — a word like
 *   `/*\/*\/*\/.env` never walks the whole disk;
 * - `..` both as the text reads (`a/../b` → `b`) and as the kernel walks it (through a symlinked
 *   `a`, `..` is the parent of its target); and every result's real path (symlinks resolved).
 *
 * The daemon's pid and port default to the root's discovery file (`tui-gateway.json`) and pid
 * lock (`tui-gateway.lock`).
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { DetectContext } from '../detection-types.js';
import type { ShellAnalysis, ShellWord } from '../shell/analyze.js';
import { pathForms } from '../../util/paths.js';
import type { RuleContext } from './types.js';

/** Most file-system matches one glob word expands to (the rest are not looked at). */
export const GLOB_MATCH_LIMIT = 200;
/** Most folders one glob word reads while matching. */
export const GLOB_DIR_LIMIT = 256;
/** Most words one brace expansion yields (bash has no limit; the rest are not looked at). */
export const BRACE_LIMIT = 256;
/** Most values one word expands to through variables with several values. */
const VALUE_LIMIT = 64;

type Vars = ReadonlyMap<string, readonly string[]>;

/** The matching `}` of the `{` at `open`, or -1 (quotes are already removed from word values). */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated parts of a brace body, or undefined when it has no comma. */
function braceParts(body: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (parts.length === 0) return undefined;
  parts.push(body.slice(start));
  return parts;
}

/** The words of a sequence body `1..5`, `a..e`, `1..9..2`, or undefined when it is not one. */
function braceSequence(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const [, a, b, stepText] = m as unknown as [string, string, string, string | undefined];
  const numeric = /\d/.test(a);
  if (numeric !== /\d/.test(b)) return undefined;
  const from = numeric ? Number(a) : a.charCodeAt(0);
  const to = numeric ? Number(b) : b.charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(stepText ?? 1))) * (to >= from ? 1 : -1);
  const out: string[] = [];
  for (let v = from; step > 0 ? v <= to : v >= to; v += step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
    if (out.length >= BRACE_LIMIT) break;
  }
  return out;
}

/**
 * Bash's brace expansion of `text` (`a{b,c}d` → `abd acd`; nested; `{1..3}`; a brace without a
 * comma or sequence stays as written). At most `BRACE_LIMIT` words.
 */
export function expandBraces(text: string): string[] {
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    if (open > 0 && text[open - 1] === '$') continue; // ${VAR}
    const close = closingBrace(text, open);
    if (close === -1) return [text];
    const body = text.slice(open + 1, close);
    const parts = braceParts(body) ?? braceSequence(body);
    if (!parts) continue;
    const head = text.slice(0, open);
    const tail = text.slice(close + 1);
    const out: string[] = [];
    for (const p of parts) {
      for (const w of expandBraces(head + p + tail)) {
        out.push(w);
        if (out.length >= BRACE_LIMIT) return out;
      }
    }
    return out;
  }
  return [text];
}

/** The home folder of user `name` from `/etc/passwd`, or undefined. */
function passwdHome(name: string): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name && f[5]) return f[5];
    }
  } catch {
    /* no passwd file */
  }
  return undefined;
}

/** Expands a leading `~`, `~/…`, `~+`, `~-` or `~user`; other words unchanged. */
export function expandTilde(value: string, userHome: string, cwd: string, env: RuleContext['env']): string {
  const m = /^~([^/]*)(\/.*)?$/s.exec(value);
  if (!m) return value;
  const [, name = '', rest = ''] = m;
  let base: string | undefined;
  if (name === '') base = userHome;
  else if (name === '+') base = cwd;
  else if (name === '-') base = env.OLDPWD;
  else if (/^[A-Za-z0-9._-]+$/.test(name)) {
    let self: string | undefined;
    try {
      self = userInfo().username;
    } catch {
      self = undefined;
    }
    base = name === self ? userHome : passwdHome(name);
  }
  return base === undefined ? value : base + rest;
}

/** `${X%pat}`, `${X%%pat}`, `${X#pat}`, `${X##pat}` of `value` (pattern: `*`, `?`, literal text). */
function removePattern(value: string, op: string, pattern: string): string {
  const body = [...pattern]
    .map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^(?:${body})$`);
  const n = value.length;
  if (op.startsWith('#')) {
    const lengths = op === '##' ? [...Array(n + 1).keys()].reverse() : [...Array(n + 1).keys()];
    for (const k of lengths) if (re.test(value.slice(0, k))) return value.slice(k);
  } else {
    const lengths = op === '%%' ? [...Array(n + 1).keys()].reverse() : [...Array(n + 1).keys()];
    for (const k of lengths) if (re.test(value.slice(n - k))) return value.slice(0, n - k);
  }
  return value;
}

/**
 * Expands `$NAME`, `${NAME}`, `${NAME:-w}`, `${NAME-w}`, `${NAME:=w}`, `${NAME=w}` and
 * `${NAME:+w}`, `${NAME%pat}`, `${NAME%%pat}`, `${NAME#pat}`, `${NAME##pat}` with every value
 * `vars` gives each name (unknown → empty).
 * @returns the values, or undefined when the word holds anything else dynamic (a command or
 *   arithmetic substitution, another `${…}` form).
 */
export function expandVariables(value: string, vars: Vars): string[] | undefined {
  if (/\$\(|`/.test(value)) return undefined;
  const re =
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=+]|%%?|##?)([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$\{[^}]*\}/g;
  let outs = [''];
  let last = 0;
  for (const m of value.matchAll(re)) {
    const [all, braced, op, word, bare] = m as unknown as [string, string?, string?, string?, string?];
    const name = braced ?? bare;
    if (name === undefined) return undefined; // ${#x}, ${x/y/z}, ${!x} …
    const set = vars.get(name) ?? [];
    let choices: readonly string[];
    if (op === undefined) choices = set.length > 0 ? set : [''];
    else if (op.startsWith('%') || op.startsWith('#')) {
      // `${X%/}`, `${X##*/}`: the value with the pattern removed from its end or start
      if (/[$`[\\]/.test(word ?? '')) return undefined; // a bracket class or an escape: not read here
      choices = (set.length > 0 ? set : ['']).map((v) => removePattern(v, op, word ?? ''));
    } else if (op.endsWith('+')) choices = set.some((v) => op === '+' || v !== '') ? [word ?? ''] : [''];
    else {
      const usable = set.filter((v) => op.startsWith('-') || op.startsWith('=') || v !== '');
      choices = usable.length > 0 ? usable : [word ?? ''];
    }
    const literal = value.slice(last, m.index);
    const next: string[] = [];
    for (const o of outs) for (const c of choices) if (next.length < VALUE_LIMIT) next.push(o + literal + c);
    outs = next;
    last = m.index + all.length;
  }
  return outs.map((o) => o + value.slice(last));
}

/**
 * Values the line gives variables: `NAME=value` (plain, `export`, `local`, `declare`, `readonly`)
 * and `for NAME in WORDS`.
 */
export function lineAssignments(source: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (name: string, value: string): void => {
    const list = out.get(name) ?? [];
    if (!list.includes(value) && list.length < VALUE_LIMIT) list.push(value);
    out.set(name, list);
  };
  const re = /(?:^|[\s;&|(`{])([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s;&|()`'"\\]|\\.)*)/g;
  for (const m of source.matchAll(re)) {
    const [, name, raw] = m as unknown as [string, string, string];
    const value = raw.startsWith("'")
      ? raw.slice(1, -1)
      : raw.startsWith('"')
        ? raw.slice(1, -1).replace(/\\(.)/g, '$1')
        : raw.replace(/\\(.)/g, '$1');
    add(name, value);
  }
  // `for NAME in WORDS`: each word is a value (globs stay for `paths` to expand)
  for (const m of source.matchAll(/\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*)/g)) {
    for (const w of m[2]!.trim().split(/\s+/)) if (w) add(m[1]!, w.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return out;
}

/**
 * The regex of one glob segment with bash's rules (`*`, `?`, `[…]`, `[!…]`, escapes; a leading
 * dot must be matched explicitly unless `anyDot`, as for `find -name` and unit names).
 */
export function segmentRegex(segment: string, anyDot = false): RegExp {
  let src = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) src += segment[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '*') src += '[^/]*';
    else if (c === '?') src += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) src += '\\[';
      else {
        let body = segment.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        src += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  const dotRule = anyDot || segment.startsWith('.') ? '' : '(?!\\.)';
  try {
    return new RegExp(`^${dotRule}${src}$`, 's');
  } catch {
    return new RegExp(`^${segment.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 's');
  }
}

/** True when a path segment holds an unescaped glob character. */
export const isGlobSegment = (segment: string): boolean => /(?:^|[^\\])(?:\\\\)*[*?[]/.test(segment);

/** The kernel's reading of `..`: each `..` is the parent of the real folder reached so far. */
export function physicalPath(abs: string): string {
  let cur = '/';
  for (const seg of abs.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      let real = cur;
      try {
        real = realpathSync(cur);
      } catch {
        /* missing: the text decides */
      }
      cur = dirname(real);
    } else cur = join(cur, seg);
  }
  return cur;
}

/**
 * The existing paths an absolute glob pattern matches, bash-style (see the file comment), at
 * most `GLOB_MATCH_LIMIT`, reading at most `GLOB_DIR_LIMIT` folders.
 */
export function globPaths(pattern: string): string[] {
  let current = ['/'];
  let budget = GLOB_DIR_LIMIT;
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  for (const seg of segments) {
    const next: string[] = [];
    if (seg === '..') {
      for (const c of current) next.push(physicalPath(join(c, '..')));
    } else if (!isGlobSegment(seg)) {
      const name = seg.replace(/\\(.)/g, '$1');
      for (const c of current) next.push(join(c, name));
    } else {
      const re = segmentRegex(seg);
      for (const c of current) {
        if (budget-- <= 0 || next.length >= GLOB_MATCH_LIMIT) break;
        let names: string[];
        try {
          names = readdirSync(c);
        } catch {
          continue; // missing or unreadable
        }
        for (const n of names) if (re.test(n) && next.length < GLOB_MATCH_LIMIT) next.push(join(c, n));
      }
    }
    current = [...new Set(next)];
    if (current.length === 0) return [];
  }
  // literal segments after the last glob were appended unchecked: keep what exists
  return current.filter((p) => {
    try {
      realpathSync(p);
      return true;
    } catch {
      return false;
    }
  });
}

/** What the root's discovery file and pid lock say about the running daemon. */
export function daemonInfo(root: string): { pid?: number; port?: number } {
  const read = (name: string): { pid?: unknown; port?: unknown } => {
    try {
      return JSON.parse(readFileSync(join(root, name), 'utf8')) as { pid?: unknown; port?: unknown };
    } catch {
      return {};
    }
  };
  const disc = read('tui-gateway.json');
  const lock = read('tui-gateway.lock');
  const int = (v: unknown): number | undefined =>
    Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined;
  const pid = int(disc.pid) ?? int(lock.pid);
  const port = int(disc.port);
  return { ...(pid !== undefined ? { pid } : {}), ...(port !== undefined ? { port } : {}) };
}

/** The folders the line moves into with `cd` / `pushd`, in order, each after the ones before. */
function cdFolders(analysis: ShellAnalysis, expand: (value: string, base: string) => string[]): string[] {
  const out: string[] = [];
  let base: string | undefined;
  for (const cmd of analysis.commands) {
    const name = cmd.argv[0]?.value;
    if (name !== 'cd' && name !== 'pushd') continue;
    const target = cmd.argv.slice(1).find((w) => !/^-[LPe@]*$/.test(w.value));
    if (!target || target.substitution) continue;
    for (const dir of expand(target.value, base ?? '')) {
      out.push(dir);
      base = dir;
    }
  }
  return out;
}

/** Creates the context in which the rules judge one line. */
export function ruleContext(analysis: ShellAnalysis, opts: DetectContext): RuleContext {
  const userHome = opts.userHome ?? homedir();
  const cwd = opts.cwd ?? process.cwd();
  const env: Record<string, string | undefined> = { ...(opts.env ?? {}), HOME: userHome };
  const vars = new Map<string, string[]>();
  for (const [k, v] of Object.entries(env)) if (v !== undefined) vars.set(k, [v]);
  vars.set('PWD', [cwd]);
  if (!vars.has('HERMES_HOME') && opts.hermesRoot) vars.set('HERMES_HOME', [opts.hermesRoot]);
  // the line's own assignments, themselves expanded once (`R=$HOME/.hermes`)
  for (const [name, values] of lineAssignments(analysis.source)) {
    const list = vars.get(name) ?? [];
    for (const v of values) {
      for (const e of expandVariables(expandTilde(v, userHome, cwd, env), vars) ?? []) {
        if (!list.includes(e) && list.length < VALUE_LIMIT) list.push(e);
      }
    }
    vars.set(name, list);
  }

  /** The absolute paths (before globbing) one value names, relative ones against `base`. */
  const expandValue = (value: string, base: string, dynamic: boolean): string[] => {
    const out: string[] = [];
    for (const braced of dynamic ? expandBraces(value) : [value]) {
      const tilded = dynamic ? expandTilde(braced, userHome, cwd, env) : braced;
      const values = dynamic ? (expandVariables(tilded, vars) ?? []) : [tilded];
      for (const v of values) {
        if (v === '') continue;
        // joined as text: `a/../b` is resolved both ways below, not collapsed here
        out.push(isAbsolute(v) ? v : `${base || cwd}/${v}`);
      }
    }
    return out;
  };
  const bases = [cwd, ...cdFolders(analysis, (v, base) => expandValue(v, base, true))];

  const cache = new Map<string, string[]>();
  const paths = (word: ShellWord): string[] => {
    const key = `${word.literal ? 'L' : 'D'}${word.value}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const found = new Set<string>();
    const dynamic = !word.literal;
    if (!word.substitution) {
      const relative = !/^[~/$]/.test(word.value);
      for (const base of relative ? bases : [cwd]) {
        for (const abs of expandValue(word.value, base, dynamic)) {
          for (const f of pathForms(resolve(abs))) found.add(f);
          if (abs.includes('..')) for (const f of pathForms(physicalPath(abs))) found.add(f);
          if (dynamic && abs.split('/').some(isGlobSegment)) {
            for (const m of globPaths(abs)) for (const f of pathForms(m)) found.add(f);
          }
        }
      }
    }
    const out = [...found];
    cache.set(key, out);
    return out;
  };
  const daemon = opts.hermesRoot ? daemonInfo(opts.hermesRoot) : {};
  const daemonPid = opts.daemonPid ?? daemon.pid;
  const daemonPort = opts.daemonPort ?? daemon.port;
  return {
    analysis,
    hermesRoot: opts.hermesRoot,
    userHome,
    cwd,
    env,
    paths,
    ...(opts.profileHome !== undefined ? { profileHome: opts.profileHome } : {}),
    ...(daemonPid !== undefined ? { daemonPid } : {}),
    ...(daemonPort !== undefined ? { daemonPort } : {}),
  };
}
