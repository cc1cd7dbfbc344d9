/**
 * The benchmarks' tmux control-mode client (bench/tui/tmux-control.ts): captures read the same
 * screen `tmux capture-pane` prints, commands answer in order, a failing command rejects without
 * upsetting the next, and attaching does not resize the windows.
 */
import { afterAll, expect, it } from 'vitest';
import { TmuxControl } from '../bench/tui/tmux-control.js';
import { describeTmux, Tmux } from './support/tmux.js';

describeTmux('tmux control-mode client of the benchmarks', () => {
  const tmux = new Tmux(`hermes-ctl-${process.pid}`, { cols: 100, rows: 30 });
  let control: TmuxControl | undefined;
  afterAll(() => {
    control?.close();
    tmux.kill();
  });

  it('captures panes as capture-pane does, in order, and survives a failed command', async () => {
    const a = tmux.open('a', [
      'sh',
      '-c',
      'printf "first pane\\n%%begin 1 2 3\\n%%end 1 2 3\\n"; exec sleep 600',
    ]);
    const b = tmux.open('b', ['sh', '-c', 'echo "second pane ☃"; exec sleep 600']);
    await tmux.waitFor(a, '%end 1 2 3');
    await tmux.waitFor(b, 'second pane');
    control = new TmuxControl(tmux.socket, 'hermes');
    const [sa, sb] = await Promise.all([control.capture(a), control.capture(b)]);
    expect(sa).toBe(tmux.run('capture-pane', '-p', '-t', a));
    expect(sb).toContain('second pane ☃');
    expect(sb).not.toContain('first pane');
    await expect(control.capture('hermes:nowhere')).rejects.toThrow(/tmux: .*nowhere/);
    expect(await control.capture(b)).toBe(sb);
    expect(tmux.run('display-message', '-p', '-t', a, '#{window_width}x#{window_height}').trim()).toBe(
      '100x30',
    );
  });

  it('with output: counts each pane’s output notifications and wakes a wait when the pane prints', async () => {
    const c = tmux.open('c', ['sh', '-c', 'while read x; do echo "printed $x"; done']);
    const d = tmux.open('d', ['sh', '-c', 'echo "%output %99 not a notification"; exec sleep 600']);
    await tmux.waitFor(d, 'not a notification');
    const watcher = new TmuxControl(tmux.socket, 'hermes', { output: true });
    const plain = new TmuxControl(tmux.socket, 'hermes');
    try {
      const pane = tmux.run('display-message', '-p', '-t', c, '#{pane_id}').trim();
      await plain.capture(c); // attached
      await watcher.capture(d); // attached; a captured "%output …" line is block content, not counted
      expect(watcher.outputCount('%99')).toBe(0);
      const before = watcher.outputCount(pane);
      const t0 = performance.now();
      const woke = watcher.nextOutput(pane, before, 20_000);
      tmux.type(c, 'one', 'Enter');
      await woke;
      expect(performance.now() - t0).toBeLessThan(10_000); // woken by the output, not the timeout
      expect(watcher.outputCount(pane)).toBeGreaterThan(before);
      await tmux.waitFor(c, 'printed one');
      // a pane that prints nothing (d printed its line before the watcher attached): the wait ends
      // at its timeout (c may still be reporting the output of "one" in later notifications)
      const quietPane = tmux.run('display-message', '-p', '-t', d, '#{pane_id}').trim();
      const quiet = performance.now();
      await watcher.nextOutput(quietPane, watcher.outputCount(quietPane), 100);
      expect(performance.now() - quiet).toBeGreaterThanOrEqual(95);
      // the client without output counts nothing
      expect(plain.outputCount(pane)).toBe(0);
    } finally {
      watcher.close();
      plain.close();
    }
  });
});
