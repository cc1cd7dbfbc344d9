/**
 * Reading a simple command's arguments the way its program does: option clusters, options with
 * values, operands, sub-commands, and the files a command writes. Shared by the rule families.
 */
import { basename } from 'node:path';
import { programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import type { RuleContext } from './types.js';

export { programName };

/** How a program's options are written. */
export interface ArgSpec {
  /** Short options whose value is the rest of their word or else the next word (`-o file`). */
  valued?: string;
  /** Short options whose value can only be the rest of their word (`sed -i.bak`, `perl -0777`). */
  attached?: string;
  /** Long options (without `--`) whose value is the next word unless written with `=`. */
  long?: readonly string[];
  /** Options end at the first operand (POSIX order); default: options anywhere before `--`. */
  posix?: boolean;
}

/** One option as given: a short letter or a long name, and its value when it takes one. */
export interface Option {
  name: string;
  value?: ShellWord;
}

/** A command's arguments split into options and operands. */
export interface ParsedArgs {
  options: Option[];
  operands: ShellWord[];
}

const withValue = (w: ShellWord, value: string): ShellWord => ({ ...w, value, raw: value });

/** Splits `argv[from…]` into options and operands per `spec`. */
export function parseArgs(argv: readonly ShellWord[], spec: ArgSpec = {}, from = 1): ParsedArgs {
  const options: Option[] = [];
  const operands: ShellWord[] = [];
  let ended = false;
  for (let i = from; i < argv.length; i++) {
    const w = argv[i]!;
    const v = w.value;
    if (ended || !v.startsWith('-') || v === '-') {
      operands.push(w);
      if (spec.posix) ended = true;
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = (eq < 0 ? v.slice(2) : v.slice(2, eq)).toLowerCase();
      if (eq >= 0) options.push({ name, value: withValue(w, v.slice(eq + 1)) });
      else if (spec.long?.includes(name) && i + 1 < argv.length) options.push({ name, value: argv[++i]! });
      else options.push({ name });
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const letter = v[k]!;
      const rest = v.slice(k + 1);
      if (spec.attached?.includes(letter)) {
        options.push(rest ? { name: letter, value: withValue(w, rest) } : { name: letter });
        break;
      }
      if (spec.valued?.includes(letter)) {
        if (rest) options.push({ name: letter, value: withValue(w, rest) });
        else if (i + 1 < argv.length) options.push({ name: letter, value: argv[++i]! });
        else options.push({ name: letter });
        break;
      }
      options.push({ name: letter });
    }
  }
  return { options, operands };
}

/** True when any of `names` was given. */
export const has = (p: ParsedArgs, ...names: string[]): boolean =>
  p.options.some((o) => names.includes(o.name));

/** The value of the last of `names` given, if any. */
export function optionValue(p: ParsedArgs, ...names: string[]): ShellWord | undefined {
  for (let i = p.options.length - 1; i >= 0; i--) {
    const o = p.options[i]!;
    if (names.includes(o.name) && o.value) return o.value;
  }
  return undefined;
}

/** The words after the program. */
export const args = (cmd: SimpleCommand): ShellWord[] => cmd.argv.slice(1);

/** The first operand lower-cased (a sub-command), and the index of the word after it. */
export function subcommand(cmd: SimpleCommand, spec: ArgSpec = {}, from = 1): { sub: string; next: number } {
  const argv = cmd.argv;
  for (let i = from; i < argv.length; i++) {
    const v = argv[i]!.value;
    if (v === '--') return { sub: (argv[i + 1]?.value ?? '').toLowerCase(), next: i + 2 };
    if (!v.startsWith('-') || v === '-') return { sub: v.toLowerCase(), next: i + 1 };
    if (v.startsWith('--')) {
      if (!v.includes('=') && spec.long?.includes(v.slice(2).toLowerCase())) i++;
      continue;
    }
    const letters = v.slice(1);
    const valued = [...letters].findIndex((l) => spec.valued?.includes(l));
    if (valued === letters.length - 1) i++;
  }
  return { sub: '', next: argv.length };
}

/** A target for a word whose value cannot be known: never equal to a real path. */
export const unknownTarget = (w: ShellWord): string => `?${w.raw || w.value}`;

/**
 * The paths the words name (`ctx.paths`); a word whose value cannot be known (or holds a variable
 * the guard does not know) also yields `?<word>`, so no narrow approval can cover it.
 */
export function pathTargets(ctx: RuleContext, words: readonly ShellWord[]): string[] {
  const out = new Set<string>();
  for (const w of words) {
    const found = ctx.paths(w);
    if (found.length === 0 || (ctx.knownValue && !ctx.knownValue(w))) out.add(unknownTarget(w));
    for (const p of found) out.add(p);
  }
  return [...out];
}

/** The values of the words, unknowable ones as `?<word>`. */
export const valueTargets = (words: readonly ShellWord[]): string[] => [
  ...new Set(words.map((w) => (w.substitution ? unknownTarget(w) : w.value))),
];

/** How a command writes a file. */
export type WriteHow =
  'redirect' | 'tee' | 'copy' | 'move-source' | 'link' | 'dd' | 'edit' | 'download' | 'modify' | 'delete';

/** A file a command writes (or replaces, moves away, deletes, changes the mode of). */
export interface Write {
  word: ShellWord;
  how: WriteHow;
}

/** Redirect operators that write their target. */
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Copy-like programs: options, and the option naming the target folder. */
const COPIERS: Record<string, ArgSpec> = {
  cp: { valued: 'tS', long: ['target-directory', 'suffix'] },
  mv: { valued: 'tS', long: ['target-directory', 'suffix'] },
  ln: { valued: 'tS', long: ['target-directory', 'suffix'] },
  install: {
    valued: 'tSmog',
    long: ['target-directory', 'suffix', 'mode', 'owner', 'group', 'strip-program'],
  },
  rsync: {
    valued: 'efTB',
    long: [
      'rsh',
      'filter',
      'exclude',
      'include',
      'exclude-from',
      'include-from',
      'files-from',
      'temp-dir',
      'partial-dir',
      'backup-dir',
      'link-dest',
      'compare-dest',
      'copy-dest',
      'rsync-path',
      'chmod',
      'chown',
      'timeout',
      'bwlimit',
      'port',
      'password-file',
      'log-file',
      'suffix',
      'max-size',
      'min-size',
      'out-format',
    ],
  },
  scp: { valued: 'cFiJloPS' },
  ditto: {},
};

/** Programs whose operands they change in place, with their options; `skip` leading operands. */
const MODIFIERS: Record<string, { spec: ArgSpec; skip: number; how: WriteHow }> = {
  truncate: { spec: { valued: 'sr', long: ['size', 'reference'] }, skip: 0, how: 'modify' },
  touch: { spec: { valued: 'rtd', long: ['reference', 'date', 'time'] }, skip: 0, how: 'modify' },
  chmod: { spec: { long: ['reference'] }, skip: 1, how: 'modify' },
  chown: { spec: { long: ['reference', 'from'] }, skip: 1, how: 'modify' },
  chgrp: { spec: { long: ['reference'] }, skip: 1, how: 'modify' },
  chattr: { spec: {}, skip: 1, how: 'modify' },
  rm: { spec: {}, skip: 0, how: 'delete' },
  unlink: { spec: {}, skip: 0, how: 'delete' },
  rmdir: { spec: {}, skip: 0, how: 'delete' },
  shred: {
    spec: { valued: 'nsx', long: ['iterations', 'size', 'random-source', 'remove'] },
    skip: 0,
    how: 'delete',
  },
  srm: { spec: {}, skip: 0, how: 'delete' },
  wipe: { spec: {}, skip: 0, how: 'delete' },
  sponge: { spec: {}, skip: 0, how: 'redirect' },
};

/** Short options of curl that take a value. */
export const CURL_SPEC: ArgSpec = {
  valued: 'AbcCdDeEFHKmoPQrtTuUwxXyYz',
  long: [
    'url',
    'output',
    'output-dir',
    'data',
    'data-raw',
    'data-binary',
    'data-urlencode',
    'header',
    'user',
    'request',
    'user-agent',
    'referer',
    'cookie',
    'cookie-jar',
    'config',
    'max-time',
    'connect-timeout',
    'proxy',
    'resolve',
    'connect-to',
    'cert',
    'key',
    'cacert',
    'form',
    'upload-file',
    'write-out',
    'retry',
    'range',
    'limit-rate',
    'interface',
    'unix-socket',
    'json',
    'oauth2-bearer',
  ],
};

/** Options of wget that take a value. */
export const WGET_SPEC: ArgSpec = {
  valued: 'OoaiBetTwQPUlARDIX',
  long: [
    'output-document',
    'output-file',
    'directory-prefix',
    'user-agent',
    'header',
    'post-data',
    'tries',
    'timeout',
  ],
};

/** The file name a download of `url` is saved under by `curl -O` / plain `wget`. */
function remoteName(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  return basename(path) || 'index.html';
}

/** The files a downloader saves: `curl -o F` / `-O`, `wget -O F` / `-P DIR` / the URL's name. */
function downloadWrites(cmd: SimpleCommand): Write[] {
  const name = programName(cmd);
  const mk = (word: ShellWord): Write => ({ word, how: 'download' });
  if (name === 'curl') {
    const p = parseArgs(cmd.argv, CURL_SPEC);
    const out: Write[] = [];
    for (const o of p.options) {
      if ((o.name === 'o' || o.name === 'output') && o.value && o.value.value !== '-') out.push(mk(o.value));
    }
    if (has(p, 'O', 'remote-name', 'remote-name-all')) {
      const dir = optionValue(p, 'output-dir')?.value;
      for (const u of p.operands) {
        const file = remoteName(u.value);
        out.push(mk(withValue(u, dir ? `${dir}/${file}` : file)));
      }
    }
    return out;
  }
  if (name === 'wget') {
    const p = parseArgs(cmd.argv, WGET_SPEC);
    const doc = optionValue(p, 'O', 'output-document');
    if (doc) return doc.value === '-' ? [] : [mk(doc)];
    const dir = optionValue(p, 'P', 'directory-prefix')?.value;
    return p.operands.map((u) => mk(withValue(u, (dir ? `${dir}/` : '') + remoteName(u.value))));
  }
  return [];
}

/**
 * The files `cmd` writes: redirect targets, `tee` files, the destination of `cp`/`mv`/`ln`/
 * `install`/`rsync`/`scp` (and `mv`'s sources, which it moves away), `dd of=`, files edited in
 * place (`sed -i`, `perl -i`), changed (`truncate`, `touch`, `chmod`, `chown`), deleted (`rm`,
 * `unlink`, `shred`) or downloaded (`curl -o`, `wget`).
 */
export function writes(cmd: SimpleCommand): Write[] {
  const out: Write[] = [];
  for (const r of cmd.redirects) {
    if (!WRITE_REDIRECTS.has(r.op) || !r.target || /^[<>]\(/.test(r.target.raw)) continue;
    if (r.op === '>&' && /^(?:\d+|-)$/.test(r.target.value)) continue;
    if (r.op === '<>' && r.fd === null) continue;
    out.push({ word: r.target, how: 'redirect' });
  }
  const name = programName(cmd);
  if (name === 'tee') {
    for (const w of parseArgs(cmd.argv, { long: ['output-error'] }).operands)
      out.push({ word: w, how: 'tee' });
  } else if (COPIERS[name]) {
    const p = parseArgs(cmd.argv, COPIERS[name]);
    const dir = optionValue(p, 't', 'target-directory');
    if (name === 'install' && has(p, 'd', 'directory')) {
      for (const w of p.operands) out.push({ word: w, how: 'copy' });
    } else if (dir) {
      out.push({ word: dir, how: name === 'ln' ? 'link' : 'copy' });
      if (name === 'mv') for (const w of p.operands) out.push({ word: w, how: 'move-source' });
    } else if (p.operands.length >= 2) {
      out.push({ word: p.operands.at(-1)!, how: name === 'ln' ? 'link' : 'copy' });
      if (name === 'mv') for (const w of p.operands.slice(0, -1)) out.push({ word: w, how: 'move-source' });
    }
  } else if (name === 'dd') {
    for (const w of cmd.argv.slice(1)) {
      if (w.value.startsWith('of=')) out.push({ word: withValue(w, w.value.slice(3)), how: 'dd' });
    }
  } else if (name === 'sed' || name === 'gsed') {
    const p = parseArgs(cmd.argv, {
      valued: 'efl',
      attached: 'i',
      long: ['expression', 'file', 'line-length'],
    });
    if (has(p, 'i', 'in-place')) {
      let files = p.operands;
      if (files[0]?.value === '' && !p.options.find((o) => o.name === 'i')?.value) files = files.slice(1);
      if (!has(p, 'e', 'f', 'expression', 'file')) files = files.slice(1);
      for (const w of files) out.push({ word: w, how: 'edit' });
    }
  } else if (/^perl[0-9.]*$/.test(name)) {
    const p = parseArgs(cmd.argv, { valued: 'eE', attached: 'i0lxIMmCdDV' });
    if (has(p, 'i')) {
      const files = has(p, 'e', 'E') ? p.operands : p.operands.slice(1);
      for (const w of files) out.push({ word: w, how: 'edit' });
    }
  } else if (MODIFIERS[name]) {
    const m = MODIFIERS[name];
    const p = parseArgs(cmd.argv, m.spec);
    const skip = has(p, 'reference') ? 0 : m.skip;
    for (const w of p.operands.slice(skip)) out.push({ word: w, how: m.how });
  } else if (name === 'ssh-keygen') {
    const p = parseArgs(cmd.argv, { valued: 'fbCtNZaEmnOPrsVwzI' });
    const f = optionValue(p, 'f');
    if (f && !has(p, 'l', 'y', 'F', 'B')) out.push({ word: f, how: 'modify' });
  } else {
    out.push(...downloadWrites(cmd));
  }
  return out;
}

/** True when `p` lies in `dir` (or is it). Both absolute, normalised. */
export function within(dir: string, p: string): boolean {
  if (dir === '/') return p.startsWith('/');
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}
