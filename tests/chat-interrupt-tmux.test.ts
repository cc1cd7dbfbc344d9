/**
 * Ctrl+C in `hermes chat`'s line chat on a real terminal (tmux; `npm run build` first): readline
 * reads the key itself there, so the chat must hand it on — during a reply it interrupts the turn
 * and the chat goes on; at the prompt it leaves the chat. Every wait polls the pane with a deadline.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

describeTmux('hermes chat: Ctrl+C on a terminal', () => {
  const fx = useTuiTmux('hermes-chat-interrupt', { cols: 120, rows: 40 });
  const { tmux } = fx;

  it('interrupts a streaming reply, keeps the chat, and leaves it at the prompt', async () => {
    const w = tmux.open('chat', [process.execPath, HERMES_BIN, 'chat'], {
      HERMES_HOME: fx.root,
      TERM: 'xterm-256color',
      NO_COLOR: '1',
    });
    await tmux.waitFor(w, 'Ctrl+D or /quit exits');
    // about twenty seconds of reply: it cannot end by itself within the waits below
    fx.model.push({ text: `STREAM-START ${'word '.repeat(400)}STREAM-END`, chunkSize: 10, delayMs: 50 });
    tmux.type(w, 'talk for a while', 'Enter');
    await tmux.waitFor(w, 'STREAM-START');
    tmux.keys(w, 'C-c');
    const cut = await tmux.waitFor(
      w,
      (s) => s.includes('[interrupted]') && /\n> *$/.test(s.trimEnd() + ' '),
      {
        what: 'the turn interrupted and the prompt back',
      },
    );
    expect(cut).not.toContain('STREAM-END');

    fx.model.push({ text: 'SECOND-REPLY' });
    tmux.type(w, 'still there?', 'Enter');
    await tmux.waitFor(w, 'SECOND-REPLY');
    expect(tmux.dead(w)).toBe(false);

    tmux.keys(w, 'C-c'); // at the prompt: leaves, as Ctrl+D does
    await tmux.waitFor(w, () => tmux.dead(w), { what: 'the chat to exit' });
  });
});
