/**
 * `hermes gateway run | start | stop | restart | status [--json] | install | uninstall`: the tui-gateway
 * daemon of the selected root. Thin: parses, then calls @hermes/tui-gateway, imported only when a subcommand runs.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import { inertLine } from '../terminal-text.js';

/** argv that re-runs this CLI as `hermes gateway run --detached`. */
async function runCommand(): Promise<string[]> {
  const { realpathSync } = await import('node:fs');
  return [process.execPath, realpathSync(process.argv[1]!), 'gateway', 'run', '--detached'];
}

/** One platform's state as `gateway status` prints it (times of day in UTC). */
export function platformState(p: {
  state: string;
  error?: string | undefined;
  attempt?: number | undefined;
  retry_at?: string | undefined;
  last_error?: string | undefined;
}): string {
  // error texts come from the platform's servers: one inert line each
  const last = p.last_error ? `, last error: ${inertLine(p.last_error)}` : '';
  switch (p.state) {
    case 'backing_off': {
      const until = p.retry_at ? ` until ${p.retry_at.slice(11, 19)}Z` : '';
      return `backing off${until} (attempt ${p.attempt ?? '?'}${last})`;
    }
    case 'connecting':
    case 'starting':
      return (p.attempt ?? 1) > 1 ? `connecting (attempt ${p.attempt}${last})` : 'connecting';
    case 'failed':
      return `failed: ${inertLine(p.error ?? p.last_error ?? 'unknown reason')}`;
    default:
      return p.state;
  }
}

/** `--systemctl` (default on) of `gateway install | uninstall`; with `--no-systemctl` systemctl is never run. */
const systemctlOption = <T>(a: Argv<T>) =>
  a.option('systemctl', {
    type: 'boolean',
    default: true,
    describe: 'Run systemctl --user where systemd runs',
  });

function fmtUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m` : m ? `${m}m ${s % 60}s` : `${s}s`;
}

/** Builds the `gateway` command. */
export function gatewayCommand(ctx: CliContext): CommandModule {
  const root = ctx.home.root;
  return {
    command: 'gateway',
    describe: 'Run, start, stop, restart or inspect the tui-gateway daemon',
    builder: (y: Argv) =>
      y
        .command({
          command: 'run',
          describe: 'Run the daemon in the foreground (SIGTERM/SIGINT stop it gracefully)',
          builder: (a) => a.option('detached', { type: 'boolean', default: false, hidden: true }),
          handler: async (argv) => {
            const { runGateway } = await import('@hermes/tui-gateway');
            const code = await runGateway({ root, version: ctx.version, detached: Boolean(argv.detached) });
            process.exit(code);
          },
        })
        .command({
          command: 'start',
          describe: 'Start the daemon in the background (no-op when one runs)',
          builder: (a) =>
            a.option('timeout', { type: 'number', default: 20, describe: 'Seconds to wait for it' }),
          handler: async (argv) => {
            const { startBackground } = await import('@hermes/tui-gateway');
            const r = await startBackground({
              root,
              command: await runCommand(),
              timeoutMs: Number(argv.timeout) * 1000,
            });
            const what = r.status === 'started' ? 'started' : 'already running';
            process.stdout.write(`tui-gateway ${what}: pid ${r.info.pid}, port ${r.info.port} (${root})\n`);
            if (r.status !== 'started') {
              const { hermesCommand } = await import('../command-form.js');
              process.stdout.write(
                `  chat platforms and the API server read config.yaml when the daemon starts: ` +
                  `${hermesCommand()} gateway restart applies a change to them\n`,
              );
            }
          },
        })
        .command({
          command: 'restart',
          describe:
            'Stop the daemon gracefully (drains running turns), then start it again; applies changes to chat platforms and the API server',
          builder: (a) =>
            a.option('timeout', {
              type: 'number',
              describe: 'Seconds to wait for the stop (default: drain timeout + 10)',
            }),
          handler: async (argv) => {
            const { startBackground, stopDaemon, stopWaitMs, readDrainTimeoutS } =
              await import('@hermes/tui-gateway');
            const timeoutMs =
              argv.timeout !== undefined ? Number(argv.timeout) * 1000 : stopWaitMs(readDrainTimeoutS(root));
            const stopped = await stopDaemon({ root, timeoutMs, force: false });
            if (stopped.status === 'timeout') {
              const { CliExit } = await import('../context.js');
              throw new CliExit(
                1,
                `tui-gateway (pid ${stopped.pid}) did not exit within ${stopped.elapsedMs} ms; nothing restarted ` +
                  `(gateway stop --force ends it)`,
              );
            }
            const r = await startBackground({ root, command: await runCommand(), timeoutMs: 20_000 });
            const before =
              stopped.status === 'not_running' ? 'was not running; ' : `stopped (pid ${stopped.pid}), then `;
            const now = r.status === 'started' ? 'started' : 'already running (started by another client)';
            process.stdout.write(
              `tui-gateway ${before}${now}: pid ${r.info.pid}, port ${r.info.port} (${root})\n`,
            );
          },
        })
        .command({
          command: 'stop',
          describe: 'Stop the daemon gracefully (drains running turns)',
          builder: (a) =>
            a
              .option('timeout', {
                type: 'number',
                describe: 'Seconds to wait (default: drain timeout + 10)',
              })
              .option('force', {
                type: 'boolean',
                default: false,
                describe: 'SIGKILL when it has not exited in time',
              }),
          handler: async (argv) => {
            const { stopDaemon, stopWaitMs, readDrainTimeoutS } = await import('@hermes/tui-gateway');
            const timeoutMs =
              argv.timeout !== undefined ? Number(argv.timeout) * 1000 : stopWaitMs(readDrainTimeoutS(root));
            const r = await stopDaemon({ root, timeoutMs, force: Boolean(argv.force) });
            switch (r.status) {
              case 'not_running':
                process.stdout.write(
                  `tui-gateway is not running${r.staleRemoved ? ' (removed a stale discovery file)' : ''}\n`,
                );
                return;
              case 'stopped':
                process.stdout.write(`tui-gateway stopped (pid ${r.pid}, ${r.elapsedMs} ms)\n`);
                return;
              case 'killed':
                process.stdout.write(`tui-gateway killed after ${r.elapsedMs} ms (pid ${r.pid})\n`);
                return;
              case 'timeout': {
                const { CliExit } = await import('../context.js');
                throw new CliExit(
                  1,
                  `tui-gateway (pid ${r.pid}) did not exit within ${r.elapsedMs} ms; retry with --force`,
                );
              }
            }
          },
        })
        .command({
          command: 'status',
          describe: 'Show pid, port, uptime, version, sessions and clients (exit 1 when not running)',
          builder: (a) => a.option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
          handler: async (argv) => {
            const { queryStatus } = await import('@hermes/tui-gateway');
            const r = await queryStatus(root);
            if (argv.json)
              process.stdout.write(
                `${JSON.stringify(r.running ? { running: true, ...r.status } : r, null, 2)}\n`,
              );
            else if (r.running) {
              const s = r.status;
              process.stdout.write(
                [
                  `tui-gateway running (${root})`,
                  `  pid       ${s.pid}`,
                  `  port      ${s.port}`,
                  `  version   ${s.version}`,
                  `  epoch     ${s.epoch}`,
                  `  uptime    ${fmtUptime(s.uptime_ms)} (since ${s.started_at})`,
                  `  sessions  ${s.sessions_live} live`,
                  `  clients   ${s.clients_attached} attached (${s.connections} connections)`,
                  ...(s.shutting_down ? ['  state     shutting down'] : []),
                  ...(s.platforms?.length
                    ? [
                        '  platforms',
                        ...s.platforms.map(
                          (p) =>
                            `    ${p.profile === 'default' ? '' : `${p.profile}/`}${p.platform}: ${platformState(p)}`,
                        ),
                      ]
                    : []),
                  '',
                ].join('\n'),
              );
            } else {
              const why = {
                absent: '',
                stale: ` (stale discovery: pid ${r.pid} is gone)`,
                invalid: ` (${r.detail})`,
                unreachable: ` (pid ${r.pid} does not answer: ${r.detail})`,
              }[r.reason];
              process.stdout.write(`tui-gateway is not running${why}\n`);
            }
            if (!r.running) process.exitCode = 1;
          },
        })
        .command({
          command: 'install',
          describe: 'Install a systemd user unit that runs the daemon at login',
          builder: systemctlOption,
          handler: async (argv) => {
            const { installService } = await import('@hermes/tui-gateway');
            const { readDrainTimeoutS } = await import('@hermes/tui-gateway');
            const [node, hermes] = await runCommand();
            const r = installService(
              { node: node!, hermes: hermes!, root, drainTimeoutS: readDrainTimeoutS(root) },
              { systemctl: argv.systemctl ? 'auto' : 'never' },
            );
            process.stdout.write(`${r.messages.join('\n')}\n`);
          },
        })
        .command({
          command: 'uninstall',
          describe: 'Remove the systemd user unit',
          builder: systemctlOption,
          handler: async (argv) => {
            const { uninstallService } = await import('@hermes/tui-gateway');
            const r = uninstallService({ systemctl: argv.systemctl ? 'auto' : 'never' });
            process.stdout.write(`${r.messages.join('\n')}\n`);
          },
        })
        .demandCommand(
          1,
          'Give a gateway sub-command: run, start, stop, restart, status, install, uninstall',
        ),
    handler: () => {},
  };
}
