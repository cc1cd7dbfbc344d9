/**
 * A long reply in a real terminal (tmux; run `npm run build` first): its finished blocks are
 * printed into the scrollback while it still streams, and at the end every block is in the
 * scrollback exactly once, in order — in the TUI that sent the prompt and in a second one that
 * attached in the middle of the stream. Fenced code with blank lines inside stays one block. A
 * model call retried after half the reply streamed (the connection dropped) does not print its
 * first blocks again. Keys typed in one burst while a reply streams (Ctrl+U, text, Enter, more
 * text, Backspace) are each handled: the Enter sends, what follows stays in the composer.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { tuiEnv, useTuiTmux } from './support/tui-tmux-fixture.js';

/** Twelve blocks: paragraphs, a list, fenced code with a blank line inside; each with a marker. */
const BLOCKS = Array.from({ length: 12 }, (_, i) => {
  if (i === 4) return '```sh\necho CODE-START-M4\n\necho CODE-END-M4\n```';
  if (i === 7) return '- item one M7\n- item two';
  return `Paragraph M${i} ${'with some words to make it long enough to wrap '.repeat(3).trim()}.`;
});
const REPLY = BLOCKS.join('\n\n');
const MARKERS = BLOCKS.map((_, i) => (i === 4 ? 'CODE-END-M4' : i === 7 ? 'item one M7' : `M${i} `));

/** How often `needle` occurs in `text`. */
const count = (text: string, needle: string): number => text.split(needle).length - 1;

describeTmux('hermes tui in tmux: a long reply printed block by block', () => {
  const fx = useTuiTmux('hermes-stream-parts', { cols: 100, rows: 24 });

  it('prints finished blocks while streaming, each exactly once, also in a TUI attached mid-stream', async () => {
    const { tmux, root, model } = fx;
    const env = tuiEnv(root);
    const a = tmux.open('a', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(a, (s) => s.includes('● connected') && s.includes('Type a message'));
    // ~3 s of stream
    model.push({ text: REPLY, chunkSize: 12, delayMs: 25 });
    tmux.type(a, 'a long answer please', 'Enter');
    // the first blocks are in the scrollback while the reply is still streaming
    await tmux.waitFor(a, (s) => s.includes('M5 '), { scrollback: true, timeoutMs: 20_000 });
    const mid = tmux.capture(a, true);
    expect(mid).not.toContain('M11 ');
    for (const m of MARKERS.slice(0, 4)) expect(count(mid, m)).toBe(1);
    // a second TUI attaches to the same session now (continue: the newest session)
    const b = tmux.open('b', [process.execPath, HERMES_BIN, 'tui', '--continue'], env);
    for (const t of [a, b]) {
      await tmux.waitFor(t, (s) => s.includes('M11 ') && s.includes('◇ idle'), {
        scrollback: true,
        timeoutMs: 30_000,
      });
    }
    for (const t of [a, b]) {
      const all = tmux.capture(t, true);
      const at = MARKERS.map((m) => {
        expect(count(all, m), `${t}: ${m} once`).toBe(1);
        return all.indexOf(m);
      });
      expect(at, `${t}: blocks in order`).toEqual([...at].sort((x, y) => x - y));
      // the code block is whole: its blank line did not split it
      expect(all).toContain('CODE-START-M4');
    }
  }, 90_000);

  it('prints each block once when the model call is retried after half the reply streamed', async () => {
    const { tmux, root, model } = fx;
    const env = tuiEnv(root);
    const half = BLOCKS.slice(0, 7).join('\n\n') + '\n\nParagraph M7';
    // the connection drops after half the reply; the retry streams all of it again
    model.push({ disconnect: true, text: half, chunkSize: 12 }, { text: REPLY, chunkSize: 12, delayMs: 10 });
    const c = tmux.open('c', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(c, (s) => s.includes('● connected') && s.includes('Type a message'));
    tmux.type(c, 'a retried answer please', 'Enter');
    await tmux.waitFor(c, (s) => s.includes('M11 ') && s.includes('◇ idle'), {
      scrollback: true,
      timeoutMs: 30_000,
    });
    const all = tmux.capture(c, true);
    const at = MARKERS.map((m) => {
      expect(count(all, m), `${m} once`).toBe(1);
      return all.indexOf(m);
    });
    expect(at, 'blocks in order').toEqual([...at].sort((x, y) => x - y));
  }, 60_000);

  it('handles a burst of keys typed while a reply streams: the Enter in it sends', async () => {
    const { tmux, root, model } = fx;
    model.push({ text: REPLY, chunkSize: 8, delayMs: 25 }, { text: 'Answer to the burst.' });
    const d = tmux.open('d', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    await tmux.waitFor(d, (s) => s.includes('● connected') && s.includes('Type a message'));
    tmux.type(d, 'stream while I type', 'Enter');
    await tmux.waitFor(d, (s) => s.includes('M1 '), { scrollback: true, timeoutMs: 20_000 });
    // one send-keys: one write to the terminal, read in one chunk by a busy TUI
    tmux.run('send-keys', '-t', d, 'draft', 'C-u', 'burst prompt', 'Enter', 'nexx', 'BSpace', 't');
    await tmux.waitFor(d, (s) => s.includes('Answer to the burst.'), { scrollback: true, timeoutMs: 30_000 });
    const screen = tmux.capture(d);
    expect(screen).toMatch(/│ › next\s+│/);
    expect(tmux.capture(d, true)).toContain('› burst prompt');
  }, 60_000);
});
