/**
 * How the wrappers that wrappers.ts looks through read their options: per program, the options
 * that take a value and the words consumed before the command (`PREFIX`), `bwrap`'s option arity,
 * the terminal emulators whose `-e` runs a command, the package runners (`npx`, `uv run` …), and
 * `skipOptions` / `commandOption`, which walk an argv by those tables.
 */
import { literalValue as word, literalWord, type ShellWord } from './words.js';

/** Per wrapper: options that take a value (short letters and long names), and how it ends. */
export interface Spec {
  /** Short options whose value is the next word (or the rest of the same word). */
  valued?: string;
  /** Long options (without `--`) whose value is the next word unless given with `=`. */
  long?: string[];
  /** Plain words consumed after the options before the command (`timeout 5 cmd`: 1). */
  positional?: number;
}

/** Prefix wrappers (and those `unwrap` handles by name: `flock`, `runuser`, `watch`) by program name. */
export const PREFIX: Record<string, Spec> = {
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
export const BWRAP_ARITY: Record<string, number> = {
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
export const TERMINALS = new Set([
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

/**
 * Package runners: program → the sub-commands that run a package (none: the program itself does)
 * and their options. A `c`/`call` option holds a script string.
 */
export const PACKAGE_RUNNERS: Record<string, { sub?: string[][]; spec: Spec }> = {
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

/**
 * Skips a wrapper's options: returns the index of the first word after them (and after its
 * positional words). `onOption` sees each option and its value, if it takes one.
 */
export function skipOptions(
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

/** Long options of su/runuser/script/flock (for GNU's unique-prefix abbreviations: `--comm`). */
const COMMAND_LONG = [
  'command',
  'session-command',
  'shell',
  'login',
  'group',
  'supp-group',
  'user',
  'pty',
  'preserve-environment',
  'whitelist-environment',
  'fast',
  'help',
  'version',
];
/** Those that take a value (the next word unless written with `=`). */
const COMMAND_LONG_VALUED = /^(?:command|session-command|shell|group|supp-group|user|whitelist-environment)$/;

/**
 * The value of the last `-c STRING` / `--command STRING` / `--command=STRING` /
 * `--session-command …` option (abbreviations too) before `--`: the one su and runuser run.
 * Values of other options (`-w LIST`, `--shell PATH`) are skipped.
 */
export function commandOption(argv: ShellWord[]): string | undefined {
  let found: string | undefined;
  const program = (word(argv[0]).split('/').pop() ?? '').toLowerCase();
  const valued = program === 'su' || program === 'runuser' ? 'cugGsw' : program === 'flock' ? 'cwE' : 'cTEIO';
  for (let i = 1; i < argv.length; i++) {
    const w = word(argv[i]).replace(/\0/g, '');
    if (w === '--') break;
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const given = eq < 0 ? w.slice(2) : w.slice(2, eq);
      const matches = COMMAND_LONG.includes(given)
        ? [given]
        : COMMAND_LONG.filter((o) => o.startsWith(given));
      const name = matches.length === 1 ? matches[0]! : given;
      const value = eq >= 0 ? w.slice(eq + 1) : COMMAND_LONG_VALUED.test(name) ? argv[++i]?.value : undefined;
      if (name === 'command' || name === 'session-command') found = value;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(w)) {
      // a cluster of short flags: a valued letter takes the rest of the word or the next word
      for (let k = 1; k < w.length; k++) {
        if (!valued.includes(w[k]!)) continue;
        const value = k < w.length - 1 ? w.slice(k + 1) : argv[++i]?.value;
        if (w[k] === 'c') found = value;
        break;
      }
    }
  }
  return found;
}
