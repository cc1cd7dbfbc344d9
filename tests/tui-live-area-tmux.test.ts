/**
 * The live part of the TUI (streaming reply, composer, status bar) in a real tmux pane (run
 * `npm run build` first): a reply taller than the pane with a message queued meanwhile leaves
 * every user line in the transcript and a full screen; `/clear` leaves the composer and the
 * status bar drawn at once, without waiting for a key.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const ROWS = 30;
const paragraphs = Array.from(
  { length: 20 },
  (_, i) => `Paragraph ${i + 2}: a long streamed answer to fill lines.`,
);
const longReply = ['Paragraph one.', ...paragraphs].join('\n\n');

describeTmux('hermes tui: the live part of the screen', () => {
  const fx = useTuiTmux('hermes-live-area-test', { cols: 100, rows: ROWS });

  it('a reply taller than the pane, a message queued meanwhile: both in the transcript, the screen full', async () => {
    const { tmux, model, root } = fx;
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('main', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));

    model.push({ text: longReply, chunkSize: 24, delayMs: 25 });
    model.push({ text: 'Reply to the queued message.' });
    tmux.type(w, 'a long answer please', 'Enter');
    await tmux.waitFor(w, 'Paragraph 3:', { what: 'the reply streaming' });
    tmux.type(w, 'queued after long', 'Enter');
    await tmux.waitFor(w, 'queued: queued after long', { what: 'the message queued' });

    const screen = await tmux.waitFor(
      w,
      (s) => s.includes('Reply to the queued message.') && s.includes('◇ idle'),
      { what: 'the queued turn done', timeoutMs: 30_000 },
    );
    // the screen is not left mostly blank: the transcript fills it down to the composer
    const lines = screen.split('\n');
    const status = lines.findIndex((l) => l.includes('◇ idle'));
    expect(status, screen).toBeGreaterThanOrEqual(ROWS - 2);
    expect(lines.filter((l) => l.trim()).length, screen).toBeGreaterThan(ROWS / 2);

    // every user line is in the transcript, in order, once
    const all = tmux.capture(w, true);
    const order = [
      '› a long answer please',
      'Paragraph 21:',
      '› queued after long',
      'Reply to the queued message.',
    ];
    const at = order.map((s) => all.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      all,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(all.split('› queued after long')).toHaveLength(2);
  });

  it('/clear leaves an empty transcript with the composer and the status bar drawn', async () => {
    const { tmux } = fx;
    const w = 'hermes:main';
    tmux.type(w, '/clear');
    await tmux.waitFor(w, '› /clear');
    tmux.keys(w, 'Enter');
    const screen = await tmux.waitFor(
      w,
      (s) =>
        !s.includes('Reply to the queued message.') && s.includes('Type a message') && s.includes('◇ idle'),
      { what: 'a cleared screen with the composer and status bar', timeoutMs: 5_000 },
    );
    expect(screen).not.toContain('Paragraph');
  });
});
