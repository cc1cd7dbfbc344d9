/**
 * `/ps` and the status-bar count in a real terminal: a background process the agent started from
 * one TUI is counted in the status bar, still counted after that TUI was killed and a new one
 * attached, listed by `/ps`, and stopped by `/ps kill ID`. Run `npm run build` first.
 */
import { afterAll, expect, it } from 'vitest';
import { pidRuns } from './support/gateway-process.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];
/** The status bar (last non-empty line). */
const statusBar = (screen: string): string =>
  screen
    .split('\n')
    .filter((l) => l.trim())
    .pop() ?? '';

describeTmux('/ps and the background count in the TUI', () => {
  let env: Record<string, string>;
  const fx = useTuiTmux('hermes-tui-ps', { cols: 120, rows: 40 }, (root) => {
    env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1', OPENAI_API_KEY: '' };
  });
  const { tmux } = fx;
  // registered after the fixture's: runs first, while the daemon still runs (it stops the process)
  afterAll(async () => {
    if (fx.root) await runHermes(fx.root, ['gateway', 'stop']);
  });

  it('counts it, keeps counting after the TUI is killed, lists it with /ps and stops it with /ps kill', async () => {
    const w = tmux.open('first', tui('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 120', background: true } }] },
      { text: 'BG-STARTED' },
    );
    tmux.type(w, 'start a sleeper', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('BG-STARTED') && statusBar(s).includes('⚙ 1 bg'), {
      timeoutMs: 15_000,
    });
    process.kill(tmux.pid(w), 'SIGKILL');

    const ps = JSON.parse((await runHermes(fx.root, ['ps', '--json'])).stdout) as {
      processes: Array<{ id: string; pid: number; state: string }>;
    };
    const p = ps.processes[0]!;
    expect(p.state).toBe('running');

    const again = tmux.open('second', tui('--continue'), env);
    await tmux.waitFor(again, (s) => statusBar(s).includes('⚙ 1 bg'), { timeoutMs: 15_000 });
    tmux.type(again, '/ps', 'Enter');
    await tmux.waitFor(again, (s) => s.includes('1 running background process(es) in profile default'));
    expect(tmux.capture(again)).toContain(`${p.id}  pid ${p.pid}  running`);
    tmux.type(again, `/ps kill ${p.id}`, 'Enter');
    await tmux.waitFor(again, (s) => s.includes(`${p.id}: killed`) && !statusBar(s).includes('bg'), {
      timeoutMs: 15_000,
    });
    expect(pidRuns(p.pid)).toBe(false);
  }, 60_000);
});
