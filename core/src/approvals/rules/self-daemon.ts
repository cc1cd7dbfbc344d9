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
 *   `fuser -k` of the daemon's port or a root file; a debugger or tracer attached to the
 *   daemon's pid (`gdb -p`, `strace -p`, `gcore`: it can stop, alter or read the process);
 * - `hermes gateway stop|restart|uninstall|kill` in any invocation form (self-cli.ts).
 * Read-only lookups alone (`pgrep -f hermes`, `ps aux | grep hermes`, `systemctl status …`) are
 * not flagged. Targets: the pid, pattern, unit or CLI verb acted on.
 */
import type { DetectContext } from '../detection-types.js';
import { analyzeShell, programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import { ruleContext } from './context.js';
import { GATEWAY_STOP_VERBS, hermesInvocation, invocationTarget, parseHermesArgs } from './self-cli.js';
import { homeTargets, isNestedIn } from './self-home.js';
import {
  namesPort,
  namesUnit,
  patternFinds,
  pgrepSelectsDaemon,
  pipelineYieldsDaemon,
  processTexts,
  protectedPids,
  someYieldDaemon,
} from './self-lookup.js';
import { hermesPlaces } from './self-places.js';
import type { CommandRule, RuleContext } from './types.js';

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
  const guarded = protectedPids(ctx);
  // a variable pid comes from what the line captures: substitutions and `read`
  const others = ctx.analysis.commands.filter(
    (c) =>
      c !== cmd &&
      !isNestedIn(c, cmd) &&
      (c.via.includes('substitution') || ['read', 'mapfile', 'readarray'].includes(programName(c))),
  );
  const inside = ctx.analysis.commands.filter((c) => isNestedIn(c, cmd));
  const out = new Set<string>();
  for (const w of pids) {
    const n = /^-?(\d+)$/.exec(w.value);
    if (w.literal && n) {
      if (guarded.has(Number(n[1]))) out.add(`pid ${n[1]} (Hermes daemon)`);
    } else if (/\$\{?PPID\b/.test(w.value)) out.add('$PPID');
    else if (w.substitution && someYieldDaemon(inside, ctx)) out.add(`Hermes daemon (${w.value})`);
    else if (/^\$\{?[!$0-9#?-]\}?$/.test(w.value))
      continue; // `$!`, `$$`, `$1`: not a lookup
    else if (!w.literal && !w.substitution && someYieldDaemon(others, ctx))
      out.add(`Hermes daemon (${w.value})`);
  }
  if ((cmd.argsFromInput || pids.length === 0) && pipelineYieldsDaemon(cmd, ctx, false)) {
    out.add('Hermes daemon (pids from input)');
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
      const places = hermesPlaces(ctx);
      const named =
        args.some((w) => namesPort(w.value, ctx)) ||
        (places !== null && homeTargets(cmd, ctx, places).length > 0);
      return named ? ['Hermes daemon (fuser -k)'] : null;
    }
    case 'strace':
    case 'ltrace':
    case 'gdb':
    case 'lldb':
    case 'gcore':
    case 'perf':
    case 'pstack':
    case 'eu-stack': {
      // attaching a debugger or tracer can stop, alter or read the process
      const guarded = protectedPids(ctx);
      const hits = args
        .map((w, i) => {
          const v = /^--pid=(\d+)$|^-p(\d+)$/.exec(w.value);
          if (v) return v[1] ?? v[2];
          const prev = args[i - 1]?.value;
          if (prev === '-p' || prev === '--pid' || prev === '--attach' || prev === 'attach') return w.value;
          return name === 'gcore' || name === 'pstack' || (name === 'gdb' && i > 0) ? w.value : undefined;
        })
        .filter((v): v is string => v !== undefined && (guarded.has(Number(v)) || /^\$\{?PPID\b/.test(v)));
      return hits.length > 0 ? hits.map((v) => `attach ${name} to pid ${v}`) : null;
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
