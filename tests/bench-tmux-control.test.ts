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
});
