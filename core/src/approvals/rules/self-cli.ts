/**
 * The rule `hermes-cli`: this product's own CLI, or its daemon's RPC, used to change Hermes.
 *
 * A command is a `hermes` invocation when its program is named `hermes` (any path: `hermes`,
 * `./bin/hermes`, `/opt/x/hermes`), is a file whose real path is one (a symlink), is run by
 * `node`/`bun`/`tsx` (`node bin/hermes`, `node …/bin/dist/main.js`, `tsx bin/src/main.ts`), by a
 * package runner (`npx [-y] hermes`, `npm exec hermes`, `pnpm exec|dlx`, `yarn [exec|dlx]`,
 * `bunx`), or is a wrapper script that runs `hermes … "$@"` — what `hermes profile alias` writes
 * to `~/.local/bin/<alias>` (`exec hermes -p NAME "$@"`); such a file is looked up in
 * `~/.local/bin` and the `PATH` of the context, and read (≤ 64 KiB) when it starts with `#!`.
 * (Shell aliases are not expanded by a non-interactive bash, so `alias h=hermes` is not followed;
 * a function body's `hermes "$@"` is flagged as an unknown verb.)
 *
 * Its arguments are read like the CLI does: `-p NAME` / `--profile NAME` anywhere, options with
 * values skipped, then the command and its verb. Flagged: every verb of `config`, `profile`,
 * `pairing`, `cron`, `sessions`, `skills`, `checkpoints` and `gateway` that is not read-only
 * (read-only: `config [show|get|path|check]`, `profile [list|show]`, `pairing [list]`,
 * `cron [list|status|output|suggestions]` (but `suggestions accept`), `sessions
 * [list|show|search|export]`, `skills [list|show|search]`, `checkpoints [list|diff|show]`,
 * `gateway status`), so a verb added later asks until it is listed here; `hermes migrate` (dry
 * runs too: it brings another program's settings and keys); `--yolo` anywhere (a nested agent
 * with approvals off); a command or verb word whose value is unknown (`hermes $X`).
 * `gateway stop|restart|uninstall|kill` belong to `hermes-daemon-kill`. `--help`, `--version`,
 * `chat`, `tui` and unknown commands are not flagged.
 *
 * Also flagged: a program whose name is not known before it runs (`$(command -v hermes) config
 * set …`) given a changing hermes verb; a script (self-scripts.ts: file, `-c`/`-e` code,
 * here-document) that spells out a changing hermes invocation (`['hermes', 'config', 'set', …]`,
 * also `gateway stop`); and the daemon's RPC reached directly — `curl`, `wget`, `websocat`, `wscat`, `nc`,
 * `socat`, `httpie` … naming a loopback address with the daemon's port (`ctx.daemonPort`).
 *
 * Targets: the invocation as the allowlist should remember it (`hermes -p work config set
 * approvals.mode`: command, verb and the key, name or id it acts on — never the value), or
 * `daemon 127.0.0.1:PORT`.
 */
import { CLI_VALUE_FLAGS } from '../../home/cli-value-flags.js';
import { statSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { literalWord, type ShellWord } from '../shell/words.js';
import { programName, type SimpleCommand } from '../shell/analyze.js';
import { readHead, realPath } from './self-places.js';
import { scripts } from './self-scripts.js';
import type { CommandRule, RuleContext } from './types.js';

/** A `hermes` invocation: its arguments (a wrapper's fixed ones first). */
export interface HermesInvocation {
  args: ShellWord[];
}

/** The arguments read like the CLI reads them. */
export interface HermesArgs {
  profile?: string;
  /** Command, verb, then their operands (options removed). */
  positionals: ShellWord[];
  yolo: boolean;
  help: boolean;
}

/** Options of any hermes command whose next word is a value (the CLI's own list and more). */
const VALUE_OPTIONS: ReadonlySet<string> = new Set([...CLI_VALUE_FLAGS, '-n', '--schedule', '--prompt']);

/** Verbs that only read, per command; `''` is the command without a verb. */
const READ_ONLY: Record<string, readonly string[]> = {
  config: ['', 'show', 'get', 'path', 'check'],
  profile: ['', 'list', 'show'],
  pairing: ['', 'list'],
  cron: ['', 'list', 'status', 'output', 'suggestions'],
  sessions: ['', 'list', 'show', 'search', 'export'],
  skills: ['', 'list', 'show', 'search'],
  checkpoints: ['', 'list', 'diff', 'show'],
  gateway: ['', 'status'],
  // brings another program's config, keys, skills and sessions into the home: always asks
  migrate: [],
};

/** `hermes gateway` verbs that end the daemon (rule `hermes-daemon-kill`). */
export const GATEWAY_STOP_VERBS = new Set(['stop', 'restart', 'uninstall', 'kill']);

const NODE_VALUED = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--tsconfig',
  '--env-file',
  '--input-type',
]);

/** True when a script path is the hermes executable or its entry module. */
const isHermesScript = (value: string): boolean =>
  basename(value) === 'hermes' || /(?:^|\/)bin\/(?:dist\/(?:bundle\/)?main\.js|src\/main\.ts)$/.test(value);

/** A package runner's name for hermes (`hermes`, `hermes@latest`, `@hermes/cli`, `hermes-ts@1`). */
const HERMES_PACKAGE = /^(?:@hermes\/cli|hermes(?:-ts)?)(?:@[^/\s]*)?$/;

/** The words after the runner's own options and the package name, when the package is hermes. */
function afterRunner(args: ShellWord[], valued: Set<string>): ShellWord[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') continue;
    if (valued.has(v)) {
      i++;
      continue;
    }
    if (v.startsWith('-')) continue;
    return HERMES_PACKAGE.test(v) ? args.slice(i + 1) : undefined;
  }
  return undefined;
}

const RUNNER_VALUED = new Set([
  '-p',
  '--package',
  '--registry',
  '--prefix',
  '-C',
  '--dir',
  '--cwd',
  '--workspace',
  '-w',
]);

/** The `hermes … "$@"` line of a wrapper script, as its fixed words. */
function wrapperPrefix(text: string): ShellWord[] | undefined {
  const m =
    /^\s*(?:exec\s+)?(\S*hermes)((?:\s+(?!"\$@")(?:'[^']*'|"[^"]*"|[^\s'"]+))*)\s+"\$(?:@|\*)"\s*$/m.exec(
      text,
    );
  if (!m) return undefined;
  const words = (m[2] ?? '').trim().split(/\s+/).filter(Boolean);
  return words.map((w) => literalWord(w.replace(/^'(.*)'$|^"(.*)"$/, '$1$2')));
}

/** bash builtins run without a PATH lookup (never a wrapper script on disk). */
const SHELL_BUILTINS = new Set([
  'echo',
  'printf',
  'cd',
  'true',
  'false',
  ':',
  'test',
  '[',
  'pwd',
  'export',
  'unset',
  'set',
  'local',
  'declare',
  'read',
  'shift',
  'exit',
  'return',
  'wait',
  'type',
  'hash',
  'alias',
  'let',
]);

/** True when `p` is an existing file (through symlinks). */
function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** An executable named `name`: in `~/.local/bin` (where profile aliases live), then `PATH`. */
function findExecutable(name: string, ctx: RuleContext): string[] {
  const dirs = [
    join(ctx.userHome, '.local', 'bin'),
    ...(ctx.env.PATH ?? '').split(delimiter).filter(Boolean).slice(0, 32),
  ];
  return [...new Set(dirs)].map((d) => join(d, name));
}

/** The hermes invocation `cmd` is, or null (see the file comment). */
export function hermesInvocation(cmd: SimpleCommand, ctx: RuleContext): HermesInvocation | null {
  const first = cmd.argv[0];
  if (!first) return null;
  const name = programName(cmd);
  const rest = cmd.argv.slice(1);
  if (
    name === 'hermes' ||
    name === 'hermes.js' ||
    name === 'hermes.mjs' ||
    HERMES_PACKAGE.test(first.value)
  ) {
    return { args: rest };
  }
  // the original Python agent's CLI (`python -m hermes_cli.main …`) shares the Hermes home
  if (/^python[0-9.]*$/.test(name)) {
    const m = rest.findIndex((w) => w.value === '-m');
    return m >= 0 && /^hermes_cli(?:\.main)?$/.test(rest[m + 1]?.value ?? '')
      ? { args: rest.slice(m + 2) }
      : null;
  }
  if (['node', 'nodejs', 'bun', 'tsx', 'ts-node', 'deno'].includes(name)) {
    for (let i = 0; i < rest.length; i++) {
      const v = rest[i]!.value;
      if (NODE_VALUED.has(v)) {
        i++;
        continue;
      }
      if (v.startsWith('-') || ((name === 'bun' || name === 'deno') && v === 'run')) continue;
      const script = rest[i]!;
      const real = ctx.paths(script).map((p) => realPath(p));
      return isHermesScript(v) || real.some(isHermesScript) ? { args: rest.slice(i + 1) } : null;
    }
    return null;
  }
  if (name === 'npx' || name === 'bunx' || name === 'pnpx') {
    const c = rest.findIndex((w) => w.value === '-c' || w.value === '--call');
    if (c !== -1 && rest[c + 1]) {
      const words = rest[c + 1]!.value.split(/\s+/).filter(Boolean).map(literalWord);
      return words[0] && /^hermes(?:@.*)?$/.test(words[0].value) ? { args: words.slice(1) } : null;
    }
    const args = afterRunner(rest, RUNNER_VALUED);
    return args ? { args } : null;
  }
  if (name === 'npm' || name === 'pnpm' || name === 'yarn') {
    const sub = rest.findIndex((w) => !w.value.startsWith('-'));
    const verb = rest[sub]?.value;
    if (verb === 'exec' || verb === 'x' || verb === 'dlx') {
      const args = afterRunner(rest.slice(sub + 1), RUNNER_VALUED);
      return args ? { args } : null;
    }
    if ((name === 'yarn' || name === 'pnpm') && verb === 'hermes') return { args: rest.slice(sub + 1) };
    return null;
  }
  // a symlink to hermes, or a wrapper script running it (`hermes profile alias`); bash runs its
  // builtins without a PATH lookup, so `echo` is never such a file
  if (first.substitution || (first.literal && SHELL_BUILTINS.has(first.value))) return null;
  // `h=hermes; $h config set …`
  if (!first.literal && ctx.paths(first).some((p) => basename(p) === 'hermes')) return { args: rest };
  const files = first.value.includes('/') ? ctx.paths(first).slice(0, 2) : findExecutable(first.value, ctx);
  for (const file of files) {
    if (!isFile(file)) continue;
    // the first file found is the one that runs
    if (basename(realPath(file)) === 'hermes') return { args: rest };
    const text = readHead(file, 64 * 1024);
    if (text === undefined || !text.startsWith('#!')) return null;
    const prefix = wrapperPrefix(text);
    return prefix ? { args: [...prefix, ...rest] } : null;
  }
  return null;
}

/** Reads hermes arguments like the CLI (see the file comment). */
export function parseHermesArgs(args: ShellWord[]): HermesArgs {
  const out: HermesArgs = { positionals: [], yolo: false, help: false };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (!w.literal) {
      out.positionals.push(w);
      continue;
    }
    if (v === '--') {
      out.positionals.push(...args.slice(i + 1));
      break;
    }
    if (v === '-p' || v === '--profile') {
      out.profile = args[++i]?.value;
      continue;
    }
    if (v.startsWith('--profile=')) out.profile = v.slice('--profile='.length);
    else if (v === '--yolo') out.yolo = true;
    else if (v === '-h' || v === '--help' || v === '--version') out.help = true;
    else if (VALUE_OPTIONS.has(v)) i++;
    else if (!v.startsWith('-') || /^-\d/.test(v)) {
      // before the command, a word after an option the list does not know is taken as its value
      // unless it is a command of the list (`hermes --opt val gateway restart`)
      const prev = args[i - 1]?.value ?? '';
      const valueOfUnknown = /^--[^=]+$/.test(prev) && !VALUE_OPTIONS.has(prev) && !(v in READ_ONLY);
      if (out.positionals.length === 0 && valueOfUnknown) continue;
      out.positionals.push(w);
    }
  }
  return out;
}

/** The target naming an invocation: `hermes [-p P] command verb [operand]`. */
export function invocationTarget(parsed: HermesArgs, count: number): string {
  const words = parsed.positionals.slice(0, count).map((w) => w.value);
  return ['hermes', ...(parsed.profile ? ['-p', parsed.profile] : []), ...words].join(' ');
}

/** What a hermes invocation changes (see the file comment), or null when it only reads. */
export function cliTargets(parsed: HermesArgs): string[] | null {
  if (parsed.help) return null;
  const [command, verb, operand] = parsed.positionals;
  const dynamic = [command, verb].some((w) => w && !w.literal);
  if (parsed.yolo) return [`${invocationTarget(parsed, 1)} --yolo`];
  if (dynamic) return [invocationTarget(parsed, 2)];
  const readOnly = command ? READ_ONLY[command.value] : undefined;
  if (!command || !readOnly) return null;
  const v = verb?.value ?? '';
  if (command.value === 'gateway' && GATEWAY_STOP_VERBS.has(v)) return null;
  if (command.value === 'cron' && v === 'suggestions' && operand?.value === 'accept') {
    return [invocationTarget(parsed, 4)];
  }
  if (readOnly.includes(v)) return null;
  const withOperand = operand && !(command.value === 'cron' && v === 'add');
  return [invocationTarget(parsed, withOperand ? 3 : 2)];
}

/** The changing hermes invocations a script's text spells out (`subprocess.run(['hermes', 'config', 'set' …`). */
export function scriptInvocations(text: string): string[] {
  const sep = String.raw`["'\s,]+`;
  const re = new RegExp(
    String.raw`\bhermes(?:${sep}(?:-p|--profile)(?:${sep}|=)[\w-]+)?${sep}(config|profile|pairing|cron|sessions|skills|checkpoints|gateway)${sep}([a-z-]+)(?:${sep}([\w.-]+))?`,
    'g',
  );
  const out: string[] = [];
  for (const m of text.matchAll(re)) {
    const parsed = parseHermesArgs([m[1]!, m[2]!, ...(m[3] ? [m[3]] : [])].map(literalWord));
    const stops = m[1] === 'gateway' && GATEWAY_STOP_VERBS.has(m[2]!);
    const t = stops ? [invocationTarget(parsed, 2)] : cliTargets(parsed);
    if (t) out.push(...t.filter((x) => !out.includes(x)));
  }
  return out;
}

/** Programs that open a connection to a host and port given in their arguments. */
const NET_CLIENTS = new Set([
  'curl',
  'wget',
  'websocat',
  'wscat',
  'http',
  'https',
  'xh',
  'xhs',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'grpcurl',
  'wsta',
]);
const LOOPBACK = String.raw`(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0|\[::1\]|::1|ip6-localhost|0)`;

/** The loopback address and port of the daemon a network client names, or undefined. */
export function daemonRpcTarget(cmd: SimpleCommand, ctx: RuleContext): string | undefined {
  const port = ctx.daemonPort;
  if (port === undefined || !NET_CLIENTS.has(programName(cmd))) return undefined;
  const values = cmd.argv.slice(1).map((w) => w.value);
  const hostPort = new RegExp(`(?:^|[^\\w.-])${LOOPBACK}:${port}(?!\\d)|^:${port}(?!\\d)`);
  const host = new RegExp(`(?:^|[^\\w.-])${LOOPBACK}(?![\\w.-])`);
  const named =
    values.some((v) => hostPort.test(v)) ||
    (values.some((v) => host.test(v)) && values.includes(String(port)));
  return named ? `daemon 127.0.0.1:${port}` : undefined;
}

/** `hermes-cli`: see the file comment. */
export const HERMES_CLI_RULE: CommandRule = {
  key: 'hermes-cli',
  description:
    "change Hermes's settings, profiles, pairing, cron jobs, skills or sessions with its own CLI or daemon",
  match(cmd, ctx) {
    const rpc = daemonRpcTarget(cmd, ctx);
    if (rpc) return [rpc];
    const inv = hermesInvocation(cmd, ctx);
    if (inv) return cliTargets(parseHermesArgs(inv.args));
    // `$(command -v hermes) config set …`, `$BIN profile delete x`: an unknown program given
    // a changing hermes verb is taken for hermes
    const first = cmd.argv[0];
    if (first && !first.literal && !first.value.startsWith('~')) {
      const targets = cliTargets(parseHermesArgs(cmd.argv.slice(1)));
      if (targets) return targets;
    }
    const found = scripts(cmd, ctx).flatMap(([label, text]) =>
      scriptInvocations(text).map((t) => `${t} (in ${label})`),
    );
    return found.length > 0 ? found : null;
  },
};
