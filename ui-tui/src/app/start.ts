/**
 * The heavy half of `runTui` (loaded after the first frame is painted): the gateway client, the
 * session controller, input history, and the Ink render of the App.
 */
import { randomBytes } from 'node:crypto';
import { render } from 'ink';
import { createElement } from 'react';
import { DaemonKeeper, type DaemonLook } from '../client/daemon-keeper.js';
import { DaemonClient, endpointFromDiscovery, isProcessAlive, readDiscovery } from '@hermes/client';
import { cleanText } from '../util/sanitize.js';
import { setCommandName } from '../command-name.js';
import { applyColorEnv } from '../components/theme.js';
import { optimizeWhenWorkBegins } from '../heap-tuning.js';
import { collectWhenIdle, watchReads, watchRequests } from '../idle-memory.js';
import { historyPath, type RunTuiOptions } from '../run.js';
import { appendHistory, InputHistory, loadHistory } from '../state/input-history.js';
import { App } from './App.js';
import { SessionController } from './controller.js';
import type { StartTarget } from './start-target.js';
import { exitHint } from './exit-hint.js';
import { editExternally, terminalHandover } from './external-editor.js';
import { canSuspend, suspendTui } from './suspend.js';

/**
 * Runs `erase` right before the next write to `stream` (Ink's first frame), so the painted first
 * frame is replaced without a blank moment in between.
 */
function eraseBeforeFirstWrite(stream: NodeJS.WriteStream, erase: () => void): void {
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof write>) {
    stream.write = write;
    erase();
    return write.apply(stream, args);
  } as typeof write;
}

/**
 * `HERMES_TUI_THROTTLE_MS`: the live part's redraw interval while a reply streams, ms (default
 * 33). For tests and measurements (a long one shows that a reply's end never waits for it).
 */
export function streamThrottle(env: NodeJS.ProcessEnv): { throttleMs?: number } {
  const ms = Number(env.HERMES_TUI_THROTTLE_MS);
  return env.HERMES_TUI_THROTTLE_MS && Number.isFinite(ms) && ms >= 0 ? { throttleMs: ms } : {};
}

function startTarget(opts: RunTuiOptions): StartTarget {
  if (opts.mode === 'new') return { mode: 'new' };
  if (opts.mode === 'session') return { mode: 'session', session: opts.session ?? '' };
  return { mode: 'continue' };
}

/**
 * Connects, renders the App and resolves when the user exits.
 * @param beforeRender called right before Ink's first frame (erases the painted first frame).
 * @param launchStart the daemon start begun at launch (`daemon.startAtLaunch`): the keeper waits
 *   for it (status `starting`) instead of taking the missing daemon for a deliberate stop.
 */
export async function startTui(
  opts: RunTuiOptions,
  beforeRender: () => void = () => {},
  launchStart: Promise<void> | null = null,
): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const target = startTarget(opts);
  // this bundle has its own copy of the module: set it here too
  if (opts.command) setCommandName(opts.command);
  applyColorEnv();

  const alive = opts.daemon?.alive ?? ((pid: number) => isProcessAlive(pid));
  const keeper = new DaemonKeeper({
    look: async (): Promise<DaemonLook> => {
      const d = await readDiscovery(opts.root).catch(() => null);
      if (!d) return { state: 'absent' };
      return alive(d.pid) ? { state: 'alive', endpoint: endpointFromDiscovery(d) } : { state: 'stale' };
    },
    ...(opts.daemon?.start ? { start: opts.daemon.start } : {}),
  });
  const client = new DaemonClient({
    endpoint: keeper.endpoint,
    name: 'hermes-tui',
    version: opts.version,
    // the same at every initialize: this TUI's answers are `client:<id>` across reconnects
    instanceId: `tui-${randomBytes(8).toString('hex')}`,
    capabilities: { approvals: true, clarify: true },
    reconnect: true,
    ...(opts.profile ? { profile: opts.profile } : {}),
    // a local daemon: retrying often is cheap, and a restarted one is found within ~3 s
    backoff: { maxMs: 3_000 },
  });
  const history = new InputHistory();
  let historyFile: string | null = null;
  let startProfile: string | null = null;
  client.on('connected', (init) => {
    startProfile ??= init.profile;
    const path = historyPath(opts.root, init.profile);
    if (path === historyFile) return;
    historyFile = path;
    void loadHistory(path).then((entries) => {
      if (historyFile === path) history.replace(entries);
    });
  });
  // the markdown libraries load when a reply is first shown (components/Transcript.tsx), not at
  // start-up: an idle TUI never holds them
  const controller = new SessionController({
    client,
    cwd: opts.cwd ?? process.cwd(),
    daemon: keeper,
    ...streamThrottle(process.env),
    // a frame waits until the terminal has taken the one before (a TTY here is written
    // synchronously; a pipe or a slow remote one is not)
    drain: { busy: () => stdout.writableNeedDrain, onDrain: (cb) => stdout.once('drain', cb) },
    // bell and OSC notifications for the other sessions (hub-notifier.ts): no cursor movement
    notify: (bytes) => {
      if (stdout.isTTY) stdout.write(bytes);
    },
  });
  // after the controller subscribed to the keeper: the status bar shows the start, a failure too
  if (launchStart) void keeper.adoptStart(launchStart).catch(() => {});

  // TurboFan, capped while the TUI starts (heap-tuning.ts), from the first submitted line or turn
  const work = optimizeWhenWorkBegins((listener) => client.on('event', listener));

  const write = (s: string): void => {
    if (stdout.isTTY) stdout.write(s);
  };
  const handover = terminalHandover({ stdin, stdout, altScreen: Boolean(opts.altScreen) });
  write('\u001b[?2004h'); // bracketed paste: a multi-line paste stays one message
  if (opts.altScreen) write('\u001b[?1049h');
  eraseBeforeFirstWrite(stdout, beforeRender);
  const instance = render(
    createElement(App, {
      controller,
      history,
      onSubmitted: (text: string) => {
        work.begin();
        if (historyFile) void appendHistory(historyFile, text).catch(() => {});
      },
      editExternally: (text: string) => editExternally(text, { terminal: handover }),
      ...(canSuspend() && stdin.isTTY
        ? {
            suspend: () =>
              suspendTui({
                terminal: handover,
                // on the alternate screen the handover clears it: Ink draws the live part again
                ...(opts.altScreen ? { redraw: () => stdout.emit('resize') } : {}),
              }),
          }
        : {}),
    }),
    {
      stdin,
      stdout,
      ...(opts.stderr ? { stderr: opts.stderr } : {}),
      exitOnCtrlC: false,
      kittyKeyboard: { mode: 'auto' },
      // Ink's own frame throttle (default 30 fps) would hold back a frame the store already
      // paced, e.g. the last words of a reply (state/store.ts): a short one keeps only bursts
      // of renders within one turn of the event loop together
      maxFps: 250,
    },
  );
  // memory given back once idle: after start-up, after each turn (idle-memory.ts)
  const requests = watchRequests(client, () => idle.activity());
  const idle = collectWhenIdle({ busy: () => controller.state.busy || requests.pending() > 0 });
  const unwatchKeys = watchReads(stdin, () => idle.activity());
  const unwatchEvents = client.on('event', () => idle.activity());
  void controller.start(target).catch((err: unknown) => {
    controller.notice(`Could not start: ${err instanceof Error ? err.message : String(err)}`, 'error');
  });
  try {
    await instance.waitUntilExit();
  } finally {
    if (opts.altScreen) write('\u001b[?1049l');
    write('\u001b[?2004l');
    const hint = exitHint(controller.exitSession, opts.defaultProfile ?? startProfile, opts.command);
    if (hint) write(`${cleanText(hint)}\n`);
    work.stop();
    idle.stop();
    requests.restore();
    unwatchKeys();
    unwatchEvents();
    controller.dispose();
    void client.close();
  }
}
