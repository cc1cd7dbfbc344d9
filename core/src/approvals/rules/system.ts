/**
 * Processes, services and the machine. The floor: the fork bomb (any function name: a function
 * that calls itself twice, `f(){ f|f& };f`), killing every process (`kill -9 -1`, `kill -1`,
 * `killall5`), and shutting the machine down or rebooting it (`shutdown`, `reboot`, `halt`,
 * `poweroff`, `systemctl|loginctl poweroff|reboot|halt|kexec|rescue|emergency`, `init 0/1/6`, `telinit`,
 * `launchctl reboot`, writing `/proc/sysrq-trigger`). Asked: force-killing by name, stopping,
 * starting or enabling services, suspending, changing the crontab, flushing the firewall,
 * pruning containers, and giving `sudo`/`su` a password on stdin.
 *
 * Targets: process or unit names, pids, the crontab file, the command run as root.
 */
import type { SimpleCommand } from '../shell/analyze.js';
import {
  has,
  parseArgs,
  pathTargets,
  programName,
  subcommand,
  valueTargets,
  writes,
  type ArgSpec,
} from './argv.js';
import { childrenOf, codeSource, hasStdinInput, upstream } from './programs.js';
import type { CommandRule } from './types.js';

/** Fork bombs in interpreter code: `fork while fork` (Perl), `while True: os.fork()`. */
const NATIVE_FORK_BOMB =
  /\bfork\s+while\s+fork\b|\bwhile\s*\(?\s*(?:1|true|True)\s*\)?\s*:?\s*\{?\s*(?:os\.|Process\.)?fork\s*\(?/;

const FORK_BOMB: CommandRule = {
  key: 'fork-bomb',
  description: 'fork bomb',
  floor: true,
  match(cmd, ctx) {
    const src = codeSource(cmd);
    if (src?.kind === 'inline' && NATIVE_FORK_BOMB.test(src.text.value)) return [programName(cmd)];
    const fn = cmd.functionName;
    if (!fn || cmd.argv[0]?.value !== fn) return null;
    const selfCalls = ctx.analysis.commands.filter((c) => c.functionName === fn && c.argv[0]?.value === fn);
    return selfCalls.length >= 2 ? [fn] : null;
  },
};

/** The pids `kill` is given, or undefined for another program. `kill -1` alone reads as pid -1. */
function killPids(cmd: SimpleCommand): string[] | undefined {
  if (programName(cmd) !== 'kill') return undefined;
  const words = cmd.argv.slice(1).map((w) => w.value);
  let i = 0;
  if (/^(?:-s|-n|--signal)$/.test(words[0] ?? '')) i = 2;
  else if (/^-[lL]$/.test(words[0] ?? '')) return [];
  else if (/^-[\w+]+$/.test(words[0] ?? '') || (words[0] ?? '').startsWith('--signal=')) i = 1;
  if (words[i] === '--') i++;
  const pids = words.slice(i);
  return pids.length === 0 && words[0] === '-1' ? ['-1'] : pids;
}

const PKILL_SPEC: ArgSpec = {
  valued: 'sugGPtUFnoO',
  long: ['signal', 'euid', 'uid', 'group', 'parent', 'terminal', 'session', 'user'],
};

/** Patterns that match every process name. */
const EVERY_NAME = /^(?:\.\*?|\.\+|\^\.?\*?\$?|)$/;

/** True when a `pkill`/`killall`/`pgrep` selects every process (of a user): no pattern, or `.`. */
function selectsAll(cmd: SimpleCommand): boolean {
  const name = programName(cmd);
  if (name !== 'pkill' && name !== 'killall' && name !== 'pgrep') return false;
  const p = parseArgs(cmd.argv, PKILL_SPEC);
  const patterns = p.operands.filter((w) => !/^-(?:\d+|[A-Z]+)$/.test(w.value));
  if (patterns.length === 0) return has(p, 'u', 'U', 'user', 'euid', 'uid');
  return patterns.some((w) => EVERY_NAME.test(w.value)) && (name !== 'killall' || has(p, 'r', 'regexp'));
}

const KILL_ALL_PROCESSES: CommandRule = {
  key: 'kill-all-processes',
  description: 'kill every process (kill -9 -1)',
  floor: true,
  match(cmd, ctx) {
    const name = programName(cmd);
    if (name === 'killall5') return ['-1'];
    // `loginctl terminate-user|kill-user USER`: every process of a user (the daemon's too)
    const lc = loginctl(cmd);
    if (lc && /^(?:terminate-user|kill-user)$/.test(lc.verb)) return lc.operands.map((u) => `user:${u}`);
    if ((name === 'pkill' || name === 'killall') && selectsAll(cmd)) return ['-1'];
    const pids = killPids(cmd);
    if (!pids) return null;
    if (pids.includes('-1')) return ['-1'];
    // `kill $(pgrep .)`: every pid a lookup of every process finds
    const lookups = childrenOf(cmd, ctx.analysis).filter((c) => c.via.at(-1) === 'substitution');
    return upstream(lookups, ctx.analysis).some(selectsAll) ? ['-1'] : null;
  },
};

const FORCE_KILL_BY_NAME: CommandRule = {
  key: 'force-kill-by-name',
  description: 'force-kill processes by name (pkill/killall -9, killall -r PATTERN)',
  match(cmd) {
    const name = programName(cmd);
    if (name !== 'pkill' && name !== 'killall') return null;
    const p = parseArgs(cmd.argv, PKILL_SPEC);
    const kill = /^(?:9|kill|sigkill)$/i;
    // `killall -r` kills every process whose name matches a regular expression
    const sweep = name === 'killall' && p.options.some((o) => o.name === 'r' || o.name === 'regexp');
    const forced =
      sweep ||
      cmd.argv.slice(1).some((w) => /^-(?:9|kill|sigkill)$/i.test(w.value)) ||
      p.options.some((o) => (o.name === 's' || o.name === 'signal') && kill.test(o.value?.value ?? ''));
    if (!forced) return null;
    const users = p.options
      .filter((o) => /^(?:u|U|user|euid|uid)$/.test(o.name) && o.value)
      .map((o) => `user:${o.value!.value}`);
    return [...users, ...valueTargets(p.operands.filter((w) => !/^-(?:9|kill|sigkill)$/i.test(w.value)))];
  },
};

const SYSTEMCTL_SPEC: ArgSpec = {
  valued: 'tspHMno',
  long: [
    'type',
    'signal',
    'property',
    'host',
    'machine',
    'lines',
    'output',
    'root',
    'kill-whom',
    'kill-value',
    'job-mode',
    'state',
    'when',
    'message',
    'reboot-argument',
    'boot-loader-entry',
    'boot-loader-menu',
  ],
};

/** `loginctl`'s verb and its operands. */
function loginctl(cmd: SimpleCommand): { verb: string; operands: string[] } | undefined {
  if (programName(cmd) !== 'loginctl') return undefined;
  const p = parseArgs(cmd.argv, {
    valued: 'pHMns',
    long: ['property', 'host', 'machine', 'lines', 'signal', 'output', 'kill-whom'],
  });
  const [verb, ...operands] = p.operands.map((w) => w.value);
  return { verb: (verb ?? '').toLowerCase(), operands };
}

/** `systemctl`'s verb and its unit operands. */
function systemctl(cmd: SimpleCommand): { verb: string; units: string[] } | undefined {
  if (programName(cmd) !== 'systemctl') return undefined;
  const p = parseArgs(cmd.argv, SYSTEMCTL_SPEC);
  const [verb, ...units] = p.operands.map((w) => w.value);
  return { verb: (verb ?? '').toLowerCase(), units };
}

const POWER_VERBS = /^(?:poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency)$/;
const POWER_TARGETS = /^(?:poweroff|reboot|halt|kexec|rescue|emergency|runlevel[0156])(?:\.target)?$/;

const SHUTDOWN_REBOOT: CommandRule = {
  key: 'shutdown-reboot',
  description: 'shut down or reboot the machine',
  floor: true,
  match(cmd, ctx) {
    const name = programName(cmd);
    if (name === 'reboot' || name === 'halt' || name === 'poweroff') return [name];
    if (name === 'shutdown') {
      return cmd.argv.some((w) => /^(?:-c|--help)$/.test(w.value)) ? null : [name];
    }
    const sc = systemctl(cmd);
    const toTarget = /^(?:isolate|start|restart|reload-or-restart|try-restart)$/.test(sc?.verb ?? '');
    if (sc && (POWER_VERBS.test(sc.verb) || (toTarget && sc.units.some((u) => POWER_TARGETS.test(u)))))
      return [`systemctl ${sc.verb}`, ...sc.units];
    const lc = loginctl(cmd);
    if (lc && /^(?:poweroff|reboot|halt|kexec|soft-reboot)$/.test(lc.verb)) return [`loginctl ${lc.verb}`];
    if (/^(?:busctl|gdbus|dbus-send|qdbus)$/.test(name)) {
      const text = cmd.argv.map((w) => w.value).join(' ');
      if (/login1/.test(text) && /\b(?:PowerOff|Reboot|Halt|KExec)\b/.test(text)) return [`${name} login1`];
    }
    if (name === 'init' || name === 'telinit') {
      const level = cmd.argv[1]?.value ?? '';
      return /^[0156sS]$/.test(level) || (name === 'telinit' && !/^[qQuU]$/.test(level))
        ? [`${name} ${level}`]
        : null;
    }
    if (name === 'launchctl' && /^(?:reboot|halt)$/.test(subcommand(cmd).sub)) return ['launchctl reboot'];
    const sysrq = writes(cmd).filter((w) => ctx.paths(w.word).includes('/proc/sysrq-trigger'));
    return sysrq.length > 0 ? ['/proc/sysrq-trigger'] : null;
  },
};

const SUSPEND_MACHINE: CommandRule = {
  key: 'suspend-machine',
  description: 'suspend or hibernate the machine',
  match(cmd) {
    const name = programName(cmd);
    const sc = systemctl(cmd);
    const verb = sc?.verb ?? loginctl(cmd)?.verb ?? '';
    if (/^(?:suspend|hibernate|hybrid-sleep|suspend-then-hibernate|sleep)$/.test(verb)) return [verb];
    if (/^pm-(?:suspend|hibernate|suspend-hybrid)$/.test(name)) return [name];
    if (name === 'pmset' && cmd.argv.some((w) => w.value === 'sleepnow')) return ['sleepnow'];
    return null;
  },
};

const SERVICE_STOP: CommandRule = {
  key: 'service-stop',
  description: 'stop or disable a system service',
  match(cmd) {
    const name = programName(cmd);
    const sc = systemctl(cmd);
    if (sc && /^(?:stop|disable|mask|kill|isolate|freeze)$/.test(sc.verb)) return sc.units;
    const words = cmd.argv.slice(1).map((w) => w.value);
    if ((name === 'service' || name === 'rc-service') && /^(?:stop|zap)$/.test(words[1] ?? ''))
      return [words[0]!];
    if (name === 'sv' && /^(?:stop|down|kill|exit)$/.test(words[0] ?? '')) return words.slice(1);
    if (name === 'launchctl' && /^(?:unload|bootout|remove|disable|kill|stop)$/.test(subcommand(cmd).sub))
      return words.filter((w) => !w.startsWith('-')).slice(1);
    return null;
  },
};

const SERVICE_ENABLE: CommandRule = {
  key: 'service-enable',
  description: 'start, enable or install a service (systemctl enable / start, launchctl load)',
  match(cmd, ctx) {
    const sc = systemctl(cmd);
    if (
      sc &&
      /^(?:enable|start|restart|reenable|link|preset|edit|set-environment|import-environment|try-restart|reload-or-restart)$/.test(
        sc.verb,
      )
    )
      return sc.units;
    if (
      programName(cmd) === 'launchctl' &&
      /^(?:load|bootstrap|submit|enable|kickstart|setenv|start)$/.test(subcommand(cmd).sub)
    ) {
      return pathTargets(
        ctx,
        cmd.argv.slice(2).filter((w) => !w.value.startsWith('-')),
      );
    }
    return null;
  },
};

/** `crontab`'s operands and options. */
function crontab(cmd: SimpleCommand): { remove: boolean; file: string | undefined } | undefined {
  if (programName(cmd) !== 'crontab') return undefined;
  const p = parseArgs(cmd.argv, { valued: 'uc' });
  const remove = p.options.some((o) => o.name === 'r');
  const listing = p.options.some((o) => o.name === 'l' || o.name === 'e');
  const file = listing ? undefined : p.operands[0]?.value;
  return { remove, file };
}

const CRONTAB_REMOVE: CommandRule = {
  key: 'crontab-remove',
  description: "remove the user's crontab (crontab -r)",
  match: (cmd) => (crontab(cmd)?.remove ? ['crontab'] : null),
};

const CRONTAB_INSTALL: CommandRule = {
  key: 'crontab-install',
  description: 'replace the crontab with a file or piped text (crontab FILE / crontab -)',
  match(cmd, ctx) {
    const c = crontab(cmd);
    if (!c || c.remove || c.file === undefined) return null;
    return c.file === '-'
      ? ['-']
      : pathTargets(ctx, parseArgs(cmd.argv, { valued: 'uc' }).operands.slice(0, 1));
  },
};

const FIREWALL_FLUSH: CommandRule = {
  key: 'firewall-flush',
  description: 'flush firewall rules',
  match(cmd) {
    const name = programName(cmd);
    const words = cmd.argv.slice(1).map((w) => w.value);
    if (/^ip6?tables(?:-legacy|-nft)?$/.test(name) && words.some((w) => w === '-F' || w === '--flush'))
      return [name];
    if (name === 'nft' && words.includes('flush')) return words.slice(words.indexOf('flush') + 1);
    if (name === 'ufw' && /^(?:disable|reset)$/.test(subcommand(cmd).sub)) return ['ufw'];
    if (name === 'pfctl' && words.some((w) => /^-[a-zA-Z]*[Fd]$/.test(w))) return ['pf'];
    return null;
  },
};

const CONTAINER_PRUNE: CommandRule = {
  key: 'container-prune',
  description: 'delete containers, images or volumes (docker prune)',
  match(cmd) {
    if (!/^(?:docker|podman|nerdctl)$/.test(programName(cmd))) return null;
    const words = cmd.argv
      .slice(1)
      .map((w) => w.value)
      .filter((w) => !w.startsWith('-'));
    const [group = '', verb = ''] = words;
    if (/^(?:system|volume|image|container|network|builder|buildx)$/.test(group) && verb === 'prune')
      return [`${group} prune`];
    if (group === 'volume' && (verb === 'rm' || verb === 'remove')) return words.slice(2);
    if (group === 'compose' && verb === 'down' && cmd.argv.some((w) => /^(?:-v|--volumes)$/.test(w.value)))
      return ['compose down --volumes'];
    return null;
  },
};

/** True when a `sudo` word list reads the password from stdin (`-S`, `--stdin`) or an askpass helper. */
const sudoReadsPassword = (words: readonly string[]): boolean =>
  words.some((w) => /^-[a-zA-Z]*[SA]/.test(w) || w === '--stdin' || w === '--askpass');

const SUDO_PASSWORD_STDIN: CommandRule = {
  key: 'sudo-password-stdin',
  description: 'give sudo or su a password through stdin (echo pw | sudo -S …)',
  match(cmd) {
    const run = cmd.argv.map((w) => w.value).join(' ');
    const sudo = cmd.wrappers.find((w) => w.name === 'sudo');
    if (sudo && sudoReadsPassword(sudo.words.map((w) => w.value))) return [run];
    const name = programName(cmd);
    if (name === 'sudo' && sudoReadsPassword(cmd.argv.map((w) => w.value))) return [run];
    if (name === 'su' && hasStdinInput(cmd)) return [run];
    return null;
  },
};

/** Floor rules first. */
export const SYSTEM_RULES: readonly CommandRule[] = [
  FORK_BOMB,
  KILL_ALL_PROCESSES,
  SHUTDOWN_REBOOT,
  FORCE_KILL_BY_NAME,
  SUSPEND_MACHINE,
  SERVICE_STOP,
  SERVICE_ENABLE,
  CRONTAB_REMOVE,
  CRONTAB_INSTALL,
  FIREWALL_FLUSH,
  CONTAINER_PRUNE,
  SUDO_PASSWORD_STDIN,
];
