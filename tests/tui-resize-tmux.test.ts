/**
 * Resizing the terminal redraws the TUI cleanly (run `npm run build` first): in a real tmux pane,
 * with a reply on screen, the window is made narrower and then wider; each time the pane ends up
 * with one composer box, lines no wider than the pane (nothing left of the old frame, which tmux
 * would re-wrap into long joined lines), and the reply printed once in the whole scrollback.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const count = (hay: string, needle: string): number => hay.split(needle).length - 1;
const reply = ['RZ-START', ...Array.from({ length: 150 }, (_, i) => `w${i + 1}`), 'RZ-END'].join(' ');

/** The pane shows one clean frame `cols` wide: one composer, idle, no line wider than the pane. */
function clean(screen: string, cols: number): boolean {
  const lines = screen.split('\n');
  return (
    count(screen, '╭') === 1 &&
    count(screen, '╰') === 1 &&
    screen.includes('◇ idle') &&
    screen.includes('RZ-END') &&
    lines.every((l) => [...l.trimEnd()].length <= cols)
  );
}

describeTmux('hermes tui: resizing the terminal', () => {
  const fx = useTuiTmux('hermes-resize-test');

  it('narrower, then wider: a clean redraw each time, the reply once in the scrollback', async () => {
    const { tmux, model, root } = fx;
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('main', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    model.push({ text: reply, chunkSize: 40, delayMs: 5 });
    tmux.type(w, 'a long answer please', 'Enter');
    await tmux.waitFor(w, (s) => clean(s, 120), { what: 'the reply on a clean screen' });

    tmux.run('resize-window', '-t', w, '-x', '70', '-y', '40');
    await tmux.waitFor(w, (s) => clean(s, 70), { what: 'a clean frame 70 columns wide' });

    tmux.run('resize-window', '-t', w, '-x', '110', '-y', '30');
    await tmux.waitFor(w, (s) => clean(s, 110), { what: 'a clean frame 110 columns wide' });
    const all = tmux.capture(w, true);
    expect(count(all, 'RZ-START')).toBe(1);
    expect(count(all, 'RZ-END')).toBe(1);
    expect(count(all, '› a long answer please')).toBe(1);
  });
});
