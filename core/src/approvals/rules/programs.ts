/**
 * What kinds of programs do, for the rule families: shells and interpreters (where their code
 * comes from), downloaders and decoders, what flows into a command (pipes, process and command
 * substitutions), block devices, and the folders whose deletion is catastrophic.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ShellAnalysis, ShellWord, SimpleCommand } from '../shell/analyze.js';
import { programName } from './argv.js';
import type { RuleContext } from './types.js';

/** Shells: `-c STRING` runs a string, a file operand a script, neither their stdin. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'rbash',
  'yash',
  'posh',
  'csh',
  'tcsh',
]);

/** An interpreter's options: inline-code options, options taking a value, module options. */
interface InterpreterSpec {
  inline: readonly string[];
  valued?: readonly string[];
  module?: readonly string[];
  /** Options that only print something (`-v`, `--version`). */
  info?: readonly string[];
}

const INTERPRETERS: [RegExp, InterpreterSpec][] = [
  [
    /^(?:python[0-9.]*|pypy[0-9.]*)$/,
    { inline: ['c'], valued: ['W', 'X', 'Q'], module: ['m'], info: ['V', 'version', 'h', 'help'] },
  ],
  [
    /^(?:node|nodejs|bun)$/,
    {
      inline: ['e', 'p', 'eval', 'print'],
      valued: [
        'r',
        'require',
        'import',
        'loader',
        'experimental-loader',
        'input-type',
        'C',
        'conditions',
        'preload',
        'cwd',
        'env-file',
      ],
      info: ['v', 'version', 'h', 'help', 'test'],
    },
  ],
  [/^deno$/, { inline: ['eval', 'e'], info: ['V', 'version', 'h', 'help'] }],
  [
    /^perl[0-9.]*$/,
    { inline: ['e', 'E'], valued: ['I', 'M', 'm'], info: ['v', 'V', 'version', 'h', 'help'] },
  ],
  [/^ruby[0-9.]*$/, { inline: ['e'], valued: ['I', 'r', 'C'], info: ['v', 'version', 'h', 'help'] }],
  [/^php[0-9.]*$/, { inline: ['r'], valued: ['d', 'c', 'z'], info: ['v', 'version', 'h', 'help', 'i', 'm'] }],
  [/^(?:lua[0-9.]*|luajit)$/, { inline: ['e'], valued: ['l'], info: ['v'] }],
  [/^(?:rscript|r)$/, { inline: ['e'], info: ['version', 'help'] }],
  [/^julia$/, { inline: ['e', 'E', 'eval', 'print'], info: ['v', 'version', 'h', 'help'] }],
  [/^osascript$/, { inline: ['e'], valued: ['l', 's'] }],
  [/^(?:pwsh|powershell)$/, { inline: ['c', 'command', 'encodedcommand', 'ec'], info: ['v', 'version'] }],
  [/^(?:expect|tclsh[0-9.]*|wish)$/, { inline: ['c'], info: ['v'] }],
];

/** The interpreter spec of a program name, if it is one. */
function interpreterSpec(name: string): InterpreterSpec | undefined {
  return INTERPRETERS.find(([re]) => re.test(name))?.[1];
}

/** True for shells and script interpreters. */
export const isInterpreter = (name: string): boolean =>
  SHELLS.has(name) || interpreterSpec(name) !== undefined;

/** File names that are the process's own stdin. */
export const STDIN_FILE = /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Where the code a shell or interpreter runs comes from. */
export type CodeSource =
  | { kind: 'inline'; text: ShellWord }
  | { kind: 'file'; word: ShellWord }
  | { kind: 'stdin' }
  | { kind: 'none' };

/**
 * Where `cmd`'s code comes from, when its program is a shell or an interpreter: inline
 * (`bash -c`, `python -c`, `node -e`, `perl -e`, `deno eval` …), a script file (the first operand;
 * `bash <(curl …)` has a process substitution there), or stdin (no operand, `-`, `bash -s`).
 * Module runs (`python -m x`) and information options (`node -v`) are `none`.
 * @returns undefined for other programs.
 */
export function codeSource(cmd: SimpleCommand): CodeSource | undefined {
  const name = programName(cmd);
  const shell = SHELLS.has(name);
  const spec: InterpreterSpec | undefined = shell
    ? { inline: ['c'], valued: ['o', 'O', 'rcfile', 'init-file'], info: ['version', 'help'] }
    : interpreterSpec(name);
  if (!spec) return undefined;
  const argv = cmd.argv;
  let inline = false;
  let stdinFlag = false;
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!.value;
    if (name === 'deno' && i === 1 && v === 'eval')
      return argv[2] ? { kind: 'inline', text: argv[2] } : { kind: 'none' };
    if (name === 'deno' && i === 1 && v === 'run') continue;
    if (v === '-') return { kind: 'stdin' };
    if (v === '--') {
      const next = argv[i + 1];
      if (inline) return next ? { kind: 'inline', text: next } : { kind: 'none' };
      return next && !stdinFlag ? { kind: 'file', word: next } : { kind: 'stdin' };
    }
    if (!v.startsWith('-') && !(shell && v.startsWith('+'))) {
      if (inline) return { kind: 'inline', text: argv[i]! };
      return stdinFlag || STDIN_FILE.test(v) ? { kind: 'stdin' } : { kind: 'file', word: argv[i]! };
    }
    const long =
      v.startsWith('--') || (!shell && /^-[a-z]{3,}/i.test(v) && /^(?:pwsh|powershell)$/.test(name));
    if (long) {
      const [optName = '', value] = v.replace(/^--?/, '').toLowerCase().split(/=(.*)/s, 2);
      if (spec.info?.includes(optName)) return { kind: 'none' };
      if (spec.inline.includes(optName)) {
        if (value !== undefined) return { kind: 'inline', text: { ...argv[i]!, value } };
        inline = true;
      } else if (spec.valued?.includes(optName) && value === undefined) i++;
      continue;
    }
    const letters = v.slice(1);
    for (let k = 0; k < letters.length; k++) {
      const l = letters[k]!;
      const rest = letters.slice(k + 1);
      if (spec.info?.includes(l) && letters.length === 1) return { kind: 'none' };
      if (spec.module?.includes(l)) return { kind: 'none' };
      if (shell && l === 's') stdinFlag = true;
      if (spec.inline.includes(l)) {
        if (!shell && rest) return { kind: 'inline', text: { ...argv[i]!, value: rest } };
        inline = true;
        if (!shell) break;
      } else if (spec.valued?.includes(l)) {
        if (!rest) i++;
        break;
      }
    }
  }
  return inline ? { kind: 'none' } : { kind: 'stdin' };
}

/** True when `cmd` runs the code on its stdin (`sh`, `python3 -`, `source /dev/stdin`). */
export function runsStdin(cmd: SimpleCommand): boolean {
  const name = programName(cmd);
  if (name === 'source' || name === '.') return STDIN_FILE.test(cmd.argv[1]?.value ?? '');
  return isInterpreter(name) && codeSource(cmd)?.kind === 'stdin';
}

/** Programs that fetch data from another machine. */
const DOWNLOADERS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'httpie',
  'xh',
  'xhs',
  'curlie',
  'lwp-request',
  'lwp-download',
  'get',
  'ftp',
  'tftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
]);

/** True when `cmd` downloads (curl, wget, nc …). */
export const isDownloader = (cmd: SimpleCommand): boolean => DOWNLOADERS.has(programName(cmd));

/** True when `cmd` decodes encoded text (`base64 -d`, `xxd -r`, `openssl enc -d`, `uudecode`). */
export function isDecoder(cmd: SimpleCommand): boolean {
  const name = programName(cmd);
  const words = cmd.argv.slice(1).map((w) => w.value);
  if (name === 'base64' || name === 'base32' || name === 'basenc' || name === 'gbase64') {
    return words.some((w) => w === '--decode' || /^-[a-zA-Z]*[dD]/.test(w));
  }
  if (name === 'xxd') return words.some((w) => /^-[a-z]*r/.test(w));
  if (name === 'openssl') return words.includes('-d');
  return name === 'uudecode' || name === 'b64decode';
}

const childCache = new WeakMap<ShellAnalysis, Map<SimpleCommand, SimpleCommand[]>>();

/** The commands found inside `cmd` (its substitutions, its `-c` script, what it runs). */
export function childrenOf(cmd: SimpleCommand, analysis: ShellAnalysis): SimpleCommand[] {
  let map = childCache.get(analysis);
  if (!map) {
    map = new Map();
    for (const c of analysis.commands) {
      if (!c.parent) continue;
      const list = map.get(c.parent) ?? [];
      list.push(c);
      map.set(c.parent, list);
    }
    childCache.set(analysis, map);
  }
  return map.get(cmd) ?? [];
}

/**
 * Every command whose output may reach `start` (and `start` itself): previous pipeline stages,
 * the commands inside them, and what feeds their stdin (`< <(…)`, `<<< "$(…)"`), transitively.
 */
export function upstream(start: readonly SimpleCommand[], analysis: ShellAnalysis): SimpleCommand[] {
  const seen = new Set<SimpleCommand>();
  const queue = [...start];
  while (queue.length > 0 && seen.size < 500) {
    const c = queue.shift()!;
    if (seen.has(c)) continue;
    seen.add(c);
    queue.push(...c.pipedFrom, ...childrenOf(c, analysis));
    for (const r of c.redirects) if (r.op.startsWith('<') && r.commands) queue.push(...r.commands);
  }
  return [...seen];
}

/** The commands whose output `cmd` reads as its stdin: its pipe, `< <(…)` and here-string substitutions. */
export function stdinProducers(cmd: SimpleCommand): SimpleCommand[] {
  const out = [...cmd.pipedFrom];
  for (const r of cmd.redirects) if ((r.op === '<' || r.op === '<<<') && r.commands) out.push(...r.commands);
  return out;
}

/** True when `cmd` gets stdin from a pipe, a redirect from a file, a here-document or here-string. */
export const hasStdinInput = (cmd: SimpleCommand): boolean =>
  cmd.pipedFrom.length > 0 ||
  cmd.redirects.some((r) => (r.op === '<' && r.fd === null) || r.op.startsWith('<<'));

/** Block devices by name: disks, partitions, md/dm/loop/nbd, macOS disks, and raw memory. */
const BLOCK_DEVICE =
  /^\/dev\/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd|zram|rbd|bcache|sr|scd|sg|ubd|mtdblock|emcpower)[a-z0-9]*|r?disk\d[a-z0-9]*|mapper\/.+|disk\/by-[^/]+\/.+|root|mem|kmem|port|[a-z]+vg\/.+)$/;

/** True when `p` (absolute) is a block device: by name, or by what the file system says. */
export function isBlockDevice(p: string): boolean {
  if (BLOCK_DEVICE.test(p)) return true;
  if (!p.startsWith('/dev/')) return false;
  try {
    return statSync(p).isBlockDevice();
  } catch {
    return false;
  }
}

/** Device files that are safe to write: `/dev/null`, the terminal, standard streams, `/dev/shm`. */
export const HARMLESS_DEVICE =
  /^\/dev\/(?:null|zero|full|u?random|stdout|stderr|stdin|tty\d*|console|fd\/\d+|pts\/\d+|ptmx|shm(?:\/.*)?|log)$/;

/** Top-level system folders whose deletion is catastrophic (with `/` and the user's home). */
export const SYSTEM_FOLDERS: readonly string[] = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/media',
  '/mnt',
  '/nix',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/share',
  '/var/lib',
  '/Applications',
  '/Library',
  '/System',
  '/Users',
  '/Volumes',
  '/private',
  '/private/etc',
  '/private/var',
];

/** The protected folders: `/`, the user's home and `SYSTEM_FOLDERS`. */
function protectedFolders(ctx: RuleContext): Set<string> {
  return new Set(['/', ctx.userHome.replace(/\/+$/, '') || '/', ...SYSTEM_FOLDERS]);
}

/** A last path segment made only of wildcards (`*`, `.*`, `.[!.]*`): every entry of its folder. */
const ALL_ENTRIES = /^[*?.[\]!^]*\*[*?.[\]!^]*$/;

/**
 * The protected folder (`/`, the user's home, a top-level system folder) a path word of `cmd`
 * deletes when the command deletes recursively: the folder itself, a glob matching it (`/u*`), or
 * a glob over all of its entries (`/*`, `~/*`, `~/.*`). Relative words resolve in the folder the
 * command runs in (`ctx.pathsAt`); a word with a variable the guard does not know is not judged.
 */
export function protectedTarget(word: ShellWord, cmd: SimpleCommand, ctx: RuleContext): string | undefined {
  if (word.substitution || (ctx.knownValue && !ctx.knownValue(word, { defaults: true }))) return undefined;
  const folders = protectedFolders(ctx);
  const found = ctx.pathsAt ? ctx.pathsAt(word, cmd) : ctx.paths(word);
  for (const p of found) {
    const clean = p.length > 1 ? p.replace(/\/+$/, '') : p;
    if (folders.has(clean)) return clean;
    if (!word.literal && ALL_ENTRIES.test(basename(clean)) && folders.has(dirname(clean))) return clean;
  }
  return undefined;
}
