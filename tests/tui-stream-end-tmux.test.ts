/**
 * The end of a reply shows at once, whatever the redraw throttle (real terminal: tmux; run `npm
 * run build` first). The TUI runs with a 200 ms throttle (`HERMES_TUI_THROTTLE_MS`), so a stream
 * redraws five times a second; an observer client attached to the same session records when the
 * daemon sent the reply's last delta (the daemon writes one event to every connection in the same
 * turn of its event loop). The pane is polled as fast as tmux answers.
 *
 * Capture latency, honestly: the word reached the screen after the snapshot of the last capture
 * that lacked it, whose call began at `before`; so `before − sent` is a lower bound of the delay
 * and `after − sent` (the end of the capture that showed it) an upper bound. The lower bound must
 * be within one frame (16 ms) in the median of the runs; both bounds are printed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { tuiEnv, useTuiTmux } from './support/tui-tmux-fixture.js';

const run = promisify(execFile);
const RUNS = 5;

/** A reply of `words` words ending in `last`, paragraphs every 40 words. */
function reply(words: number, last: string): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(i % 40 === 39 ? 'word\n\n' : 'word');
  return `${out.join(' ')} ${last}`;
}

describeTmux('hermes tui in tmux: the end of a throttled stream', () => {
  const fx = useTuiTmux('hermes-stream-end', { cols: 100, rows: 30 });

  it('the last word is on screen within one frame of the daemon sending it', async () => {
    const { tmux, root, model } = fx;
    const env = tuiEnv(root, { HERMES_TUI_THROTTLE_MS: '200' });
    const t = tmux.open('end', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    model.push({ text: 'Warm.' });
    await tmux.waitFor(t, (s) => s.includes('● connected'));
    tmux.type(t, 'warm up', 'Enter');
    await tmux.waitFor(t, (s) => s.includes('Warm.') && s.includes('◇ idle'));

    const observer = await connect({ root }, { name: 'observer' });
    try {
      const list = (await observer.requestRaw('session.list', { limit: 1 })) as {
        sessions: Array<{ id: string }>;
      };
      await observer.attach(list.sessions[0]!.id);
      // when the daemon sent the reply's last delta (known once its message.complete came)
      let lastDelta = 0;
      let sent = 0;
      observer.onEvent((e) => {
        if (e.type === 'message.delta') lastDelta = performance.now();
        if (e.type === 'message.complete' && !sent) sent = lastDelta;
      });
      const sentAt = async (): Promise<number> => {
        for (const deadline = performance.now() + 5_000; !sent && performance.now() < deadline;)
          await new Promise((r) => setTimeout(r, 1));
        if (!sent) throw new Error('the observer saw no message.complete');
        return sent;
      };
      const capture = async (): Promise<string> =>
        (await run('tmux', ['-L', tmux.socket, 'capture-pane', '-p', '-t', t], { encoding: 'utf8' })).stdout;

      const low: number[] = [];
      const high: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const last = `LASTWORD${i}Z`;
        sent = 0;
        lastDelta = 0;
        // ~1.5 s of stream, a delta every ~20 ms: ten deltas per 200 ms redraw
        model.push({ text: reply(300, last), chunkSize: 24, delayMs: 20 });
        tmux.type(t, `stream ${i}`, 'Enter');
        let before = 0;
        for (const deadline = performance.now() + 30_000; ;) {
          const start = performance.now();
          const screen = await capture();
          if (screen.includes(last)) {
            const after = performance.now();
            const at = await sentAt();
            low.push(before - at);
            high.push(after - at);
            break;
          }
          if (start > deadline) throw new Error(`no ${last} on screen:\n${screen}`);
          before = start;
        }
        await tmux.waitFor(t, (s) => s.includes('◇ idle'));
      }
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      console.log(
        `last word on screen after the daemon sent it: between ${low.map((x) => x.toFixed(1)).join(', ')} ms and ${high.map((x) => x.toFixed(1)).join(', ')} ms`,
      );
      expect(median(low)).toBeLessThanOrEqual(16);
    } finally {
      await observer.close();
    }
  });
});
