/**
 * `hermes tui [-p PROFILE] [--session ID | --continue | --new]`: finds
 * the daemon through the discovery file and runs the Ink TUI attached to it; when no daemon runs,
 * the TUI starts one at launch and shows its composer while it comes up. Also the default command (`hermes` alone, `npm start`).
 *
 * Start-up speed matters here (the bench's goal: launch to composer ≤ 350 ms), so a plain `hermes
 * tui` skips yargs (`plainTuiArgs`, called by main.ts), a running daemon is recognised from its
 * discovery file without loading the daemon's client (zod, the protocol schemas), and config.yaml
 * is only parsed when it mentions the one setting read here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ControlModule from '@hermes/tui-gateway/lifecycle/control';
import type { Argv, CommandModule } from 'yargs';
import { hermesCommand } from '../command-form.js';
import type { CliContext } from '../context.js';
import { resolveCliHome } from '../resolve-home.js';

/** The argv for starting the daemon with this same executable. */
export async function daemonCommand(): Promise<string[]> {
  const { realpathSync } = await import('node:fs');
  return [process.execPath, realpathSync(process.argv[1]!), 'gateway', 'run', '--detached'];
}

/**
 * The profile a bare `hermes` would open here (`HERMES_HOME`, then the sticky profile, then
 * `default`): the exit hint names `-p` for any other one.
 */
export function bareProfile(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return resolveCliHome(undefined, env, { lenientSticky: true, warn: () => {} }).profile;
  } catch {
    return 'default';
  }
}

/** Options of one `hermes tui` run. */
export interface TuiArgs {
  session?: string;
  new?: boolean;
  continue?: boolean;
}

/**
 * Reads argv (profile flag already removed) when it is a plain `hermes tui` or bare `hermes` with
 * only the TUI's own options; null for anything else (help, other commands, unknown or conflicting
 * options), which yargs then parses and reports.
 */
export function plainTuiArgs(argv: readonly string[]): TuiArgs | null {
  const rest = argv[0] === 'tui' ? argv.slice(1) : argv;
  const out: TuiArgs = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-n' || a === '--new') out.new = true;
    else if (a === '-c' || a === '--continue') out.continue = true;
    else if ((a === '-s' || a === '--session') && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('-'))
      out.session = rest[++i]!;
    else if (a.startsWith('--session=') && a.length > 10) out.session = a.slice(10);
    else return null;
  }
  const chosen = [out.session !== undefined, Boolean(out.new), Boolean(out.continue)].filter(Boolean);
  return chosen.length > 1 ? null : out;
}

/**
 * True when the discovery file names a live daemon process. On Linux the pid's command line must
 * also be a gateway's (a reused pid is not taken for the daemon); elsewhere a live pid is enough —
 * the TUI keeps reconnecting if it is not answering.
 */
export function daemonSeemsRunning(root: string): boolean {
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(join(root, 'tui-gateway.json'), 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return false;
  }
  return typeof pid === 'number' && pidIsDaemon(pid);
}

/**
 * True when `pid` runs and, on Linux, is a gateway (a zombie or a reused pid is not the daemon).
 */
export function pidIsDaemon(pid: number): boolean {
  try {
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gateway');
  } catch {
    return false;
  }
}

/** `tui.alternate_screen` of the profile's config (parsed only when the file mentions it). */
async function alternateScreen(ctx: CliContext): Promise<boolean> {
  try {
    if (!readFileSync(ctx.home.configFile, 'utf8').includes('alternate_screen')) return false;
    const { loadConfig } = await import('../lazy/config.js');
    return loadConfig(ctx.home).tui.alternate_screen;
  } catch {
    return false; // no file, or a broken config: the daemon reports that on attach
  }
}

type Control = typeof ControlModule;
let control: Promise<Control> | undefined;
/** The daemon starter's module, loaded once (a later load could meet a rebuilt, renamed bundle). */
function loadControl(): Promise<Control> {
  control ??= import('@hermes/tui-gateway/lifecycle/control');
  return control;
}

/**
 * Starts the daemon (`hermes gateway start`'s way: racing starters end with one daemon, the
 * daemon's pid lock decides) and resolves once one answers.
 */
export async function startDaemon(root: string): Promise<void> {
  const { startBackground } = await loadControl();
  await startBackground({ root, command: await daemonCommand(), timeoutMs: 20_000 });
}

/**
 * Starts the daemon from a running TUI: a child `hermes gateway start` (racing starters end with
 * one daemon, its pid lock decides) that resolves once one answers. Nothing of the daemon's
 * starter (its client, zod, the config loader) is loaded into the TUI process, which keeps its
 * memory small, and an install rebuilt meanwhile starts with its own code.
 * @throws Error with the child's exit code and stderr (first 4 KiB) when it fails.
 */
export async function startDaemonInChild(root: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const { realpathSync } = await import('node:fs');
  const args = [realpathSync(process.argv[1]!), 'gateway', 'start'];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, HERMES_HOME: root },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`hermes gateway start failed (${code ?? signal}): ${stderr.trim().slice(0, 4096)}`));
    });
  });
}

/**
 * Starts the daemon when it is not running, then runs the TUI until the user exits. The TUI
 * starts a new daemon by itself when its daemon vanishes (not after a deliberate stop).
 */
export async function runTuiCommand(ctx: CliContext, args: TuiArgs): Promise<void> {
  const root = ctx.home.root;
  // no daemon: it starts (in a child `hermes gateway start`) behind the TUI's composer
  const startAtLaunch = !daemonSeemsRunning(root);
  if (startAtLaunch) {
    // a first start may find a home of the Python Hermes elsewhere: say once how to bring it here
    const { migrateOffer } = await import('../lazy/migrate-offer.js');
    const offer = migrateOffer(root);
    if (offer) process.stderr.write(`${offer}\n`);
  }
  const altScreen = await alternateScreen(ctx);
  const { runTui } = await import('@hermes/ui-tui/run');
  // `--continue` (the default) is resolved by the daemon (session.list continue_from): the TUI
  // process never opens state.db
  await runTui({
    root: ctx.home.root,
    profile: ctx.home.profile,
    version: ctx.version,
    mode: args.session !== undefined ? 'session' : args.new ? 'new' : 'continue',
    ...(args.session !== undefined ? { session: args.session } : {}),
    altScreen,
    command: hermesCommand(),
    defaultProfile: bareProfile(),
    daemon: { alive: pidIsDaemon, start: () => startDaemonInChild(root), startAtLaunch },
  });
}

/** Builds the `tui` command (also `$0`). */
export function tuiCommand(ctx: CliContext): CommandModule {
  return {
    command: ['tui', '$0'],
    describe: 'Open the terminal UI (starts the daemon when needed)',
    builder: (y: Argv) =>
      y
        .option('session', {
          alias: 's',
          type: 'string',
          describe: 'Attach to this session (id or exact title)',
        })
        .option('continue', {
          alias: 'c',
          type: 'boolean',
          describe:
            'Resume the last interactive (tui/cli) session by last activity, one of this folder first (default)',
        })
        .option('new', { alias: 'n', type: 'boolean', describe: 'Start a new session' })
        .check((a) => {
          if ([a.session !== undefined, Boolean(a.continue), Boolean(a.new)].filter(Boolean).length > 1) {
            throw new Error('use only one of --session, --continue and --new');
          }
          return true;
        }),
    handler: async (argv) =>
      runTuiCommand(ctx, {
        ...(argv.session !== undefined ? { session: String(argv.session) } : {}),
        ...(argv.new ? { new: true } : {}),
        ...(argv.continue ? { continue: true } : {}),
      }),
  };
}
