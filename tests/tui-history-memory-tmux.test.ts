/**
 * `/history` pages back through a long session in a real tmux pane with the TUI's memory bounded
 * (run `npm run build` first): a session of 10,000 stored messages is attached, `/history 500`
 * is typed until the session's first message is printed, and the TUI process's highest resident
 * set (VmHWM) stays under the budget the whole time; what the pages printed is in the scrollback,
 * in order, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const MESSAGES = 10_000;
const SNAPSHOT = 200; // stored messages in an attach snapshot
const PAGE = 500;
/** Highest resident set of the TUI process allowed while paging, MB. */
const PEAK_BUDGET_MB = 150;

/** Writes a session of `MESSAGES` user/assistant messages into the default profile's state.db. */
function seed(root: string): void {
  const db = SessionDB.open(join(root, 'state.db'));
  try {
    const s = db.createSession({ source: 'tui', title: 'paged-10k', model: 'fake-model', cwd: root });
    for (let start = 0; start < MESSAGES; start += 500) {
      db.appendMessages(
        s.id,
        Array.from({ length: 500 }, (_, k) => {
          const i = start + k;
          return i % 2 === 0
            ? { role: 'user' as const, content: `question ${i}: how does part ${i} work?` }
            : {
                role: 'assistant' as const,
                content: `Answer ${i}: it reads, checks and writes. See \`part_${i}.ts\`.`,
              };
        }),
      );
    }
  } finally {
    db.close();
  }
}

/** VmHWM (highest resident set so far) of a process, MB. */
function peakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN) / 1024;
}

describeTmux('hermes tui: /history through 10,000 messages in bounded memory', () => {
  const fx = useTuiTmux('hermes-history-memory-test', { cols: 120, rows: 40 }, seed);

  it(
    'pages back to the first message with the TUI under its memory budget',
    { timeout: 240_000 },
    async () => {
      const { tmux, root } = fx;
      // every page stays in the scrollback (new windows take the limit set before they open)
      tmux.open('base', ['sleep', '600']);
      tmux.run('set-option', '-g', 'history-limit', '50000');
      const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
      const w = tmux.open('main', [process.execPath, HERMES_BIN, 'tui', '--session', 'paged-10k'], env);
      const idle = (s: string): boolean => s.includes('◇ idle') && s.includes('● connected');
      await tmux.waitFor(w, (s) => s.includes(`part_${MESSAGES - 1}.ts`) && idle(s), { timeoutMs: 30_000 });
      const pid = tmux.pid(w);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(HERMES_BIN); // the TUI, not a shell

      let oldest = MESSAGES - SNAPSHOT;
      while (oldest > 0) {
        const newest = oldest - 1; // the page's last message: an answer
        tmux.type(w, `/history ${PAGE}`, 'Enter');
        oldest = Math.max(0, oldest - PAGE);
        const footer = oldest === 0 ? 'the session starts here' : 'older ones: /history again';
        await tmux.waitFor(w, (s) => s.includes(`part_${newest}.ts`) && s.includes(footer) && idle(s), {
          what: `the page ending at message ${newest}`,
          timeoutMs: 60_000,
        });
        expect(peakMb(pid), `VmHWM after the page ending at ${newest}`).toBeLessThan(PEAK_BUDGET_MB);
      }

      // the last page: its header, the session's first message, … its last one, the footer
      const all = tmux.capture(w, true);
      const order = [
        `── ${MESSAGES - SNAPSHOT - 19 * PAGE} earlier messages of this session ──`,
        'question 0: how does part 0 work?',
        'part_1.ts',
        'question 298:',
        'part_299.ts',
        'the session starts here',
      ];
      const at = order.map((s) => all.indexOf(s));
      expect(
        at.every((i) => i >= 0),
        all.slice(-3000),
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(all.split('question 0: how does part 0 work?')).toHaveLength(2);
      // a full page keeps its header and first message
      expect(all).toMatch(/── 500 earlier messages of this session ──\s*› question 9300:/);
      expect(peakMb(pid)).toBeLessThan(PEAK_BUDGET_MB);
    },
  );
});
