/**
 * Shell commands a program runs from its options, operands and variables: `git -c alias.x='!…'`
 * and other settings git runs (also stored for later with `git config KEY VALUE`), `ssh -o ProxyCommand=…`, `ssh HOST CMD…`, `rsync -e`, `tar -I` /
 * `--to-command` / `--checkpoint-action=exec=`, `zip -TT`, `vim -c '!…'`, `gdb -ex 'shell …'`,
 * `tmux new|run-shell|send-keys …`, `parallel CMD :::`, `hyperfine CMD`, `sg GROUP CMD`; and the
 * variables (`GIT_SSH_COMMAND`, `PAGER`, `EDITOR` …) whose value programs run (`COMMAND_VARIABLES`,
 * read by analyze.ts). `unwrap` (wrappers.ts) lists these scripts for the caller to parse again.
 */
import { literalValue as word, type ShellWord } from './words.js';

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

const joined = (words: ShellWord[]): string => words.map((w) => w.value).join(' ');

/** The shell command git runs for setting `key` = `value` (an `!` alias, a pager, a driver …), if any. */
function gitSettingScripts(key: string, value: string): string[] {
  if (/^alias\./i.test(key)) return value.startsWith('!') ? [value.slice(1)] : [];
  return GIT_COMMAND_SETTING.test(key) ? [value.replace(/^!/, '')] : [];
}

/** git's options before the sub-command that take the next word as their value. */
const GIT_GLOBAL_VALUED = new Set([
  '-C',
  '-c',
  '--config',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
]);
/** `git config` options that take the next word as their value. */
const GIT_CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/**
 * The setting `git config [OPTIONS] [set] KEY VALUE` stores (a command stored this way runs at
 * every later `git` that uses it), or undefined for another sub-command or a read.
 */
function gitConfigSetting(argv: ShellWord[]): { key: string; value: string } | undefined {
  let i = 1;
  for (; i < argv.length; i++) {
    const w = word(argv[i]);
    if (!w.startsWith('-')) break;
    if (GIT_GLOBAL_VALUED.has(w)) i++;
  }
  if (word(argv[i]) !== 'config') return undefined;
  const operands: string[] = [];
  for (i++; i < argv.length; i++) {
    const w = argv[i]!.value;
    if (w === '--') {
      operands.push(...argv.slice(i + 1).map((x) => x.value));
      break;
    }
    if (w.startsWith('-')) {
      if (GIT_CONFIG_VALUED.has(w)) i++;
      continue;
    }
    operands.push(w);
  }
  if (operands[0] === 'set') operands.shift();
  const [key, value] = operands;
  return key !== undefined && value !== undefined ? { key, value } : undefined;
}

/**
 * The shell commands `argv` (program `name`) runs from its options or operands (see
 * `Unwrapped.optionScripts`); sets `out.readsStdinScript` for programs that run their stdin
 * (`at`, `batch`, `parallel` without a command).
 */
export function optionScripts(argv: ShellWord[], name: string, out: { readsStdinScript: boolean }): string[] {
  const scripts: string[] = [];
  const valueOf = (i: number, flag: string): string | undefined => {
    const w = word(argv[i]);
    if (w === flag) return argv[i + 1]?.value;
    if (flag.startsWith('--') && w.startsWith(`${flag}=`)) return w.slice(flag.length + 1);
    if (!flag.startsWith('--') && w.startsWith(flag) && w.length > flag.length) return w.slice(flag.length);
    return undefined;
  };
  if (name === 'git') {
    const aliases = new Map<string, string>();
    for (let i = 1; i < argv.length; i++) {
      const setting = valueOf(i, '-c') ?? valueOf(i, '--config');
      if (setting === undefined) continue;
      const eq = setting.indexOf('=');
      if (eq < 0) continue;
      const key = setting.slice(0, eq);
      const value = setting.slice(eq + 1);
      // config keys are case-insensitive: `alias.B` is `alias.b`
      if (/^alias\./i.test(key)) aliases.set(key.slice('alias.'.length).toLowerCase(), value);
      else if (GIT_COMMAND_SETTING.test(key)) scripts.push(value.replace(/^!/, ''));
    }
    // a one-off `-c alias.x='!…'` runs only when `x` is the sub-command; a stored one at every
    // later `git x`, so storing it is judged now
    scripts.push(...gitShellAliases(argv, aliases));
    const stored = gitConfigSetting(argv);
    if (stored) scripts.push(...gitSettingScripts(stored.key, stored.value));
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
    // `ssh HOST COMMAND…`: the words after the host are one shell command run there; `ssh HOST`
    // alone runs the remote login shell, which reads its commands from stdin
    if (name === 'ssh' || name === 'autossh') {
      const rest = argv.slice(i + 1);
      if (rest.length > 0) scripts.push(joined(rest));
      else if (i < argv.length) out.readsStdinScript = true;
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
  scripts.push(...programOptions(argv, name).map((o) => o.value));
  return scripts.filter((t) => t.trim() !== '');
}

/**
 * The `!SHELL` aliases a git command runs: its sub-command word resolved through plain aliases
 * (`alias.a=b`, `alias.b=!…`) up to a shell one. A defined alias that is not invoked runs nothing;
 * when the sub-command word is not known before the command runs, every shell alias counts.
 */
export function gitShellAliases(argv: readonly ShellWord[], aliases: ReadonlyMap<string, string>): string[] {
  const bangs = [...aliases.values()].filter((v) => v.startsWith('!')).map((v) => v.slice(1));
  if (bangs.length === 0) return [];
  const sub = gitSubcommandWord(argv);
  if (!sub) return [];
  if (!sub.literal) return bangs;
  let name = sub.value.toLowerCase();
  for (let hop = 0; hop < 16; hop++) {
    const value = aliases.get(name);
    if (value === undefined) return [];
    if (value.startsWith('!')) return [value.slice(1)];
    name = (value.trim().split(/\s+/)[0] ?? '').toLowerCase();
  }
  return []; // a cycle: git refuses to run it
}

/** The word at a git command's sub-command position (after its global options), if any. */
export function gitSubcommandWord(argv: readonly ShellWord[]): ShellWord | undefined {
  for (let i = 1; i < argv.length; i++) {
    const v = word(argv[i]);
    if (/^-(?:C|c|-git-dir|-work-tree|-namespace|-exec-path|-config-env|-config)$/.test(v)) i++;
    else if (!v.startsWith('-')) return argv[i];
  }
  return undefined;
}

/** A reading tool's options: those naming a program it runs, and those taking another value. */
interface ProgramOptionSpec {
  /** Long options (without `--`) whose value is a program the tool runs. */
  runs: readonly string[];
  /** Short options whose value is a program the tool runs (`man -P less`, `-Hfirefox`). */
  runsShort: string;
  /** Long options (without `--`) that take a value (the next word unless written with `=`). */
  valued: readonly string[];
  /** Short options that take a value. */
  valuedShort: string;
}

const PROGRAM_OPTION_SPECS: Record<string, ProgramOptionSpec> = {
  sort: {
    runs: ['compress-program'],
    runsShort: '',
    valued: [
      'output',
      'buffer-size',
      'temporary-directory',
      'field-separator',
      'key',
      'batch-size',
      'parallel',
      'files0-from',
      'random-source',
    ],
    valuedShort: 'oSTtk',
  },
  rg: {
    runs: ['pre', 'hostname-bin'],
    runsShort: '',
    valued: [
      'glob',
      'iglob',
      'pre-glob',
      'regexp',
      'file',
      'type',
      'type-not',
      'max-count',
      'after-context',
      'before-context',
      'context',
      'threads',
      'color',
      'colors',
      'type-add',
      'type-clear',
      'ignore-file',
      'sort',
      'sortr',
      'replace',
      'encoding',
      'engine',
      'max-depth',
      'path-separator',
      'max-filesize',
      'max-columns',
      'dfa-size-limit',
      'regex-size-limit',
      'field-match-separator',
      'field-context-separator',
      'context-separator',
    ],
    valuedShort: 'gefmtTABCMjrEd',
  },
  ag: {
    runs: ['pager'],
    runsShort: '',
    valued: [
      'ignore',
      'file-search-regex',
      'after',
      'before',
      'context',
      'max-count',
      'depth',
      'path-to-ignore',
      'workers',
    ],
    valuedShort: 'GgABCm',
  },
  man: {
    runs: ['pager', 'html'],
    runsShort: 'PH',
    valued: [
      'config-file',
      'manpath',
      'sections',
      'extension',
      'locale',
      'systems',
      'preprocessor',
      'prompt',
      'encoding',
      'recode',
      'troff-device',
    ],
    valuedShort: 'CMSseLmprERT',
  },
};

/**
 * The programs a reading tool is told to run through its own options (`sort --compress-program`,
 * `rg --pre`/`--hostname-bin`, `ag --pager`, `man -P`/`--pager`/`-H`/`--html`): each option with its
 * value. The value belongs to the option even when it starts with `-`; a word that is another
 * option's value (`sort -o --compress-program f`) or comes after `--` is not an option.
 */
export function programOptions(
  argv: readonly ShellWord[],
  name: string,
): { option: string; value: string }[] {
  const spec = PROGRAM_OPTION_SPECS[name];
  if (!spec) return [];
  const out: { option: string; value: string }[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = word(argv[i]);
    if (w === '--') break;
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const opt = eq < 0 ? w.slice(2) : w.slice(2, eq);
      const takes = spec.runs.includes(opt) || spec.valued.includes(opt);
      const value = eq >= 0 ? w.slice(eq + 1) : takes ? argv[++i]?.value : undefined;
      if (spec.runs.includes(opt) && value !== undefined) out.push({ option: `--${opt}`, value });
      continue;
    }
    if (!w.startsWith('-') || w === '-') continue;
    for (let k = 1; k < w.length; k++) {
      const letter = w[k]!;
      const runs = spec.runsShort.includes(letter);
      if (!runs && !spec.valuedShort.includes(letter)) continue;
      const value = k < w.length - 1 ? w.slice(k + 1) : argv[++i]?.value;
      if (runs && value !== undefined) out.push({ option: `-${letter}`, value });
      break;
    }
  }
  return out;
}
