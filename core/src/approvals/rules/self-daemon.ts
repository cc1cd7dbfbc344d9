/**
 * The rule `hermes-daemon-kill`: stopping, killing or restarting this product's own daemon.
 *
 * Flagged, by class:
 * - `kill` (any signal but `0`; not `-l`) of the daemon's pid (`ctx.daemonPid`, from the root's
 *   discovery file or pid lock) or of the process running the agent; of `$PPID` (the tool's
 *   parent chain leads to the daemon); of pids looked up in the line — a substitution or, for a
 *   variable pid, any command of the line, or the input of `xargs kill` — by `pgrep`/`pidof`
 *   of a daemon name, `ps … | grep hermes`, reading the root's pid lock or discovery file (any
 *   path into the root), `lsof`/`fuser`/`ss` of the daemon's port, `systemctl show` of its unit;
 * - `pkill` whose pattern matches a name or command line the daemon has (`hermes`,
 *   `tui-gateway`, `node`, `node …/bin/hermes gateway run`, and the running daemon's own
 *   `/proc/<pid>/cmdline`), or that selects by user, group or session only, or with `-v`, or a
 *   `-F` pid file in the root; `killall` of such a name (`-r`: pattern), or of a whole user (`-u`);
 * - `systemctl [--user] stop|restart|try-restart|reload-or-restart|kill|disable|mask|freeze|edit|
 *   revert|set-property` of a unit named like `hermes-gateway` (tui-gateway/src/lifecycle/systemd.ts
 *   `UNIT_NAME`; globs too), `systemctl --user exit|isolate`; `service hermes-… stop|restart`;
 *   `launchctl unload|bootout|stop|kill|remove|disable` of a hermes label; `loginctl
 *   terminate-user|kill-user|terminate-session|kill-session` (every process of the user);
 *   `fuser -k` of the daemon's port or a root file;
 * - `hermes gateway stop|restart|uninstall|kill` in any invocation form (self-cli.ts).
 * Read-only lookups alone (`pgrep -f hermes`, `ps aux | grep hermes`, `systemctl status …`) are
 * not flagged. Targets: the pid, pattern, unit or CLI verb acted on.
 */
import { readFileSync } from 'node:fs';
import type { DetectContext } from '../detection-types.js';
import { analyzeShell, programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import { ruleContext, segmentRegex } from './context.js';
import { GATEWAY_STOP_VERBS, hermesInvocation, invocationTarget, parseHermesArgs } from './self-cli.js';
import { homeTargets, isInside } from './self-home.js';
import { hermesPlaces } from './self-places.js';
import type { CommandRule, RuleContext } from './types.js';

/** Names the daemon's process has or is known by. */
export const DAEMON_NAMES = ['hermes', 'tui-gateway', 'hermes-gateway', 'node'];
/** The command line the daemon is started with (bin/src/commands/gateway.ts `runCommand`). */
const DAEMON_COMMAND_LINES = [
  '/usr/bin/node /usr/lib/node_modules/hermes-ts/bin/hermes gateway run --detached',
];
/** The systemd unit (tui-gateway/src/lifecycle/systemd.ts `UNIT_NAME`). */
export const DAEMON_UNIT = 'hermes-gateway.service';

const SYSTEMCTL_STOPS = new Set([
  'stop',
  'restart',
  'try-restart',
  'reload-or-restart',
  'try-reload-or-restart',
  'condrestart',
  'force-reload',
  'kill',
  'disable',
  'mask',
  'freeze',
  'edit',
  'revert',
  'set-property',
]);
const SYSTEMCTL_VALUED = new Set([
  '-t',
  '--type',
  '-p',
  '--property',
  '-s',
  '--signal',
  '--kill-whom',
  '--kill-value',
  '-H',
  '--host',
  '-M',
  '--machine',
  '--root',
  '-n',
  '--lines',
  '-o',
  '--output',
  '--state',
  '--job-mode',
  '--what',
  '--drop-in',
  '--when',
]);
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
const KILLALL_VALUED = new Set([
  '-s',
  '--signal',
  '-u',
  '--user',
  '-y',
  '--younger-than',
  '-o',
  '--older-than',
  '-n',
  '--ns',
  '-Z',
  '--context',
]);

/** The `/proc` command lines and names of the daemon and of this process. */
function processTexts(ctx: RuleContext): { names: string[]; lines: string[] } {
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
function patternFinds(pattern: string, texts: string[], exact: boolean): boolean {
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
function pgrepSelectsDaemon(cmd: SimpleCommand, ctx: RuleContext): string | undefined {
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
  const pidfile = opts.get('-F') ?? opts.get('--pidfile');
  if (pidfile && pidfile !== true) return pidfile.value;
  for (const o of ['-u', '--euid', '-U', '--uid', '-G', '--group', '-g', '--pgroup', '-s', '--session']) {
    const v = opts.get(o);
    if (v && v !== true) return `${o} ${v.value}`;
  }
  return undefined;
}

/** True when `c` finds the daemon's pid (see the file comment). */
function looksUpDaemon(c: SimpleCommand, ctx: RuleContext): boolean {
  const name = programName(c);
  const values = c.argv.slice(1).map((w) => w.value);
  if (name === 'pgrep') return pgrepSelectsDaemon(c, ctx) !== undefined;
  if (name === 'pidof') return values.some((v) => processTexts(ctx).names.includes(v));
  if (c.argv.some((w) => /\bPPID\b|\bppid\b/.test(w.value))) return true;
  if (['grep', 'egrep', 'fgrep', 'rg', 'awk', 'gawk', 'sed', 'ps', 'systemctl', 'jq'].includes(name)) {
    if (values.some((v) => /hermes|tui-gateway|\bnode\b/i.test(v))) return true;
  }
  const port = ctx.daemonPort;
  if (port !== undefined && ['lsof', 'fuser', 'ss', 'netstat'].includes(name)) {
    if (values.some((v) => new RegExp(`(?:^|[:=])${port}(?:/tcp)?$`).test(v))) return true;
  }
  const places = hermesPlaces(ctx);
  return places !== null && homeTargets(c, ctx, places).length > 0;
}

/** Commands feeding `cmd`'s input, through every earlier pipeline stage. */
function producers(cmd: SimpleCommand): SimpleCommand[] {
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

/** What a `kill` command kills of Hermes, or null. */
function killTargets(cmd: SimpleCommand, ctx: RuleContext): string[] | null {
  const args = cmd.argv.slice(1);
  let i = 0;
  let signalSeen = false;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-l' || v === '-L' || v === '--list' || v === '--table') return null;
    if (v === '-s' || v === '-n' || v === '--signal') {
      if (args[i + 1]?.value === '0') return null;
      i++;
      signalSeen = true;
      continue;
    }
    if (!signalSeen && /^-(?:\w+)$/.test(v)) {
      if (v === '-0') return null;
      signalSeen = true;
      continue;
    }
    break;
  }
  const pids = args.slice(i);
  const protectedPids = new Set([ctx.daemonPid, process.pid].filter((p): p is number => p !== undefined));
  const everyCommand = ctx.analysis.commands.filter((c) => c !== cmd);
  const out = new Set<string>();
  for (const w of pids) {
    const n = /^-?(\d+)$/.exec(w.value);
    if (w.literal && n) {
      if (protectedPids.has(Number(n[1]))) out.add(`pid ${n[1]} (Hermes daemon)`);
      continue;
    }
    if (/\$\{?PPID\b/.test(w.value)) out.add('$PPID');
    else if (w.substitution) {
      if (everyCommand.some((c) => isInside(c, cmd) && looksUpDaemon(c, ctx)))
        out.add(`Hermes daemon (${w.value})`);
    } else if (!w.literal && everyCommand.some((c) => looksUpDaemon(c, ctx)))
      out.add(`Hermes daemon (${w.value})`);
  }
  if (cmd.argsFromInput || pids.length === 0) {
    if (producers(cmd).some((c) => looksUpDaemon(c, ctx))) out.add('Hermes daemon (pids from input)');
  }
  return out.size > 0 ? [...out] : null;
}

/** The first positional word after options, and the rest. */
function verbAndOperands(args: ShellWord[], valued: Set<string>): [string | undefined, ShellWord[]] {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (valued.has(v)) i++;
    else if (!v.startsWith('-')) return [v, args.slice(i + 1).filter((w) => !w.value.startsWith('-'))];
  }
  return [undefined, []];
}

/** True when a unit word names the daemon's unit (`hermes-gateway`, `hermes*`, `*gateway.service`). */
function namesUnit(value: string): boolean {
  if (/hermes/i.test(value)) return true;
  if (!/[*?[]/.test(value)) return false;
  const re = segmentRegex(value);
  return re.test(DAEMON_UNIT) || re.test(DAEMON_UNIT.replace(/\.service$/, ''));
}

/** What `cmd` stops of Hermes (see the file comment), or null. */
export function daemonKillTargets(cmd: SimpleCommand, ctx: RuleContext): string[] | null {
  const name = programName(cmd);
  const args = cmd.argv.slice(1);
  switch (name) {
    case 'kill':
      return killTargets(cmd, ctx);
    case 'pkill': {
      const hit = pgrepSelectsDaemon(cmd, ctx);
      return hit !== undefined ? [hit] : null;
    }
    case 'killall': {
      const regex = args.some((w) => w.value === '-r' || w.value === '--regexp');
      const names: string[] = [];
      let user: string | undefined;
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!.value;
        if (v === '-u' || v === '--user') user = args[i + 1]?.value;
        if (KILLALL_VALUED.has(v)) i++;
        else if (!v.startsWith('-')) names.push(v);
      }
      const texts = processTexts(ctx);
      const hits = names.filter((n) =>
        regex
          ? patternFinds(n, [...texts.names, ...texts.lines], false)
          : texts.names.includes(n.split('/').pop()!),
      );
      if (hits.length > 0) return hits;
      return names.length === 0 && user !== undefined ? [`every process of ${user}`] : null;
    }
    case 'systemctl': {
      const [verb, units] = verbAndOperands(args, SYSTEMCTL_VALUED);
      if (!verb) return null;
      if ((verb === 'exit' || verb === 'isolate') && args.some((w) => w.value === '--user'))
        return [`systemctl --user ${verb}`];
      if (!SYSTEMCTL_STOPS.has(verb)) return null;
      const hits = units.filter((u) => namesUnit(u.value)).map((u) => `systemctl ${verb} ${u.value}`);
      return hits.length > 0 ? hits : null;
    }
    case 'service': {
      const [unit, action] = args.map((w) => w.value);
      return unit &&
        namesUnit(unit) &&
        /^(?:stop|restart|try-restart|force-reload|condrestart)$/.test(action ?? '')
        ? [`service ${unit} ${action}`]
        : null;
    }
    case 'launchctl': {
      const [verb, rest] = verbAndOperands(args, new Set());
      if (!verb || !/^(?:unload|bootout|stop|kill|remove|disable)$/.test(verb)) return null;
      const hits = rest.filter((w) => /hermes/i.test(w.value)).map((w) => `launchctl ${verb} ${w.value}`);
      return hits.length > 0 ? hits : null;
    }
    case 'loginctl': {
      const [verb] = verbAndOperands(args, new Set(['-H', '--host', '-M', '--machine', '-s', '--signal']));
      return verb && /^(?:terminate|kill)-(?:user|session)$/.test(verb) ? [`loginctl ${verb}`] : null;
    }
    case 'fuser': {
      if (!args.some((w) => /^-[A-Za-z]*k/.test(w.value))) return null;
      const named = args.some(
        (w) => w.value !== '-k' && looksUpDaemon({ ...cmd, argv: [cmd.argv[0]!, w] }, ctx),
      );
      return named ? ['Hermes daemon (fuser -k)'] : null;
    }
    default: {
      const inv = hermesInvocation(cmd, ctx);
      if (!inv) return null;
      const parsed = parseHermesArgs(inv.args);
      const [command, verb] = parsed.positionals;
      if (parsed.help || command?.value !== 'gateway' || !verb || !GATEWAY_STOP_VERBS.has(verb.value))
        return null;
      return [invocationTarget(parsed, 2)];
    }
  }
}

/** `hermes-daemon-kill`: see the file comment. */
export const DAEMON_KILL_RULE: CommandRule = {
  key: 'hermes-daemon-kill',
  description: "stop, kill or restart Hermes's own daemon (the process running this agent)",
  match: daemonKillTargets,
};

/**
 * What a command line stops of the daemon: the targets of `hermes-daemon-kill` over every simple
 * command of the line; null when none matches; undefined when the line could not be parsed
 * completely (grammar missing or a syntax error) and nothing matched — callers then fall back to
 * text patterns. Cron runs refuse these outright: a job may not end its own scheduler.
 */
export async function daemonStopTargets(
  command: string,
  opts: DetectContext,
): Promise<string[] | null | undefined> {
  let analysis;
  try {
    analysis = await analyzeShell(command);
  } catch {
    return undefined;
  }
  const ctx = ruleContext(analysis, opts);
  const targets = analysis.commands.flatMap((c) => daemonKillTargets(c, ctx) ?? []);
  if (targets.length > 0) return targets;
  return analysis.errors ? undefined : null;
}
