/**
 * How a command line finds the daemon's process, for `hermes-daemon-kill` (self-daemon.ts): the
 * names and command lines the daemon has, pgrep/pkill pattern matching against them, and whether
 * a pipeline yields the daemon's pid.
 *
 * A pipeline yields it when one of its first stages selects the daemon — `pgrep`/`pidof` of a
 * daemon name, `ps` (every process unless `-p` names other pids), `systemctl show` of its unit,
 * `lsof`/`fuser`/`ss`/`netstat` of its port, anything naming `$PPID`/`ppid` or a protected pid,
 * or reading a file in the root (its pid lock and discovery file) — and every filter stage lets
 * the daemon's line through (`grep PATTERN`, `grep -v PATTERN`, `awk '/re/ …'`, tested against
 * the daemon's names and command lines).
 */
import { readFileSync } from 'node:fs';
import { programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import { segmentRegex } from './context.js';
import { homeTargets } from './self-home.js';
import { hermesPlaces, inRoot } from './self-places.js';
import type { RuleContext } from './types.js';

/** Names the daemon's process has or is known by. */
export const DAEMON_NAMES = ['hermes', 'tui-gateway', 'hermes-gateway', 'node', 'hermes_cli.main'];
/** The command line the daemon is started with (bin/src/commands/gateway.ts `runCommand`). */
const DAEMON_COMMAND_LINES = [
  '/usr/bin/node /usr/lib/node_modules/hermes-ts/bin/hermes gateway run --detached',
];
/** The systemd unit (tui-gateway/src/lifecycle/systemd.ts `UNIT_NAME`). */
export const DAEMON_UNIT = 'hermes-gateway.service';

const PGREP_VALUED = new Set([
  '-d',
  '--delimiter',
  '-F',
  '--pidfile',
  '-G',
  '--group',
  '-g',
  '--pgroup',
  '-P',
  '--parent',
  '-s',
  '--session',
  '-t',
  '--terminal',
  '-u',
  '--euid',
  '-U',
  '--uid',
  '--ns',
  '--nslist',
  '--signal',
  '-q',
  '--queue',
  '-c',
  '--cgroup',
]);

/** Pids a `kill` of Hermes means: the daemon's and the process running the agent. */
export function protectedPids(ctx: RuleContext): Set<number> {
  return new Set([ctx.daemonPid, process.pid].filter((p): p is number => p !== undefined));
}

/** The `/proc` command lines and names of the daemon and of this process. */
export function processTexts(ctx: RuleContext): { names: string[]; lines: string[] } {
  const names = [...DAEMON_NAMES];
  const lines = [...DAEMON_COMMAND_LINES];
  for (const pid of new Set([ctx.daemonPid, process.pid])) {
    if (pid === undefined) continue;
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' '));
      names.push(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
    } catch {
      /* not Linux, or gone */
    }
  }
  return { names, lines };
}

/** True when a pgrep/pkill pattern (extended regex) finds one of `texts`. */
export function patternFinds(pattern: string, texts: string[], exact: boolean): boolean {
  let re: RegExp;
  try {
    re = new RegExp(exact ? `^(?:${pattern})$` : pattern, 'i');
  } catch {
    return texts.some((t) => t.toLowerCase().includes(pattern.toLowerCase()));
  }
  return texts.some((t) => re.test(t));
}

/** The pattern and options of a `pgrep`/`pkill` command. */
function pgrepArgs(cmd: SimpleCommand): { pattern?: ShellWord; opts: Map<string, ShellWord | true> } {
  const opts = new Map<string, ShellWord | true>();
  const args = cmd.argv.slice(1);
  let pattern: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (PGREP_VALUED.has(v)) {
      if (args[i + 1]) opts.set(v, args[i + 1]!);
      i++;
    } else if (/^--\w[\w-]*=/.test(v))
      opts.set(v.slice(0, v.indexOf('=')), { ...w, value: v.slice(v.indexOf('=') + 1) });
    else if (/^-[A-Za-z]+$/.test(v) && !/^-[A-Z]{2,}$|^-SIG/.test(v))
      for (const f of v.slice(1)) opts.set(`-${f}`, true);
    else if (v.startsWith('-') && pattern === undefined && !/^-\d+$|^-[A-Z]{2,}$|^-SIG/.test(v))
      opts.set(v, true);
    else if (!v.startsWith('-')) pattern ??= w;
  }
  return { pattern, opts };
}

/** True when a pgrep/pkill command selects the daemon (see the file comment). */
export function pgrepSelectsDaemon(cmd: SimpleCommand, ctx: RuleContext): string | undefined {
  const { pattern, opts } = pgrepArgs(cmd);
  const texts = processTexts(ctx);
  if (pattern) {
    // names and command lines alike, with or without -f: the daemon's name is often `node`
    const found = patternFinds(
      pattern.value,
      [...texts.names, ...texts.lines],
      opts.has('-x') || opts.has('--exact'),
    );
    if (opts.has('-v') || opts.has('--inverse') ? !found : found) return pattern.value;
    return undefined;
  }
  // a pid file in the root: the daemon's lock
  const pidfile = opts.get('-F') ?? opts.get('--pidfile');
  const places = hermesPlaces(ctx);
  if (pidfile && pidfile !== true && places && ctx.paths(pidfile).some((p) => inRoot(places, p))) {
    return pidfile.value;
  }
  for (const o of ['-u', '--euid', '-U', '--uid', '-G', '--group', '-g', '--pgroup', '-s', '--session']) {
    const v = opts.get(o);
    if (v && v !== true) return `${o} ${v.value}`;
  }
  return undefined;
}

/** True when a first pipeline stage selects the daemon's process (see the file comment). */
export function sourceSelectsDaemon(c: SimpleCommand, ctx: RuleContext): boolean {
  const name = programName(c);
  const values = c.argv.slice(1).map((w) => w.value);
  if (c.argv.some((w) => /\bPPID\b|\bppid\b/.test(w.value))) return true;
  const pids = [...protectedPids(ctx)].map(String);
  switch (name) {
    case 'pgrep':
      return pgrepSelectsDaemon(c, ctx) !== undefined;
    case 'pidof':
      return values.some((v) => processTexts(ctx).names.includes(v.split('/').pop()!));
    case 'ps': {
      const p = values.findIndex((v) => /^(?:-p|--pid|-q|--quick-pid)$/.test(v));
      return p === -1 || values[p + 1]!.split(',').some((v) => pids.includes(v));
    }
    case 'systemctl':
      return values.some(namesUnit);
    case 'echo':
    case 'printf':
      return values.some((v) => pids.includes(v));
    case 'lsof':
    case 'fuser':
    case 'ss':
    case 'netstat':
      if (values.some((v) => namesPort(v, ctx))) return true;
  }
  const places = hermesPlaces(ctx);
  return places !== null && homeTargets(c, ctx, places).length > 0;
}

/** True when a word names the daemon's port (`:PORT`, `PORT/tcp`, `tcp:PORT`, `sport = :PORT`). */
export function namesPort(value: string, ctx: RuleContext): boolean {
  return ctx.daemonPort !== undefined && new RegExp(`(?:^|[:=\\s])${ctx.daemonPort}(?:/tcp)?$`).test(value);
}

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg']);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** True when a filter stage lets the daemon's line through (any other stage does). */
function filterPasses(c: SimpleCommand, ctx: RuleContext): boolean {
  const name = programName(c);
  const args = c.argv.slice(1);
  const texts = processTexts(ctx);
  const all = [...texts.names, ...texts.lines, ...[...protectedPids(ctx)].map(String)];
  if (GREPS.has(name)) {
    const e = args.findIndex((w) => w.value === '-e' || w.value === '--regexp');
    const pattern = e !== -1 ? args[e + 1] : args.find((w) => !w.value.startsWith('-'));
    if (!pattern) return true;
    const flags = args
      .filter((w) => /^-[A-Za-z]+$/.test(w.value))
      .map((w) => w.value.slice(1))
      .join('');
    const found =
      name === 'fgrep' || flags.includes('F')
        ? all.some((t) => t.toLowerCase().includes(pattern.value.toLowerCase()))
        : patternFinds(pattern.value, all, flags.includes('x'));
    return flags.includes('v') ? !found : found;
  }
  if (AWKS.has(name)) {
    const program = args.find((w) => !w.value.startsWith('-'))?.value ?? '';
    const regexes = [...program.matchAll(/\/((?:[^/\\\n]|\\.)+)\//g)].map((m) => m[1]!);
    return regexes.length === 0 || regexes.some((r) => patternFinds(r, all, false));
  }
  return true;
}

/** Every earlier stage of `cmd`'s pipeline (and of the `xargs` it runs under). */
export function producers(cmd: SimpleCommand): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  const walk = (list: SimpleCommand[]): void => {
    for (const p of list) {
      if (out.includes(p)) continue;
      out.push(p);
      walk(p.pipedFrom);
    }
  };
  walk(cmd.pipedFrom);
  if (cmd.parent && cmd.via.at(-1) === 'xargs') walk(cmd.parent.pipedFrom);
  return out;
}

/**
 * True when the stages feeding `cmd` (and `cmd` itself when `withSelf`) yield the daemon's pid:
 * a first stage selects it and every filter passes it (see the file comment).
 */
export function pipelineYieldsDaemon(cmd: SimpleCommand, ctx: RuleContext, withSelf: boolean): boolean {
  const stages = [...(withSelf ? [cmd] : []), ...producers(cmd)];
  const sources = stages.filter((s) => s.pipedFrom.length === 0);
  if (!sources.some((s) => sourceSelectsDaemon(s, ctx))) return false;
  return stages.filter((s) => !sources.includes(s)).every((s) => filterPasses(s, ctx));
}

/** True when one of `commands` ends a pipeline that yields the daemon's pid. */
export function someYieldDaemon(commands: SimpleCommand[], ctx: RuleContext): boolean {
  const fed = new Set(commands.flatMap((c) => c.pipedFrom));
  return commands.some((c) => !fed.has(c) && pipelineYieldsDaemon(c, ctx, true));
}

/** True when a unit word names the daemon's unit (`hermes-gateway`, `hermes*`, `*gateway.service`). */
export function namesUnit(value: string): boolean {
  if (/hermes/i.test(value)) return true;
  if (!/[*?[]/.test(value)) return false;
  const re = segmentRegex(value, true);
  return re.test(DAEMON_UNIT) || re.test(DAEMON_UNIT.replace(/\.service$/, ''));
}
