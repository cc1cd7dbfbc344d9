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
 * - A shell with neither `-c` nor a script file runs its stdin (`curl … | sh`, `bash <<EOF`);
 *   so do `at`/`batch` and `parallel` without a command.
 * - Namespaces, sandboxes and limits run their command as given: `unshare`, `nsenter`,
 *   `systemd-run`, `setpriv`, `chrt`, `prlimit`, `numactl`, `firejail`, `bwrap`, `proot`,
 *   `faketime`, `valgrind`, `torsocks`, `proxychains`, `xvfb-run`, `sshpass`, `screen`, terminals'
 *   `-e` … (prefix wrappers).
 * - Shell commands in options, operands and variables (`optionScripts`, option-scripts.ts):
 *   `git -c alias.x='!…'` and other settings git runs, `ssh -o ProxyCommand=…`, `ssh HOST CMD…`,
 *   `rsync -e`, `tar -I` / `--to-command` / `--checkpoint-action=exec=`, `zip -TT`, `vim -c '!…'`,
 *   `gdb -ex 'shell …'`, `tmux new|run-shell|send-keys …`, `parallel CMD :::`, `hyperfine CMD`,
 *   `sg GROUP CMD`, and `GIT_SSH_COMMAND=… git …`, `PAGER=…`, `EDITOR=…` (`COMMAND_VARIABLES`;
 *   analyze.ts).
 *
 * Each wrapper's options (which take a value, what the command follows) are tabled in
 * wrapper-options.ts.
 */
import { optionScripts } from './option-scripts.js';
import {
  BWRAP_ARITY,
  PACKAGE_RUNNERS,
  PREFIX,
  TERMINALS,
  commandOption,
  skipOptions,
} from './wrapper-options.js';
import { literalValue as word, literalWord, type ShellWord } from './words.js';

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
  /**
   * Shell commands the program runs from its options or operands (`git -c alias.x='!…'`,
   * `ssh -o ProxyCommand=…`, `tar --to-command`, `rsync -e`, `vim -c '!…'`, `ssh HOST CMD`,
   * `tmux new 'CMD'`, `parallel CMD ::: …`); parsed again by the caller.
   */
  optionScripts: string[];
  /** The program is a shell that reads its script from stdin. */
  readsStdinScript: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash', 'yash', 'posh']);

const baseName = (w: ShellWord | undefined): string =>
  w && w.literal ? (w.value.split('/').pop() ?? '').toLowerCase() : '';

/** env's long options, for GNU's unique-prefix abbreviations (`--s=` is `--split-string=`). */
const ENV_LONG = [
  'ignore-environment',
  'null',
  'unset',
  'chdir',
  'split-string',
  'block-signal',
  'default-signal',
  'ignore-signal',
  'list-signal-handling',
  'debug',
  'help',
  'version',
  'argv0',
];

/** `argv` of an `env` command with its leading long options written in full (NULs dropped). */
function envLongOptions(argv: ShellWord[]): ShellWord[] {
  const out = [...argv];
  for (let i = 1; i < out.length; i++) {
    const v = out[i]!.value.replace(/\0/g, '');
    if (v === '--' || !v.startsWith('-')) break;
    if (!v.startsWith('--')) continue;
    const eq = v.indexOf('=');
    const name = eq < 0 ? v.slice(2) : v.slice(2, eq);
    const full = ENV_LONG.includes(name) ? [name] : ENV_LONG.filter((o) => o.startsWith(name));
    if (full.length === 1) out[i] = { ...out[i]!, value: `--${full[0]}${eq < 0 ? '' : v.slice(eq)}` };
    if (eq < 0 && /^(?:unset|chdir|split-string|argv0)$/.test(full[0] ?? '')) i++;
  }
  return out;
}

/** Looks through wrappers and finds nested scripts (see the file comment). */
export function unwrap(argvIn: ShellWord[]): Unwrapped {
  let argv = argvIn;
  const out: Unwrapped = {
    argv,
    wrappers: [],
    assignments: [],
    runs: [],
    optionScripts: [],
    readsStdinScript: false,
  };
  for (let guard = 0; guard < 32 && argv.length > 0; guard++) {
    const name = baseName(argv[0]);
    if (name === 'env') {
      let split: string | undefined;
      argv = envLongOptions(argv);
      let i = skipOptions(
        argv,
        1,
        { valued: 'uCSa', long: ['unset', 'chdir', 'split-string', 'argv0'] },
        (opt, v) => {
          if ((opt === 'S' || opt === 'split-string') && v) split = v.value;
        },
      );
      // env takes every NAME=VALUE word before the program as an assignment, whatever NAME holds
      while (i < argv.length && /^[^=/-][^=]*=/.test(argv[i]!.value)) {
        const w = argv[i]!;
        const eq = w.value.indexOf('=');
        out.assignments.push({ name: w.value.slice(0, eq), value: { ...w, value: w.value.slice(eq + 1) } });
        i++;
      }
      out.wrappers.push({ name, words: argv.slice(0, i) });
      let rest = argv.slice(i);
      // what follows `-S STRING` is appended to the split words, options too (refusing the line
      // rather than trusting env to reject them)
      const at = argv.findIndex((w, k) => k > 0 && /^(?:-[^-]*S|--split-string)/.test(w.value));
      if (split !== undefined && at > 0 && at < i) {
        const attached = /^-[^-]*S./.test(argv[at]!.value) || argv[at]!.value.includes('=');
        rest = argv.slice(at + (attached ? 1 : 2));
      }
      if (split === undefined) argv = rest;
      else {
        // `-S STRING` is split into words (`\_` is a blank) that may start with env's own options
        // and assignments again, so they are read as another `env` invocation
        const words = split.replace(/\\_/g, ' ').split(/\s+/).filter(Boolean).map(literalWord);
        argv = words.length > 0 ? [literalWord('env'), ...words, ...rest] : rest;
      }
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
    if (name === 'bwrap') {
      let i = 1;
      while (i < argv.length && word(argv[i]).startsWith('--')) {
        const w = word(argv[i]);
        i += w === '--' ? 1 : 1 + (BWRAP_ARITY[w] ?? 0);
        if (w === '--') break;
      }
      if (i >= argv.length) break;
      out.wrappers.push({ name, words: argv.slice(0, i) });
      argv = argv.slice(i);
      continue;
    }
    if (TERMINALS.has(name)) {
      const i = argv.findIndex((w, k) => k > 0 && /^(?:-e|-x|--command|--execute|--)$/.test(word(w)));
      if (i < 0 || i + 1 >= argv.length) break;
      out.wrappers.push({ name, words: argv.slice(0, i + 1) });
      argv = argv.slice(i + 1);
      continue;
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
      if (w === '--rcfile' || w === '--init-file') {
        i++;
        continue;
      }
      if (/^-[a-zA-Z]*c/.test(w)) command = true;
      // `-o NAME` / `-O NAME`, also ending a cluster (`-lO extglob`, `+lo posix`), take the next word
      if (/^[-+][a-zA-Z]*[oO]$/.test(w)) i++;
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
  out.optionScripts.push(...optionScripts(argv, name, out));
  return out;
}
