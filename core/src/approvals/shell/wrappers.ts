/**
 * Programs that run another program: the approval rules judge the program that runs, so these
 * are looked through.
 *
 * - Prefix wrappers run the rest of their arguments: `sudo`, `doas`, `env`, `nohup`, `exec`,
 *   `command`, `builtin`, `time`, `nice`, `ionice`, `timeout`, `stdbuf`, `setsid`, `chroot`,
 *   `taskset`, `unbuffer`, `caffeinate`, `busybox`/`toybox` applets, `flock FILE cmd`,
 *   `runuser -u U -- cmd`, `watch -x`. Their options are skipped (options that take a value
 *   consume it).
 * - Script runners hand a string to a shell: `bash|sh|zsh|… -c STRING`, `su -c STRING`,
 *   `runuser … -c STRING`, `flock … -c STRING`, `script -c STRING`, `watch STRING…`, `eval WORDS`,
 *   `env -S STRING`. The string is parsed again as a script (analyze.ts).
 * - Runners of a computed command: `xargs CMD` (arguments from stdin) and `find … -exec CMD ; / +`
 *   (`-execdir`, `-ok`, `-okdir`): the inner command is listed too.
 * - Package runners run a program by name: `npx`, `pnpx`, `bunx`, `uvx`, `npm exec|x`,
 *   `pnpm dlx|exec`, `yarn dlx|exec`, `bun x`, `pipx run`, `uv run`, `uv tool run`
 *   (`npx -c STRING` / `npm exec --call STRING` run a script string).
 * - A shell with neither `-c` nor a script file runs its stdin (`curl … | sh`, `bash <<EOF`).
 */
import { literalWord, type ShellWord } from './words.js';

/** A wrapper that was looked through, with the words it consumed (its name first). */
export interface Wrapper {
  name: string;
  words: ShellWord[];
}

/** What `unwrap` found. */
export interface Unwrapped {
  /** The program that runs and its arguments. */
  argv: ShellWord[];
  wrappers: Wrapper[];
  /** `NAME=value` words given to `env`. */
  assignments: { name: string; value: ShellWord }[];
  /** A script string the program runs (`bash -c`, `eval` …); parsed again by the caller. */
  script?: { text: string; via: 'shell -c' | 'eval' };
  /** Commands the program runs for each input (`xargs`, `find -exec`). */
  runs: { argv: ShellWord[]; via: 'xargs' | 'find -exec'; argsFromInput: boolean }[];
  /** The program is a shell that reads its script from stdin. */
  readsStdinScript: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash', 'yash', 'posh']);

/** Per wrapper: options that take a value (short letters and long names), and how it ends. */
interface Spec {
  /** Short options whose value is the next word (or the rest of the same word). */
  valued?: string;
  /** Long options (without `--`) whose value is the next word unless given with `=`. */
  long?: string[];
  /** Plain words consumed after the options before the command (`timeout 5 cmd`: 1). */
  positional?: number;
}

const PREFIX: Record<string, Spec> = {
  sudo: {
    valued: 'ugCDhprtUTRg',
    long: [
      'user',
      'group',
      'close-from',
      'chdir',
      'host',
      'prompt',
      'role',
      'type',
      'other-user',
      'command-timeout',
      'chroot',
    ],
  },
  doas: { valued: 'uC' },
  pkexec: { long: ['user'] },
  run0: { long: ['user', 'group', 'chdir', 'setenv', 'unit', 'property', 'description', 'slice', 'nice'] },
  nohup: {},
  exec: { valued: 'a' },
  builtin: {},
  time: { valued: 'fo', long: ['format', 'output'] },
  nice: { valued: 'n', long: ['adjustment'] },
  ionice: { valued: 'cnp', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
  timeout: { valued: 'sk', long: ['signal', 'kill-after'], positional: 1 },
  stdbuf: { valued: 'ioe', long: ['input', 'output', 'error'] },
  setsid: {},
  chroot: { long: ['userspec', 'groups'], positional: 1 },
  taskset: { positional: 1 },
  unbuffer: {},
  caffeinate: { valued: 'tw' },
  busybox: {},
  toybox: {},
  flock: { valued: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'], positional: 1 },
  runuser: { valued: 'ugGc', long: ['user', 'group', 'supp-group', 'command', 'shell', 'session-command'] },
  watch: { valued: 'nqd', long: ['interval', 'differences', 'equexit', 'chgexit'] },
  strace: { valued: 'oeEpPsSIXbaU', long: ['output', 'trace', 'signal', 'attach'] },
  ltrace: { valued: 'oepsSanIlLuXxDw' },
};

/**
 * Package runners: program → the sub-commands that run a package (none: the program itself does)
 * and their options. A `c`/`call` option holds a script string.
 */
const PACKAGE_RUNNERS: Record<string, { sub?: string[][]; spec: Spec }> = {
  npx: { spec: { valued: 'pc', long: ['package', 'call', 'workspace'] } },
  pnpx: { spec: { valued: 'pc', long: ['package', 'call'] } },
  bunx: { spec: { valued: 'p', long: ['package'] } },
  uvx: { spec: { long: ['from', 'with', 'python', 'index', 'index-url'] } },
  npm: { sub: [['exec'], ['x']], spec: { valued: 'pcw', long: ['package', 'call', 'workspace', 'prefix'] } },
  pnpm: { sub: [['dlx'], ['exec']], spec: { valued: 'pcC', long: ['package', 'call', 'dir', 'filter'] } },
  yarn: { sub: [['dlx'], ['exec']], spec: { valued: 'p', long: ['package'] } },
  bun: { sub: [['x']], spec: {} },
  pipx: { sub: [['run']], spec: { long: ['spec', 'python', 'pip-args', 'index-url'] } },
  uv: {
    sub: [['run'], ['tool', 'run']],
    spec: { long: ['with', 'python', 'project', 'directory', 'from', 'package', 'index'] },
  },
};

const word = (w: ShellWord | undefined): string => (w && w.literal ? w.value : '');

/**
 * Skips a wrapper's options: returns the index of the first word after them (and after its
 * positional words). `onOption` sees each option and its value, if it takes one.
 */
function skipOptions(
  argv: ShellWord[],
  from: number,
  spec: Spec,
  onOption?: (name: string, value: ShellWord | undefined) => void,
): number {
  let i = from;
  while (i < argv.length) {
    const w = word(argv[i]);
    if (w === '--') {
      i++;
      break;
    }
    if (w.startsWith('--') && w.length > 2) {
      const [name, inline] = w.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (inline === undefined && spec.long?.includes(name)) {
        onOption?.(name, argv[i + 1]);
        i += 2;
      } else {
        onOption?.(name, inline !== undefined ? literalWord(inline) : undefined);
        i++;
      }
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      // a cluster of short flags (`-0` of xargs, `-10` of nice too); a valued letter takes the rest
      // of the word or the next word
      let consumed = 1;
      for (let k = 1; k < w.length; k++) {
        const letter = w[k]!;
        if (spec.valued?.includes(letter)) {
          const rest = w.slice(k + 1);
          if (rest) onOption?.(letter, literalWord(rest));
          else {
            onOption?.(letter, argv[i + 1]);
            consumed = 2;
          }
          break;
        }
        onOption?.(letter, undefined);
      }
      i += consumed;
      continue;
    }
    break;
  }
  return Math.min(argv.length, i + (spec.positional ?? 0));
}

/** The value of a `-c STRING` / `--command STRING` / `--command=STRING` option anywhere in argv. */
function commandOption(argv: ShellWord[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = word(argv[i]);
    if (w === '--') return undefined;
    if (w === '-c' || w === '--command' || w === '--session-command') return argv[i + 1]?.value;
    if (w.startsWith('--command=') || w.startsWith('--session-command=')) return w.slice(w.indexOf('=') + 1);
    if (/^-[a-z]+c$/i.test(w) && !w.startsWith('--')) return argv[i + 1]?.value;
  }
  return undefined;
}

const baseName = (w: ShellWord | undefined): string =>
  w && w.literal ? (w.value.split('/').pop() ?? '').toLowerCase() : '';

/** Looks through wrappers and finds nested scripts (see the file comment). */
export function unwrap(argvIn: ShellWord[]): Unwrapped {
  let argv = argvIn;
  const out: Unwrapped = { argv, wrappers: [], assignments: [], runs: [], readsStdinScript: false };
  for (let guard = 0; guard < 32 && argv.length > 0; guard++) {
    const name = baseName(argv[0]);
    if (name === 'env') {
      let split: string | undefined;
      let i = skipOptions(argv, 1, { valued: 'uCS', long: ['unset', 'chdir', 'split-string'] }, (opt, v) => {
        if ((opt === 'S' || opt === 'split-string') && v) split = v.value;
      });
      while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!.value)) {
        const w = argv[i]!;
        const eq = w.value.indexOf('=');
        out.assignments.push({ name: w.value.slice(0, eq), value: { ...w, value: w.value.slice(eq + 1) } });
        i++;
      }
      out.wrappers.push({ name, words: argv.slice(0, i) });
      const rest = argv.slice(i);
      argv = split !== undefined ? [...split.split(/\s+/).filter(Boolean).map(literalWord), ...rest] : rest;
      continue;
    }
    if (name === 'command') {
      // `command -v x` / `command -V x` only look a name up
      if (argv.slice(1).some((w) => /^-[a-z]*[vV]/.test(word(w)))) break;
      const i = skipOptions(argv, 1, {});
      out.wrappers.push({ name, words: argv.slice(0, i) });
      argv = argv.slice(i);
      continue;
    }
    if ((name === 'busybox' || name === 'toybox') && argv.length > 1 && !word(argv[1]).startsWith('-')) {
      out.wrappers.push({ name, words: argv.slice(0, 1) });
      argv = argv.slice(1);
      continue;
    }
    if (name === 'eval') {
      out.wrappers.push({ name, words: argv.slice(0, 1) });
      out.script = {
        text: argv
          .slice(1)
          .map((w) => w.value)
          .join(' '),
        via: 'eval',
      };
      break;
    }
    if (name === 'su' || name === 'script' || name === 'flock' || name === 'runuser') {
      const script = commandOption(argv);
      if (script !== undefined) {
        out.script = { text: script, via: 'shell -c' };
        break;
      }
      if (name === 'su' || name === 'script') break;
      const i = skipOptions(argv, 1, PREFIX[name]!);
      if (i >= argv.length) break;
      out.wrappers.push({ name, words: argv.slice(0, i) });
      argv = argv.slice(i);
      continue;
    }
    if (name === 'watch') {
      let exec = false;
      const i = skipOptions(argv, 1, PREFIX.watch!, (opt) => {
        if (opt === 'x' || opt === 'exec') exec = true;
      });
      out.wrappers.push({ name, words: argv.slice(0, i) });
      if (exec) {
        argv = argv.slice(i);
        continue;
      }
      out.script = {
        text: argv
          .slice(i)
          .map((w) => w.value)
          .join(' '),
        via: 'shell -c',
      };
      argv = argv.slice(i);
      break;
    }
    const runner = PACKAGE_RUNNERS[name];
    if (runner) {
      const sub = runner.sub?.find((words) => words.every((w, k) => word(argv[1 + k]) === w));
      if (runner.sub && !sub) break;
      let script: string | undefined;
      const i = skipOptions(argv, 1 + (sub?.length ?? 0), runner.spec, (opt, v) => {
        if ((opt === 'c' || opt === 'call') && v) script = v.value;
      });
      if (script !== undefined) {
        out.script = { text: script, via: 'shell -c' };
        break;
      }
      if (i >= argv.length) break;
      out.wrappers.push({ name, words: argv.slice(0, i) });
      argv = argv.slice(i);
      continue;
    }
    const spec = PREFIX[name];
    if (spec) {
      const i = skipOptions(argv, 1, spec);
      if (i >= argv.length) break; // `sudo -l`, `time` alone: nothing wrapped
      out.wrappers.push({ name, words: argv.slice(0, i) });
      argv = argv.slice(i);
      continue;
    }
    break;
  }
  out.argv = argv;
  const name = baseName(argv[0]);
  if (SHELLS.has(name)) {
    let command = false;
    let i = 1;
    for (; i < argv.length; i++) {
      const w = word(argv[i]);
      if (w === '--' || (!w.startsWith('-') && !w.startsWith('+'))) break;
      if (w === '-o' || w === '+o' || w === '-O' || w === '+O' || w === '--rcfile' || w === '--init-file') {
        i++;
        continue;
      }
      if (/^-[a-zA-Z]*c/.test(w)) command = true;
    }
    if (word(argv[i]) === '--') i++;
    if (command) {
      const scriptWord = argv[i];
      if (scriptWord) out.script = { text: scriptWord.value, via: 'shell -c' };
    } else if (
      i >= argv.length ||
      word(argv[i]) === '-' ||
      argv.slice(1).some((w) => /^-[a-zA-Z]*s/.test(word(w)))
    ) {
      out.readsStdinScript = true;
    }
  }
  if (name === 'xargs') {
    const i = skipOptions(argv, 1, {
      valued: 'IiEeLlnPsdaR',
      long: [
        'replace',
        'eof',
        'max-lines',
        'max-args',
        'max-procs',
        'max-chars',
        'delimiter',
        'arg-file',
        'process-slot-var',
      ],
    });
    const inner = argv.slice(i);
    out.runs.push({
      argv: inner.length > 0 ? inner : [literalWord('echo')],
      via: 'xargs',
      argsFromInput: true,
    });
  }
  if (name === 'find') {
    for (let i = 1; i < argv.length; i++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(word(argv[i]))) continue;
      let j = i + 1;
      while (j < argv.length && word(argv[j]) !== ';' && word(argv[j]) !== '+') j++;
      const inner = argv.slice(i + 1, j);
      if (inner.length > 0) out.runs.push({ argv: inner, via: 'find -exec', argsFromInput: true });
      i = j;
    }
  }
  return out;
}
