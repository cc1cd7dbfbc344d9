/**
 * The TUI owns its daemon's life, end to end in real terminals (tmux, `CI=false`) against the
 * real daemon and the scripted model server: two TUIs streaming a reply when the daemon is killed
 * (`kill -9`) start exactly one new daemon, re-attach and show the turn interrupted with its kept
 * text; after `hermes gateway stop` both show the stopped notice and start nothing, a prompt
 * typed meanwhile is kept, and `r` on an empty composer starts the daemon again. Every wait polls
 * with a deadline.
 */
import { expect, it } from 'vitest';
import { aliveDiscovery, daemonPids, waitFor } from './support/gateway-process.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux, tuiEnv } from './support/tui-tmux-fixture.js';

let env: Record<string, string>;

/** `hermes tui ARGS` as a pane command. */
const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];
/** A reply long enough to be cut mid-stream: `TAG-START w1 … wN TAG-END`. */
const longReply = (tag: string, words: number): string =>
  [`${tag}-START`, ...Array.from({ length: words }, (_, i) => `w${i + 1}`), `${tag}-END`].join(' ');
const count = (hay: string, needle: string): number => hay.split(needle).length - 1;
/** The status bar (last non-empty line). */
const statusBar = (screen: string): string =>
  screen
    .split('\n')
    .filter((l) => l.trim())
    .pop() ?? '';

describeTmux('the TUI owns its daemon’s life (tmux)', () => {
  const fx = useTuiTmux('hermes-daemon-life', { cols: 120, rows: 48 }, (root) => {
    env = tuiEnv(root);
  });
  const { tmux } = fx;
  let p1 = '';
  let p2 = '';

  it('kill -9 mid-reply: within 3 s both TUIs have one new daemon, the turn interrupted with its text, and prompts work', async () => {
    p1 = tmux.open('life', tui('--new'), env);
    await tmux.waitFor(p1, 'Type a message');
    tmux.type(p1, '/title crash-test', 'Enter');
    await tmux.waitFor(p1, '“crash-test”');
    p2 = tmux.split(p1, tui('--session', 'crash-test'), env);
    for (const p of [p1, p2]) await tmux.waitFor(p, '2 clients');

    // ~15 s of streaming; short enough to stay inside a pane (nothing scrolls out mid-stream)
    fx.model.push({ text: longReply('CRASH', 150), chunkSize: 4, delayMs: 80 });
    tmux.type(p1, 'stream then crash', 'Enter');
    // w30 on screen: more than 250 ms of text streamed, so the daemon has stored part of it
    for (const p of [p1, p2]) {
      await tmux.waitFor(p, (s) => /\bw30\b/.test(s) && statusBar(s).includes('responding'));
    }
    const old = aliveDiscovery(fx.root)!.pid;
    process.kill(old, 'SIGKILL');
    const killedAt = Date.now();

    for (const p of [p1, p2]) {
      const left = Math.max(1, 3_000 - (Date.now() - killedAt));
      await tmux.waitFor(
        p,
        (s) => s.includes('Daemon restarted; turn interrupted at') && statusBar(s).includes('● connected'),
        { timeoutMs: left, what: `${p} to show the daemon back within 3 s of the kill` },
      );
    }
    // a racing starter's child finds the new daemon's pid lock held and exits: one daemon stays
    const pids = await waitFor(() => {
      const now = daemonPids(fx.root);
      return now.length === 1 ? now : undefined;
    }, 'one daemon process (the losing starters’ children exit)');
    expect(pids[0]).not.toBe(old);
    expect(aliveDiscovery(fx.root)?.pid).toBe(pids[0]);

    for (const p of [p1, p2]) {
      const s = await tmux.waitFor(p, (x) => x.includes('(interrupted)') && statusBar(x).includes('◇ idle'), {
        scrollback: true,
      });
      expect(statusBar(s)).not.toContain('responding');
      expect(count(s, 'CRASH-START')).toBe(1); // the kept text once, not twice
      expect(s.replace(/\s+/g, ' ')).toContain('CRASH-START w1 w2 w3');
      expect(s).not.toContain('CRASH-END');
    }

    fx.model.push({ text: 'AFTER-CRASH-ONE' });
    tmux.type(p1, 'are you back?', 'Enter');
    for (const p of [p1, p2]) {
      await tmux.waitFor(p, (s) => s.includes('AFTER-CRASH-ONE') && statusBar(s).includes('◇ idle'));
    }
    fx.model.push({ text: 'AFTER-CRASH-TWO' });
    tmux.type(p2, 'and from here?', 'Enter');
    for (const p of [p1, p2]) {
      await tmux.waitFor(p, (s) => s.includes('AFTER-CRASH-TWO') && statusBar(s).includes('◇ idle'));
    }
    expect(daemonPids(fx.root)).toEqual(pids);
  });

  it('`hermes gateway stop`: both show the stopped notice and start nothing; r starts it, a prompt typed meanwhile is sent', async () => {
    const stop = await runHermes(fx.root, ['gateway', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    for (const p of [p1, p2]) {
      await tmux.waitFor(
        p,
        (s) => s.includes('Daemon stopped — press r') && statusBar(s).includes('○ daemon stopped'),
      );
    }
    // a deliberate stop is never undone by the TUIs: no daemon appears while they keep looking
    const watchUntil = Date.now() + 3_000;
    while (Date.now() < watchUntil) {
      expect(daemonPids(fx.root)).toEqual([]);
      await new Promise((r) => setTimeout(r, 100));
    }

    // typed while stopped (not starting with r): kept, and sent once attached again
    fx.model.push({ text: 'AFTER-STOP reply' });
    tmux.type(p2, 'kept while stopped', 'Enter');
    await tmux.waitFor(p2, 'the message will be sent after reconnecting');

    tmux.keys(p1, 'r');
    for (const p of [p1, p2]) {
      await tmux.waitFor(p, (s) => s.includes('running again') && statusBar(s).includes('● connected'), {
        timeoutMs: 25_000,
      });
    }
    await waitFor(() => daemonPids(fx.root).length === 1, 'one daemon after r');
    for (const p of [p1, p2]) {
      const s = await tmux.waitFor(
        p,
        (x) => x.includes('AFTER-STOP reply') && statusBar(x).includes('◇ idle'),
        {
          scrollback: true,
        },
      );
      expect(count(s, '› kept while stopped')).toBe(1);
    }
    // the r went to the daemon, not into the composer
    expect(tmux.capture(p1)).not.toMatch(/│ r\s/);

    fx.model.push({ text: 'SESSION-WORKS' });
    tmux.type(p1, 'still here?', 'Enter');
    for (const p of [p1, p2]) {
      await tmux.waitFor(p, (s) => s.includes('SESSION-WORKS') && statusBar(s).includes('◇ idle'));
    }
    expect(daemonPids(fx.root)).toHaveLength(1);
  });
});
