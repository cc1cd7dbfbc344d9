/**
 * Replies as markdown in a real terminal (tmux; run `npm run build` first), read off the screen as
 * a person sees them: a reply that finished before the markdown libraries loaded is on screen at
 * once and printed once, rendered, when they are; a table wider than the pane fits it with its
 * borders whole; long list items wrap under their text; a task list shows one box per item; a
 * loose list typed `1.` on every item is numbered 1, 2, 3; a reference link defined at the reply's
 * end is a link; at 30 columns the status bar stays on the line the first frame put it.
 */
import { afterAll, expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux, Tmux } from './support/tmux.js';
import { tuiEnv, useTuiTmux } from './support/tui-tmux-fixture.js';

const COLS = 60;
const count = (hay: string, needle: string): number => hay.split(needle).length - 1;

const REPLY = [
  'Intro paragraph MD-START.',
  '1. first step',
  '1. second step',
  '1. third step',
  '- [ ] open task\n- [x] done task',
  `- A list item with a long text that goes on and on past the width of the pane LI-END`,
  '| name | description | notes |\n|---|---|---|\n' +
    `| alpha | ${'a long description of the thing '.repeat(3).trim()} | short |\n| beta | brief | TB-END |`,
  'See [the docs][d] for more REF-END.',
  '[d]: https://example.com/docs',
].join('\n\n');

describeTmux('hermes tui in tmux: replies rendered as markdown', () => {
  const fx = useTuiTmux('hermes-markdown', { cols: COLS, rows: 40 });
  let narrow: Tmux | null = null;
  afterAll(() => narrow?.kill());

  it('shows a reply that finished before markdown loaded at once, then prints it rendered, once', async () => {
    const { tmux, root, model } = fx;
    // the libraries load 3 s after the reply starts: it is long finished by then
    const env = tuiEnv(root, { HERMES_TUI_MARKDOWN_DELAY_MS: '3000' });
    const w = tmux.open('early', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('● connected') && s.includes('Type a message'));
    model.push({ text: 'The **bold answer** EARLY-END' });
    tmux.type(w, 'a quick one', 'Enter');
    // finished (idle) and shown, as typed: the libraries are not there yet
    const early = await tmux.waitFor(w, (s) => s.includes('◇ idle') && s.includes('EARLY-END'), {
      what: 'the reply on screen before markdown loaded',
    });
    expect(early).toContain('The **bold answer** EARLY-END');
    // once they are: rendered, printed once into the scrollback, nothing left of the plain copy
    const all = await tmux.waitFor(w, (s) => s.includes('The bold answer EARLY-END'), {
      scrollback: true,
      what: 'the reply rendered',
    });
    expect(count(all, 'EARLY-END'), all).toBe(1);
    expect(all).not.toContain('**bold');
    expect(all.indexOf('› a quick one')).toBeLessThan(all.indexOf('EARLY-END'));
  }, 60_000);

  it('fits tables and list items to the pane, one box per task, numbers and reference links by markdown', async () => {
    const { tmux, root, model } = fx;
    const w = tmux.open('md', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    await tmux.waitFor(w, (s) => s.includes('● connected') && s.includes('Type a message'));
    // streamed in small chunks: the blocks are printed one by one, as they finish
    model.push({ text: REPLY, chunkSize: 10, delayMs: 10 });
    tmux.type(w, 'some markdown please', 'Enter');
    const all = await tmux.waitFor(w, (s) => s.includes('REF-END') && s.includes('◇ idle'), {
      scrollback: true,
      timeoutMs: 30_000,
    });
    const lines = all.split('\n');
    // nothing wrapped by the terminal (capture-pane -J joins such lines back into one)
    for (const l of lines) expect([...l.trimEnd()].length, l).toBeLessThanOrEqual(COLS);
    // the table: whole borders, the long cell wrapped inside its column
    const top = lines.findIndex((l) => l.startsWith('┌'));
    const bottom = lines.findIndex((l) => l.startsWith('└'));
    expect(top, all).toBeGreaterThan(0);
    expect(lines[top]).toMatch(/^┌[─┬]+┐$/);
    expect(lines[bottom]).toMatch(/^└[─┴]+┘$/);
    for (const l of lines.slice(top + 1, bottom)) expect(l).toMatch(/^[│├].*[│┤]$/);
    expect(lines.slice(top, bottom).some((l) => l.includes('TB-END'))).toBe(true);
    // the long list item: its wrapped lines under its text
    const item = lines.findIndex((l) => l.startsWith('  * A list item'));
    expect(item, all).toBeGreaterThan(0);
    expect(lines[item + 1]).toMatch(/^ {4}\S/);
    expect(lines.slice(item, item + 3).join(' ')).toContain('LI-END');
    // one box per task item
    expect(all).toContain('  * [ ] open task');
    expect(all).toContain('  * [x] done task');
    expect(all).not.toMatch(/\[.\]\s+\[.\]/);
    // the loose list typed `1.` three times
    expect(all).toContain('  1. first step');
    expect(all).toContain('  2. second step');
    expect(all).toContain('  3. third step');
    // the reference link, defined at the end, resolved where it is used
    expect(all).toContain('See the docs (https://example.com/docs) for more REF-END.');
    expect(all).not.toContain('[the docs]');
    expect(count(all, 'MD-START')).toBe(1);
  }, 60_000);

  it('keeps the status bar on the line the first frame drew it on, at 30 columns', async () => {
    const { root } = fx;
    narrow = new Tmux(`hermes-markdown-narrow-${process.pid}-${Date.now().toString(36)}`, {
      cols: 30,
      rows: 12,
    });
    const w = narrow.open('narrow', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    const screen = await narrow.waitFor(w, (s) => s.includes('● connected') && s.includes('◇ idle'));
    const lines = screen.split('\n');
    const boxTop = lines.findIndex((l) => l.startsWith('╭'));
    // the first frame's shape: box top, the composer line with the placeholder cut to one line,
    // box bottom, status line
    expect(lines[boxTop + 1], screen).toMatch(/^│ › .*│$/);
    expect(lines[boxTop + 2], screen).toMatch(/^╰─+╯$/);
    expect(lines[boxTop + 3], screen).toContain('◇ idle');
  }, 60_000);
});
