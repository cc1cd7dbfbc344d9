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
 * - Shell commands in options, operands and variables (`optionScripts`): `git -c alias.x='!…'`
 *   and other settings git runs, `ssh -o ProxyCommand=…`, `ssh HOST CMD…`, `rsync -e`, `tar -I` /
 *   `--to-command` / `--checkpoint-action=exec=`, `zip -TT`, `vim -c '!…'`, `gdb -ex 'shell …'`,
 *   `tmux new|run-shell|send-keys …`, `parallel CMD :::`, `hyperfine CMD`, `sg GROUP CMD`, and
 *   `GIT_SSH_COMMAND=… git …`, `PAGER=…`, `EDITOR=…` (`COMMAND_VARIABLES`; analyze.ts).
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
  // namespaces, sandboxes, schedulers and limits: they run their command as given
  unshare: { valued: 'SGRw', long: ['setuid', 'setgid', 'root', 'wd'] },
  nsenter: { valued: 'tSGrwW', long: ['target', 'setuid', 'setgid', 'root', 'wd'] },
  setpriv: {
    long: [
      'reuid',
      'regid',
      'ruid',
      'euid',
      'rgid',
      'egid',
      'groups',
      'inh-caps',
      'ambient-caps',
      'bounding-set',
    ],
  },
  chrt: { valued: 'TPD', long: ['sched-runtime', 'sched-period', 'sched-deadline'], positional: 1 },
  prlimit: { valued: 'p', long: ['pid', 'output'] },
  numactl: {
    valued: 'NmCpPiw',
    long: ['cpunodebind', 'membind', 'physcpubind', 'preferred', 'interleave', 'weighted-interleave'],
  },
  cgexec: { valued: 'g' },
  firejail: {},
  proot: { valued: 'rbmwkqv', long: ['rootfs', 'bind', 'mount', 'cwd', 'kernel-release', 'qemu', 'verbose'] },
  faketime: { positional: 1 },
  valgrind: {},
  torsocks: { valued: 'uapP' },
  proxychains: { valued: 'f' },
  proxychains4: { valued: 'f' },
  tsocks: {},
  'xvfb-run': {
    valued: 'nsfepw',
    long: ['server-num', 'server-args', 'auth-file', 'error-file', 'xauth-protocol', 'wait'],
  },
  sshpass: { valued: 'pfdP' },
  'dbus-run-session': { long: ['config-file', 'dbus-daemon'] },
  'dbus-launch': {},
  chpst: { valued: 'uUbe/nlLmdopfcr' },
  setarch: { positional: 1 },
  linux32: {},
  linux64: {},
  catchsegv: {},
  nocache: {},
  'systemd-run': {
    valued: 'upEMHs',
    long: [
      'unit',
      'property',
      'description',
      'slice',
      'setenv',
      'uid',
      'gid',
      'nice',
      'working-directory',
      'machine',
      'host',
      'on-active',
      'on-boot',
      'on-startup',
      'on-unit-active',
      'on-unit-inactive',
      'on-calendar',
      'on-timezone-change',
      'on-clock-change',
      'timer-property',
      'path-property',
      'socket-property',
      'service-type',
    ],
  },
  screen: { valued: 'SceEhpst' },
};

/** `bwrap` options and how many words each takes after it (unknown ones take none). */
const BWRAP_ARITY: Record<string, number> = {
  '--args': 1,
  '--argv0': 1,
  '--userns': 1,
  '--userns2': 1,
  '--pidns': 1,
  '--uid': 1,
  '--gid': 1,
  '--hostname': 1,
  '--chdir': 1,
  '--unsetenv': 1,
  '--lock-file': 1,
  '--sync-fd': 1,
  '--remount-ro': 1,
  '--exec-label': 1,
  '--file-label': 1,
  '--proc': 1,
  '--dev': 1,
  '--tmpfs': 1,
  '--mqueue': 1,
  '--dir': 1,
  '--seccomp': 1,
  '--add-seccomp-fd': 1,
  '--block-fd': 1,
  '--userns-block-fd': 1,
  '--info-fd': 1,
  '--json-status-fd': 1,
  '--cap-add': 1,
  '--cap-drop': 1,
  '--perms': 1,
  '--size': 1,
  '--chmod': 2,
  '--setenv': 2,
  '--bind': 2,
  '--bind-try': 2,
  '--dev-bind': 2,
  '--dev-bind-try': 2,
  '--ro-bind': 2,
  '--ro-bind-try': 2,
  '--bind-fd': 2,
  '--ro-bind-fd': 2,
  '--file': 2,
  '--bind-data': 2,
  '--ro-bind-data': 2,
  '--symlink': 2,
  '--overlay-src': 1,
  '--overlay': 3,
  '--tmp-overlay': 1,
  '--ro-overlay': 1,
};

/** Terminal emulators whose `-e` (or `--`) runs the rest of the words as a command. */
const TERMINALS = new Set([
  'xterm',
  'uxterm',
  'gnome-terminal',
  'konsole',
  'alacritty',
  'kitty',
  'urxvt',
  'rxvt',
  'st',
  'foot',
  'xfce4-terminal',
  'terminator',
  'tilix',
  'lxterminal',
  'mate-terminal',
  'wezterm',
  'x-terminal-emulator',
]);

/** `tmux` commands whose words after the options are a shell command (or keys typed into one). */
const TMUX_RUNS = new Set([
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
  'display-popup',
  'popup',
  'send-keys',
  'send',
  'pipe-pane',
  'pipep',
  'if-shell',
  'if',
]);

/** `ssh` options that take a value. */
const SSH_VALUED = 'BbcDEeFIiJLlmOoPpQRSWw';

/** `ssh -o` settings that run a local shell command. */
const SSH_COMMAND_OPTIONS = /^(?:proxycommand|localcommand|knownhostscommand|remotecommand)$/i;

/**
 * `git -c NAME=VALUE` settings whose value git runs as a shell command: `alias.X=!…`, pagers,
 * editors, `core.sshCommand`, `core.fsmonitor`, diff/merge/filter drivers, credential helpers.
 */
const GIT_COMMAND_SETTING =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass|hookspath)|sequence\.editor|pager\..+|diff\.external|.+\.(?:textconv|command|cmd|driver|clean|smudge|process|helper|program|tool|path))$/i;

/** Variables whose value programs (git, ssh, pagers, editors) run as a shell command. */
export const COMMAND_VARIABLES = new Set([
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'PAGER',
  'MANPAGER',
  'EDITOR',
  'VISUAL',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
  'PROMPT_COMMAND',
  'BASH_ENV',
  'ENV',
]);

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
  out.optionScripts.push(...optionScripts(argv, name, out));
  return out;
}

const joined = (words: ShellWord[]): string => words.map((w) => w.value).join(' ');

/**
 * The shell commands `argv` (program `name`) runs from its options or operands (see
 * `Unwrapped.optionScripts`); sets `out.readsStdinScript` for programs that run their stdin
 * (`at`, `batch`, `parallel` without a command).
 */
function optionScripts(argv: ShellWord[], name: string, out: Unwrapped): string[] {
  const scripts: string[] = [];
  const valueOf = (i: number, flag: string): string | undefined => {
    const w = word(argv[i]);
    if (w === flag) return argv[i + 1]?.value;
    if (flag.startsWith('--') && w.startsWith(`${flag}=`)) return w.slice(flag.length + 1);
    if (!flag.startsWith('--') && w.startsWith(flag) && w.length > flag.length) return w.slice(flag.length);
    return undefined;
  };
  if (name === 'git') {
    for (let i = 1; i < argv.length; i++) {
      const setting = valueOf(i, '-c') ?? valueOf(i, '--config');
      if (setting === undefined) continue;
      const eq = setting.indexOf('=');
      if (eq < 0) continue;
      const key = setting.slice(0, eq);
      const value = setting.slice(eq + 1);
      if (/^alias\./i.test(key)) {
        if (value.startsWith('!')) scripts.push(value.slice(1));
      } else if (GIT_COMMAND_SETTING.test(key)) scripts.push(value.replace(/^!/, ''));
    }
  }
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'autossh') {
    let i = 1;
    for (; i < argv.length; i++) {
      const w = word(argv[i]);
      if (w === '--') {
        i++;
        break;
      }
      if (!w.startsWith('-') || w.length < 2) break;
      const o = valueOf(i, '-o');
      if (o !== undefined) {
        const m = /^\s*([A-Za-z]+)\s*(?:=|\s)\s*(.*)$/s.exec(o);
        if (m && SSH_COMMAND_OPTIONS.test(m[1]!)) scripts.push(m[2]!);
      }
      // a cluster of flags ends at a valued letter, whose value is the rest or the next word
      for (let k = 1; k < w.length; k++) {
        if (SSH_VALUED.includes(w[k]!)) {
          if (k === w.length - 1) i++;
          break;
        }
      }
    }
    // `ssh HOST COMMAND…`: the words after the host are one shell command run there
    if (name === 'ssh' || name === 'autossh') {
      const rest = argv.slice(i + 1);
      if (rest.length > 0) scripts.push(joined(rest));
    }
  }
  if (name === 'rsync') {
    for (let i = 1; i < argv.length; i++) {
      const v = valueOf(i, '-e') ?? valueOf(i, '--rsh') ?? valueOf(i, '--rsync-path');
      if (v !== undefined) scripts.push(v);
    }
  }
  if (name === 'tar' || name === 'gtar' || name === 'bsdtar') {
    for (let i = 1; i < argv.length; i++) {
      const v =
        valueOf(i, '-I') ??
        valueOf(i, '--use-compress-program') ??
        valueOf(i, '--to-command') ??
        valueOf(i, '--info-script') ??
        valueOf(i, '--new-volume-script') ??
        valueOf(i, '-F');
      if (v !== undefined) scripts.push(v);
      const action = valueOf(i, '--checkpoint-action');
      if (action !== undefined && /^exec=/.test(action)) scripts.push(action.slice(5));
    }
  }
  if (name === 'zip') {
    for (let i = 1; i < argv.length; i++) {
      const v = valueOf(i, '-TT') ?? valueOf(i, '--unzip-command');
      if (v !== undefined) scripts.push(v);
    }
  }
  if (/^(?:vim?|nvim|ex|view|gvim|vimdiff)$/.test(name)) {
    for (let i = 1; i < argv.length; i++) {
      const w = word(argv[i]);
      const v = w.startsWith('+') ? w.slice(1) : (valueOf(i, '-c') ?? valueOf(i, '--cmd'));
      const m =
        v === undefined
          ? null
          : /^\s*(?:silent!?\s*)?(?:!|(?:sh|shell|te|terminal|r!|read\s*!|w\s*!)\s*)(.*)$/s.exec(v);
      if (m && m[1]) scripts.push(m[1]);
    }
  }
  if (name === 'gdb') {
    for (let i = 1; i < argv.length; i++) {
      const v =
        valueOf(i, '-ex') ??
        valueOf(i, '--ex') ??
        valueOf(i, '-eval-command') ??
        valueOf(i, '--eval-command');
      const m = v === undefined ? null : /^\s*(?:shell\s+|!)(.*)$/s.exec(v);
      if (m && m[1]) scripts.push(m[1]);
    }
  }
  if (name === 'tmux') {
    // global options, then the command, its options, then the shell command's words
    let i = 1;
    for (; i < argv.length && word(argv[i]).startsWith('-'); i++) {
      const w = word(argv[i]);
      if (w === '-c') scripts.push(argv[i + 1]?.value ?? '');
      if (/^-[LSfcT]$/.test(w)) i++;
    }
    if (TMUX_RUNS.has(word(argv[i]))) {
      let j = i + 1;
      for (; j < argv.length && word(argv[j]).startsWith('-') && word(argv[j]) !== '--'; j++) {
        if (/^-[ceFfnstxylNlpwh]$/.test(word(argv[j]))) j++;
      }
      if (word(argv[j]) === '--') j++;
      const rest = argv.slice(j);
      if (rest.length > 0) scripts.push(joined(rest));
    }
  }
  if (name === 'parallel' || name === 'sem') {
    const sep = argv.findIndex((w) => /^:::+\+?$/.test(word(w)));
    let i = 1;
    const end = sep < 0 ? argv.length : sep;
    for (; i < end && word(argv[i]).startsWith('-'); i++) {
      if (
        /^-[jSaIdEXN]$|^--(?:jobs|sshlogin|arg-file|delimiter|replace|eof|colsep|results|joblog|timeout|tag-string|workdir|env)$/.test(
          word(argv[i]),
        )
      )
        i++;
    }
    const command = argv.slice(i, end);
    if (command.length > 0) scripts.push(joined(command));
    else if (sep >= 0)
      for (const w of argv.slice(sep + 1))
        if (!/^:::+\+?$/.test(word(w))) scripts.push(w.value);
        else out.readsStdinScript = true;
  }
  if (name === 'hyperfine') {
    for (let i = 1; i < argv.length; i++) {
      const w = word(argv[i]);
      if (/^-(?:p|c|s|-prepare|-cleanup|-setup|-conclude)$/.test(w)) {
        scripts.push(argv[i + 1]?.value ?? '');
        i++;
      } else if (
        /^-[wmMrnLSuN]$|^--(?:warmup|min-runs|max-runs|runs|command-name|parameter-list|parameter-scan|shell|time-unit|export-\w+|output|style|sort)$/.test(
          w,
        )
      )
        i++;
      else if (!w.startsWith('-')) scripts.push(argv[i]!.value);
    }
  }
  if (name === 'at' || name === 'batch') {
    if (!argv.slice(1).some((w) => /^-[a-zA-Z]*[flcdrq]/.test(word(w)))) out.readsStdinScript = true;
  }
  if (name === 'sg' && argv.length > 1) {
    // `sg GROUP [-c] COMMAND`: the command is shell text
    const rest = argv.slice(word(argv[1]) === '-' ? 3 : 2).filter((w, k) => !(k === 0 && word(w) === '-c'));
    if (rest.length > 0) scripts.push(joined(rest));
  }
  return scripts.filter((t) => t.trim() !== '');
}
