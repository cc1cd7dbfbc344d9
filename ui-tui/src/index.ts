/**
 * `@hermes/ui-tui`: the Ink terminal UI of Hermes. `runTui` is what `hermes tui` calls; it
 * assumes the daemon is running (its discovery file exists under the root).
 */
import { join } from 'node:path';
import { render } from 'ink';
import { createElement } from 'react';
import { App } from './app/App.js';
import { SessionController, type StartTarget } from './app/controller.js';
import { discoveryPath, endpointFromDiscovery, readDiscovery } from './client/discovery.js';
import { GatewayClient } from './client/gateway-client.js';
import { applyColorEnv } from './components/theme.js';
import { loadMarkdown } from './markdown/render.js';
import { appendHistory, InputHistory, loadHistory } from './state/input-history.js';

export { App, type AppProps } from './app/App.js';
export { SessionController, type ControllerOptions, type StartTarget } from './app/controller.js';
export {
  discoveryPath,
  endpointFromDiscovery,
  isProcessAlive,
  readDiscovery,
  DiscoveryError,
  type Discovery,
  type Endpoint,
} from './client/discovery.js';
export { CallTimeoutError, DropServerRequest, NotConnectedError, RpcCallError } from './client/errors.js';
export { GatewayClient, type GatewayClientOptions } from './client/gateway-client.js';
export type * from './client/types.js';

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
  /** Use the terminal's alternate screen (default false: scrollback and copy-mode keep working). */
  altScreen?: boolean;
  /** Streams (default: the process's). */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/** The daemon's discovery file is missing: start the daemon first. */
export class DaemonNotRunningError extends Error {
  constructor(readonly root: string) {
    super(
      `the Hermes daemon is not running (no ${discoveryPath(root)}); start it with "hermes gateway start"`,
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

function startTarget(opts: RunTuiOptions): StartTarget {
  if (opts.mode === 'new') return { mode: 'new' };
  if (opts.mode === 'session') {
    if (!opts.session) throw new Error('runTui: mode "session" needs a session id or title');
    return { mode: 'session', session: opts.session };
  }
  return { mode: 'continue' };
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
  if (!(await readDiscovery(opts.root))) throw new DaemonNotRunningError(opts.root);
  const target = startTarget(opts);
  applyColorEnv();

  const client = new GatewayClient({
    endpoint: async () => {
      const d = await readDiscovery(opts.root);
      if (!d) throw new DaemonNotRunningError(opts.root);
      return endpointFromDiscovery(d);
    },
    version: opts.version,
    ...(opts.profile ? { profile: opts.profile } : {}),
  });
  const history = new InputHistory();
  let historyFile: string | null = null;
  client.on('connected', (init) => {
    const path = historyPath(opts.root, init.profile);
    if (path === historyFile) return;
    historyFile = path;
    void loadHistory(path).then((entries) => {
      if (historyFile === path) history.replace(entries);
    });
  });
  const controller = new SessionController({
    client,
    cwd: opts.cwd ?? process.cwd(),
    ready: loadMarkdown().catch(() => {}),
  });

  const write = (s: string): void => {
    if (stdout.isTTY) stdout.write(s);
  };
  write('\u001b[?2004h'); // bracketed paste: a multi-line paste stays one message
  if (opts.altScreen) write('\u001b[?1049h');
  const instance = render(
    createElement(App, {
      controller,
      history,
      onSubmitted: (text: string) => {
        if (historyFile) void appendHistory(historyFile, text).catch(() => {});
      },
      writeRaw: (d: string) => stdout.write(d),
    }),
    {
      stdin,
      stdout,
      ...(opts.stderr ? { stderr: opts.stderr } : {}),
      exitOnCtrlC: false,
      kittyKeyboard: { mode: 'auto' },
    },
  );
  void controller.start(target).catch((err: unknown) => {
    controller.notice(`Could not start: ${err instanceof Error ? err.message : String(err)}`, 'error');
  });
  try {
    await instance.waitUntilExit();
  } finally {
    if (opts.altScreen) write('\u001b[?1049l');
    write('\u001b[?2004l');
    controller.dispose();
    client.close();
  }
}
