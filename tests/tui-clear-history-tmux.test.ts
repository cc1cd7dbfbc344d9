/**
 * `/clear` then `/history` in a real tmux pane (run `npm run build` first), typed at a person's
 * pace: the cleared conversation is gone from the screen and from tmux's scrollback, and
 * `/history` prints it again between its header and footer.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux, typeSlowly } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

describeTmux('hermes tui: /clear and /history', () => {
  const fx = useTuiTmux('hermes-clear-history-test');

  it('/history after /clear prints the cleared messages again', async () => {
    const { tmux, model, root } = fx;
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('main', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    model.push({ text: 'CH-FIRST-ANSWER' });
    await typeSlowly(tmux, w, 'first question');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, (s) => s.includes('CH-FIRST-ANSWER') && s.includes('◇ idle'), {
      what: 'the reply',
    });

    await typeSlowly(tmux, w, '/clear');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, (s) => !s.includes('CH-FIRST-ANSWER') && !s.includes('first question'), {
      what: 'the screen cleared',
    });
    expect(tmux.capture(w, true)).not.toContain('CH-FIRST-ANSWER');

    await typeSlowly(tmux, w, '/history');
    tmux.keys(w, 'Enter');
    const screen = await tmux.waitFor(w, (s) => s.includes('end of earlier messages'), {
      what: 'the history printed',
    });
    expect(screen).toContain('earlier messages of this session');
    expect(screen).toContain('first question');
    expect(screen).toContain('CH-FIRST-ANSWER');
    expect(screen).not.toContain('No older messages');
  });
});
