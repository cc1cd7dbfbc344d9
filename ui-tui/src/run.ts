/**
 * `runTui`, the light entry of the TUI (`@hermes/ui-tui/run`, what `hermes tui` loads): it checks
 * the terminal and the daemon, paints the first frame (`splash.ts`), and only then loads Ink,
 * React and the app (`app/start.ts`, bundled into one script by `scripts/bundle.mjs` and run with a
 * V8 code cache by `app-script.ts`), which take most of the start-up. It sets the process's V8
 * heap flags first (`heap-tuning.ts`).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { startTui } from './app/start.js';
import { discoveryPath, readDiscovery } from '@hermes/client/discovery';
import { commandName, setCommandName } from './command-name.js';
import { tuneHeapForTui } from './heap-tuning.js';
import { withoutGlobalFetch } from './load-quietly.js';
import { paintSplash } from './splash.js';

/** Options of `runTui`. */
export interface RunTuiOptions {
  /** The Hermes root (`~/.hermes` or `$HERMES_HOME`'s root): where `tui-gateway.json` is. */
  root: string;
  /** Profile to work in; default: the daemon's active profile. */
  profile?: string;
  /** Session id or exact title, for `mode: 'session'`. */
  session?: string;
  /** `continue` (latest session of the profile, the default), `new`, or `session`. */
  mode: 'continue' | 'new' | 'session';
  /** Version of the CLI, sent in `initialize`. */
  version: string;
  /** Working directory for new sessions (default: `process.cwd()`). */
  cwd?: string;
  /**
   * How to spell the hermes command in hints (`hermes`, `./bin/hermes` …: the form that runs in
   * this install; default `hermes`).
   */
  command?: string;
  /**
   * The profile a bare `hermes tui` opens here (flag-less: `HERMES_HOME`, sticky, default): the
   * exit hint adds `-p NAME` for a session of any other profile. Default: the profile the TUI
   * attached first.
   */
  defaultProfile?: string;
  /** Use the terminal's alternate screen (default false: scrollback and copy-mode keep working). */
  altScreen?: boolean;
  /**
   * The daemon's life (client/daemon-keeper.ts): `alive(pid)` tells whether the discovery file's
   * pid is still the daemon (default: the pid exists); `start()` starts one and resolves once it
   * answers, safe to race with other starters. Without `start` the TUI only waits for a daemon.
   */
  daemon?: {
    alive?: (pid: number) => boolean;
    start?: () => Promise<void>;
    /**
     * No daemon runs at launch: `start()` is called at once, before the app loads, and the TUI
     * shows its composer (keys typed are kept; a prompt is sent once the session is attached)
     * while the daemon comes up. Needs `start`.
     */
    startAtLaunch?: boolean;
  };
  /** Streams (default: the process's). */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/** The daemon's discovery file is missing: start the daemon first. */
export class DaemonNotRunningError extends Error {
  constructor(readonly root: string) {
    super(
      `the Hermes daemon is not running (no ${discoveryPath(root)}); start it with "${commandName()} gateway start"`,
    );
    this.name = 'DaemonNotRunningError';
  }
}

/** Where a profile's TUI input history lives: in the profile's home (`<root>` or `<root>/profiles/<name>`). */
export function historyPath(root: string, profile: string): string {
  return profile === 'default'
    ? join(root, 'tui_history.jsonl')
    : join(root, 'profiles', profile, 'tui_history.jsonl');
}

/** The loaded app: `startTui`, and what to do before and after its first frame is drawn. */
interface LoadedApp {
  start: typeof startTui;
  /** Lets keys typed while the app loaded be read (and echoed by the painted frame) first. */
  beforeStart: () => Promise<void>;
  afterFirstFrame: () => void;
}

/** After the first frame, ms: the code cache then holds what start-up compiled (app-script.ts). */
const CACHE_SAVE_DELAY_MS = 100;

/**
 * Loads the app: the bundled app script (dist/bundle/app.js, made by `npm run build`, run with a
 * code cache by app-script.ts) when it exists and is not older than the last compile
 * (dist/.tsbuildinfo), else the modules (in tests, which run the sources, and after a `tsc`-only
 * build). The script's markdown libraries load from dist/bundle/lazy.js when first needed.
 */
async function loadStart(): Promise<LoadedApp> {
  const bundle = fileURLToPath(new URL('./bundle/app.js', import.meta.url));
  const compiled = new URL('./.tsbuildinfo', import.meta.url);
  let fresh = false;
  try {
    fresh = statSync(bundle).mtimeMs >= statSync(compiled).mtimeMs;
  } catch {
    // no bundle here: load the modules
  }
  if (!fresh) {
    const { startTui: start } = await import('./app/start.js');
    return { start, beforeStart: async () => {}, afterFirstFrame: () => {} };
  }
  let lazy: Promise<{ default: Record<string, unknown> }> | undefined;
  const importLazy = async (name: string): Promise<unknown> => {
    lazy ??= import(new URL('./bundle/lazy.js', import.meta.url).href) as Promise<{
      default: Record<string, unknown>;
    }>;
    const mod = (await lazy).default[name];
    if (mod === undefined) throw new Error(`${name} is not in the TUI's lazy bundle`);
    return mod;
  };
  // loaded after the first frame is painted (node:vm and all)
  const { loadAppScript, yieldToInput } = await import('./app-script.js');
  const app = await loadAppScript<{ startTui: typeof startTui; chalk: unknown }>(bundle, importLazy);
  // the lazy bundle's chalk is the app's (scripts/bundle-plugins.mjs, sharedChalkPlugin)
  (globalThis as Record<symbol, unknown>)[Symbol.for('hermes.tui.chalk')] = app.exports.chalk;
  return {
    start: app.exports.startTui,
    beforeStart: yieldToInput,
    afterFirstFrame: () => {
      if (!app.cached) setTimeout(() => app.saveCache(), CACHE_SAVE_DELAY_MS).unref();
    },
  };
}

/**
 * Runs the TUI until the user exits: connects to the daemon named by the discovery file (again
 * before every reconnect, as a restarted daemon has a new port and token), attaches the session,
 * and renders the app. Exiting detaches only: a running turn keeps running in the daemon.
 * @throws DaemonNotRunningError when no discovery file exists; Error when stdin is not a terminal.
 */
export async function runTui(opts: RunTuiOptions): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  if (!stdin.isTTY) throw new Error('hermes tui needs an interactive terminal (stdin is not a TTY)');
  if (opts.mode === 'session' && !opts.session) {
    throw new Error('runTui: mode "session" needs a session id or title');
  }
  if (opts.command) setCommandName(opts.command);
  const daemon = opts.daemon;
  let launchStart: Promise<void> | null = null;
  if (daemon?.startAtLaunch && daemon.start) {
    // the daemon starts behind the composer: its start-up overlaps the app's
    launchStart = daemon.start();
    launchStart.catch(() => {}); // reported by the keeper, which awaits this same start
  } else if (!(await readDiscovery(opts.root))) {
    throw new DaemonNotRunningError(opts.root);
  }
  tuneHeapForTui(); // before Ink and the app load (heap-tuning.ts)
  // the alternate screen is switched to by the app: no first frame on the normal screen then
  const splash = opts.altScreen
    ? null
    : paintSplash({ stdin, stdout, ...(opts.profile ? { profile: opts.profile } : {}) });
  let app: LoadedApp;
  try {
    app = await withoutGlobalFetch(loadStart); // Yoga's loader, else, loads Node's HTTP client
  } catch (err) {
    splash?.handOff();
    if (stdin.isTTY) stdin.setRawMode(false);
    stdout.write('\u001b[?2004l\u001b[?25h');
    throw err;
  }
  // keys typed while the app loaded are echoed by the painted frame now, before the app's first
  // render holds the event loop
  await app.beforeStart();
  const beforeFirstFrame = (): void => {
    splash?.handOff();
    app.afterFirstFrame();
  };
  await app.start(opts, beforeFirstFrame, launchStart);
}
