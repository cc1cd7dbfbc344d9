/**
 * The shared set-up of the TUI tests in tmux (tui-tmux.test.ts, tui-resize-tmux.test.ts): a tmux
 * server of its own, a fake model, a test home pointing at it and a running daemon; all stopped
 * and removed after the file. Run `npm run build` first.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';
import { killDaemons } from './gateway-process.js';
import { makeTestHome, runHermes } from './hermes-cli.js';
import { Tmux } from './tmux.js';

/**
 * The environment of a TUI started in tmux for home `root`: drawn (`CI=false`), xterm colours off,
 * no model keys from the user's shell; `extra` adds or overrides variables.
 */
export function tuiEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HERMES_HOME: root,
    CI: 'false',
    TERM: 'xterm-256color',
    NO_COLOR: '1',
    OPENAI_API_KEY: '',
    OPENROUTER_API_KEY: '',
    ...extra,
  };
}

/** What a tmux TUI test works with; `model` and `root` are set in `beforeAll`. */
export interface TuiTmuxFixture {
  tmux: Tmux;
  model: FakeModelServer;
  root: string;
}

/**
 * Registers `beforeAll`/`afterAll` for a tmux TUI test file. `setup` runs on the new home before
 * the daemon starts (e.g. to write an editor script).
 * @param name names the tmux server (made unique per process and time).
 * @param size the terminal size of new windows, in columns and rows.
 */
export function useTuiTmux(
  name: string,
  size: { cols: number; rows: number } = { cols: 120, rows: 40 },
  setup?: (root: string) => void,
): TuiTmuxFixture {
  const fx = { tmux: new Tmux(`${name}-${process.pid}-${Date.now().toString(36)}`, size) } as TuiTmuxFixture;
  beforeAll(async () => {
    fx.model = await startFakeModelServer();
    fx.root = makeTestHome({ modelUrl: fx.model.url });
    setup?.(fx.root);
    const r = await runHermes(fx.root, ['gateway', 'start']);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    fx.tmux.kill();
    if (fx.root) killDaemons(fx.root);
    await fx.model?.close();
    if (fx.root) rmSync(fx.root, { recursive: true, force: true });
  });
  return fx;
}
