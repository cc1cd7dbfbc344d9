/**
 * Keys typed while `hermes tui` starts (real terminal: tmux; run `npm run build` first): typed
 * from the moment the pane exists — before the first frame, over it, and while Ink loads — in a
 * burst and at a person's pace (30–80 ms a key), they all reach the real composer, in order, none
 * lost. With no daemon running, the composer comes up at once, the daemon starts behind it, and a
 * prompt typed (with Enter) meanwhile is sent once the daemon is up.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux, typeSlowly } from './support/tmux.js';
import { tuiEnv, useTuiTmux } from './support/tui-tmux-fixture.js';

/** The composer's text line (`› …` inside the frame), as shown. */
function composerLine(screen: string): string {
  const lines = screen.split('\n').filter((l) => /^\s*│ › /.test(l));
  return (lines.at(-1) ?? '').replace(/^\s*│ › /, '').replace(/\s*│\s*$/, '');
}

const connected = (s: string): boolean => s.includes('● connected');

describeTmux('hermes tui in tmux: keys typed during start-up', () => {
  const fx = useTuiTmux('hermes-startup-keys', { cols: 110, rows: 30 });

  it('a burst typed at launch arrives whole and in order, before the keys typed after it', async () => {
    const { tmux, root } = fx;
    const t = tmux.open('burst', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    tmux.type(t, 'burst-0123456789'); // one send-keys, while the process is still loading
    await typeSlowly(tmux, t, ' then slow');
    const screen = await tmux.waitFor(
      t,
      (s) => connected(s) && composerLine(s) === 'burst-0123456789 then slow',
    );
    expect(composerLine(screen)).toBe('burst-0123456789 then slow');
    // the real composer has them: editing keys work on the text typed during start-up
    tmux.keys(t, 'C-w');
    await tmux.waitFor(t, (s) => composerLine(s) === 'burst-0123456789 then');
  });

  it('leaves no copy of the first frame in the scrollback (tmux keeps a cleared screen in the history)', async () => {
    const { tmux, root } = fx;
    const t = tmux.open('scrollback', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    const screen = await tmux.waitFor(t, (s) => connected(s) && s.includes('Type a message'));
    expect(screen.split('Type a message').length - 1).toBe(1);
    // the history too: the painted frame was erased where it stood, not scrolled away
    const all = tmux.capture(t, true);
    expect(all.split('Type a message').length - 1, all).toBe(1);
    expect(all).not.toContain('connecting');
  });

  it('wide characters typed over the first frame leave no copies of its composer line behind', async () => {
    const { tmux, root } = fx;
    const t = tmux.open('wide', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    const text = '漢字かな🙂'.repeat(3);
    // quickly (~15 ms a key), so that several keys are echoed by the first frame
    for (const ch of text) {
      tmux.type(t, ch);
      await new Promise((r) => setTimeout(r, 15));
    }
    const screen = await tmux.waitFor(t, (s) => connected(s) && composerLine(s) === text);
    // one composer line, in the screen and the history: an echo wider than the frame wrapped,
    // and each later echo was drawn a line lower
    const all = tmux.capture(t, true);
    expect(
      screen.split('\n').filter((l) => l.includes('│ ›')),
      screen,
    ).toHaveLength(1);
    expect(
      all.split('\n').filter((l) => l.includes('│ ›')),
      all,
    ).toHaveLength(1);
  });

  it('keeps what the shell printed above the TUI when the pane is made shorter during start-up', async () => {
    const { tmux, root } = fx;
    // the shell's output fills the pane: the first frame is painted on its last lines
    const t = tmux.open(
      'shorter',
      ['sh', '-c', 'seq 1 60; exec "$0" "$@"', process.execPath, HERMES_BIN, 'tui', '--new'],
      tuiEnv(root),
    );
    await tmux.waitFor(t, (s) => s.includes('Type a message'));
    // tmux drops the lines below the cursor when a pane gets shorter: the frame loses its last ones
    tmux.run('resize-window', '-t', t, '-y', '12');
    await tmux.waitFor(t, (s) => connected(s) && s.includes('Type a message'));
    const all = tmux.capture(t, true);
    const lines = all.split('\n');
    const numbers = lines.filter((l) => /^\d+$/.test(l.trim())).map(Number);
    expect(numbers, all).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    // the TUI comes right below them (its blank first line between)
    expect(
      lines.findIndex((l) => l.includes('╭')),
      all,
    ).toBe(lines.indexOf('60') + 2);
  });

  it('keys typed at a person’s pace across the hand-off from the first frame to the app arrive in order', async () => {
    const { tmux, root } = fx;
    const t = tmux.open('human', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    const text = 'the quick brown fox jumps';
    await typeSlowly(tmux, t, text); // ~1.4 s: spans the first frame, Ink's load and the attach
    await tmux.waitFor(t, (s) => connected(s) && composerLine(s) === text);
  });

  it('with no daemon running, a prompt typed at once is sent when the daemon is up', async () => {
    const { tmux, root, model } = fx;
    const stopped = await runHermes(root, ['gateway', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    model.push({ text: 'Cold reply.' });
    const n = model.requests.length;
    const t = tmux.open('cold', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    // the composer is up and shows what is typed before the daemon answers
    tmux.type(t, 'typed while cold');
    await tmux.waitFor(t, (s) => composerLine(s) === 'typed while cold' && !connected(s), {
      timeoutMs: 10_000,
      what: 'the draft on screen before the daemon is up',
    });
    tmux.keys(t, 'Enter');
    await tmux.waitFor(t, 'Cold reply.', { timeoutMs: 30_000 });
    const sent = model.requests.slice(n).map((r) => JSON.stringify(r.body.messages ?? []));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('typed while cold');
  });
});
