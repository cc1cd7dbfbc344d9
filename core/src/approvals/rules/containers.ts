/**
 * Container engines (`docker`, `podman`, `nerdctl`, `docker compose`, `docker-compose`,
 * `podman-compose`):
 * - `container-lifecycle` — stopping, killing or restarting running containers (`docker stop`,
 *   `docker kill`, `docker restart`, `docker compose down|stop|kill|restart`): services go down;
 * - `container-remote-daemon` — a command sent to another daemon (`docker -H ssh://…`,
 *   `--host`, `--context`, `podman --remote`/`-r`, `--url`, `--connection`, `--identity`): it acts
 *   on another machine, whatever the sub-command.
 *
 * Global options the rules do not know are skipped: the sub-command is the first word that is one
 * of the engine's sub-commands, so `docker --log-level debug stop app` is a stop. Mentions in text
 * (`echo "docker restart"`, `git commit -m …`) are arguments of another program and never match.
 */
import { programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import type { CommandRule } from './types.js';

const ENGINES = /^(?:docker|podman|nerdctl)$/;
const COMPOSE_PROGRAMS = /^(?:docker-compose|podman-compose)$/;

/** Sub-commands of the engines (what a word must be to count as the sub-command). */
const ENGINE_SUBCOMMANDS = new Set([
  'attach',
  'build',
  'builder',
  'buildx',
  'commit',
  'compose',
  'config',
  'container',
  'context',
  'cp',
  'create',
  'diff',
  'events',
  'exec',
  'export',
  'history',
  'image',
  'images',
  'import',
  'info',
  'init',
  'inspect',
  'kill',
  'load',
  'login',
  'logout',
  'logs',
  'manifest',
  'network',
  'node',
  'pause',
  'plugin',
  'pod',
  'port',
  'ps',
  'pull',
  'push',
  'rename',
  'restart',
  'rm',
  'rmi',
  'run',
  'save',
  'search',
  'secret',
  'service',
  'stack',
  'start',
  'stats',
  'stop',
  'swarm',
  'system',
  'tag',
  'top',
  'trust',
  'unpause',
  'update',
  'version',
  'volume',
  'wait',
  'machine',
  'generate',
  'play',
  'kube',
  'healthcheck',
  'unshare',
]);

/** Sub-commands of compose. */
const COMPOSE_SUBCOMMANDS = new Set([
  'attach',
  'build',
  'config',
  'cp',
  'create',
  'down',
  'events',
  'exec',
  'images',
  'kill',
  'logs',
  'ls',
  'pause',
  'port',
  'ps',
  'pull',
  'push',
  'restart',
  'rm',
  'run',
  'scale',
  'start',
  'stats',
  'stop',
  'top',
  'unpause',
  'up',
  'version',
  'wait',
  'watch',
]);

const LIFECYCLE = new Set(['stop', 'kill', 'restart']);
const COMPOSE_LIFECYCLE = new Set(['down', 'stop', 'kill', 'restart']);

/** Index of the first word from `from` on that is in `known`, or -1. */
function firstKnown(argv: readonly ShellWord[], known: ReadonlySet<string>, from: number): number {
  for (let i = from; i < argv.length; i++) {
    const v = argv[i]!.value.toLowerCase();
    if (v === '--') return known.has(argv[i + 1]?.value.toLowerCase() ?? '') ? i + 1 : -1;
    if (known.has(v)) return i;
  }
  return -1;
}

/** The lifecycle verb and what it acts on, or null. */
function lifecycle(cmd: SimpleCommand): string[] | null {
  const name = programName(cmd).replace(/\.exe$/, '');
  const argv = cmd.argv;
  const operands = (from: number) =>
    argv
      .slice(from)
      .filter((w) => !w.value.startsWith('-'))
      .map((w) => w.value);
  if (COMPOSE_PROGRAMS.test(name)) {
    const i = firstKnown(argv, COMPOSE_SUBCOMMANDS, 1);
    const verb = i < 0 ? '' : argv[i]!.value.toLowerCase();
    return COMPOSE_LIFECYCLE.has(verb) ? [`compose ${verb}`, ...operands(i + 1)] : null;
  }
  if (!ENGINES.test(name)) return null;
  const i = firstKnown(argv, ENGINE_SUBCOMMANDS, 1);
  if (i < 0) return null;
  let verb = argv[i]!.value.toLowerCase();
  let at = i;
  if (verb === 'compose') {
    at = firstKnown(argv, COMPOSE_SUBCOMMANDS, i + 1);
    verb = at < 0 ? '' : argv[at]!.value.toLowerCase();
    return COMPOSE_LIFECYCLE.has(verb) ? [`compose ${verb}`, ...operands(at + 1)] : null;
  }
  if (verb === 'container') {
    at = firstKnown(argv, ENGINE_SUBCOMMANDS, i + 1);
    verb = at < 0 ? '' : argv[at]!.value.toLowerCase();
  }
  return LIFECYCLE.has(verb) ? [verb, ...operands(at + 1)] : null;
}

const CONTAINER_LIFECYCLE: CommandRule = {
  key: 'container-lifecycle',
  description: 'stop, kill or restart running containers (docker stop/kill/restart, compose down)',
  match: lifecycle,
};

/** Options that send an engine's commands to another daemon (before the sub-command). */
const REMOTE_OPTION = /^(?:-H|--host|--context|-c|--url|--connection|--identity|-r|--remote)(?:=.*)?$/;

const CONTAINER_REMOTE_DAEMON: CommandRule = {
  key: 'container-remote-daemon',
  description:
    'run a container command against another machine’s daemon (docker -H/--context, podman --remote)',
  match(cmd) {
    const name = programName(cmd).replace(/\.exe$/, '');
    if (!ENGINES.test(name)) return null;
    const argv = cmd.argv;
    const sub = firstKnown(argv, ENGINE_SUBCOMMANDS, 1);
    const end = sub < 0 ? argv.length : sub;
    for (let i = 1; i < end; i++) {
      const v = argv[i]!.value;
      if (!REMOTE_OPTION.test(v)) continue;
      // `-c` is docker's `--context`, podman's `--connection`; `-r` is podman's `--remote`
      if ((v === '-r' || v === '--remote') && name === 'docker') continue;
      const value = v.includes('=')
        ? v.slice(v.indexOf('=') + 1)
        : /^(?:-r|--remote)$/.test(v)
          ? ''
          : argv[i + 1]?.value;
      if (value === 'default') continue;
      return [value ? `${v.split('=')[0]} ${value}` : v];
    }
    return null;
  },
};

/** The container-engine rules. */
export const CONTAINER_RULES: readonly CommandRule[] = [CONTAINER_LIFECYCLE, CONTAINER_REMOTE_DAEMON];
