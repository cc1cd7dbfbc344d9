/**
 * An approval card never answered by keys meant for the composer, in a real terminal (tmux,
 * `CI=false`, `npm run build` first): a delayed `rm -rf <folder>` makes a card appear while text
 * is typed at human speed (30–80 ms a key) across its arrival, once for each answer key
 * (`o s a d 1 2 3 4`) in the text. Nothing is answered — the folder stays, config.yaml gets no
 * allowlist, the daemon still holds the request and the model got no tool result — and the
 * composer holds every character typed, in order. Then, once typing has stopped and the card is
 * armed: a bare Enter does nothing, `a` only selects always, and Enter confirms it. One TUI is
 * reused across the cases; every wait polls the pane with a deadline.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const COLS = 160;
/** Keys are typed 30–80 ms apart (random), as a person types. */
const KEY_GAP_MS = [30, 80] as const;
/** Type at least this long, and until the card has been up this long. */
const TYPE_MS = 3_000;
const AFTER_CARD_MS = 1_500;
const ARMED = 'to answer. Esc denies.';

/** The composer's text: the last `│ › …│` row on screen (the draft fits one row at this width). */
function composerText(screen: string): string | null {
  const rows = screen.split('\n').filter((l) => /^│ › /.test(l));
  const last = rows[rows.length - 1];
  return last ? last.replace(/^│ › /, '').replace(/\s*│\s*$/, '') : null;
}

/** A typed text for case `k`: words with `k` in many places (and the other answer letters). */
const sentence = (k: string): string => `make a note ${k} of the plan${k} and go ${k}${k} so do it `;

describeTmux('hermes tui: an approval card is never answered by typing meant for the composer', () => {
  const fx = useTuiTmux('hermes-approval-typing', { cols: COLS, rows: 40 });
  const { tmux } = fx;
  const w = 'hermes:main';
  let sessionId = '';

  const config = (): string => readFileSync(join(fx.root, 'config.yaml'), 'utf8');
  /** The approvals the daemon still waits for in the TUI's session. */
  const openApprovals = async (): Promise<string[]> => {
    const probe = await connect({ root: fx.root }, { name: 'probe', capabilities: { approvals: false } });
    try {
      const r = await probe.request('session.attach', { session_id: sessionId, history_limit: 1 });
      await probe.request('session.detach', { session_id: sessionId });
      return r.open_requests.filter((q) => q.kind === 'approval').map((q) => String(q.params.command));
    } finally {
      await probe.close();
    }
  };
  const victims = mkdtempSync(join(tmpdir(), 'hermes-victims-'));
  afterAll(() => rmSync(victims, { recursive: true, force: true }));
  /** A folder that `rm -rf` would delete, with a file in it. */
  const victim = (name: string): string => {
    const dir = join(victims, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'keep.txt'), 'still here\n');
    return dir;
  };

  it('opens a TUI on a new session', async () => {
    const env = { HERMES_HOME: fx.root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    tmux.open('main', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    tmux.type(w, '/title approval-typing', 'Enter');
    await tmux.waitFor(w, '“approval-typing”');
    const probe = await connect({ root: fx.root }, { name: 'probe', capabilities: { approvals: false } });
    const { sessions } = await probe.request('session.list', { limit: 10 });
    await probe.close();
    sessionId = sessions.find((s) => s.title === 'approval-typing')!.id;
    expect(sessionId).toBeTruthy();
  });

  it.each(['o', 's', 'a', 'd', '1', '2', '3', '4'])(
    'typing with "%s" in it across the card’s arrival answers nothing and stays in the composer',
    async (k) => {
      const dir = victim(`typed-${k}`);
      const command = `rm -rf ${dir}`;
      // the tool call streams slowly: the card comes up about a second after the prompt is sent
      fx.model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command } }], chunkSize: 6, delayMs: 90 },
        { text: `DENIED-${k}` },
      );
      const before = fx.model.requests.length;
      tmux.type(w, `clean up ${k}`, 'Enter');
      await fx.model.waitForRequests(before + 1, 10_000);

      let typed = '';
      const started = Date.now();
      let cardAt = 0;
      let typedWhenCard = 0;
      const text = sentence(k).repeat(4);
      for (const ch of text) {
        const gap = KEY_GAP_MS[0] + Math.random() * (KEY_GAP_MS[1] - KEY_GAP_MS[0]);
        const t0 = Date.now();
        tmux.type(w, ch);
        typed += ch;
        if (!cardAt && tmux.capture(w).includes('Approval needed')) {
          cardAt = Date.now();
          typedWhenCard = typed.length;
        }
        const now = Date.now();
        if (cardAt && now - started >= TYPE_MS && now - cardAt >= AFTER_CARD_MS) break;
        await sleep(Math.max(0, gap - (Date.now() - t0)));
      }
      expect(cardAt, 'the card came up while typing').toBeGreaterThan(0);
      expect(typedWhenCard, 'keys were typed before the card came up').toBeGreaterThan(3);
      expect(Date.now() - cardAt, 'typing went on past the arming interval').toBeGreaterThanOrEqual(
        AFTER_CARD_MS,
      );
      expect(typed.length).toBeLessThan(COLS - 20); // one composer row

      // every key went to the composer, in order; the card waits, armed once typing stopped
      const screen = await tmux.waitFor(w, (s) => s.includes(ARMED) && composerText(s) === typed.trimEnd(), {
        what: `the composer to hold "${typed}" and the card to arm`,
        timeoutMs: 10_000,
      });
      expect(screen).toContain(`Your draft is kept in the composer (${typed.length} chars).`);
      expect(screen.slice(screen.lastIndexOf(`› clean up ${k}`))).not.toMatch(/✓ Approved|✗ Denied/);
      expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
      expect(config()).not.toContain('command_allowlist');
      expect(await openApprovals()).toEqual([command]);
      expect(fx.model.requests.length, 'no tool result reached the model').toBe(before + 1);

      // clean up: Esc denies; the composer keeps the draft until Ctrl+C clears it
      tmux.keys(w, 'Escape');
      const done = await tmux.waitFor(w, (s) => s.includes(`DENIED-${k}`) && s.includes('◇ idle'));
      expect(composerText(done)).toBe(typed.trimEnd());
      expect(existsSync(dir)).toBe(true);
      tmux.keys(w, 'C-c');
      await tmux.waitFor(w, 'Type a message');
    },
  );

  it('a second tap meant for the first card never answers the card that replaces it', async () => {
    const first = victim('first');
    const second = victim('second');
    fx.model.push(
      {
        toolCalls: [
          { name: 'terminal', arguments: { command: `rm -rf ${first}` } },
          { name: 'terminal', arguments: { command: `rm -rf ${second}` } },
        ],
      },
      { text: 'TWO-DONE' },
    );
    tmux.type(w, 'remove both folders', 'Enter');
    await tmux.waitFor(
      w,
      (s) => s.includes(`rm -rf ${first}`) && s.includes(`Press o, s, a, d or 1-4 ${ARMED}`),
    );
    tmux.keys(w, 'o'); // approves the first once it has stood 350 ms
    await tmux.waitFor(w, (s) => s.includes('Approval needed') && s.includes(`rm -rf ${second}`), {
      what: 'the second card',
      timeoutMs: 10_000,
    });
    tmux.keys(w, 'o'); // the user's second tap, a moment late: the new card is not armed yet
    await tmux.waitFor(w, (s) => s.includes(ARMED) && composerText(s) === 'o', {
      what: 'the tap to land in the composer and the card to arm',
      timeoutMs: 10_000,
    });
    expect(existsSync(first)).toBe(false); // the first was approved
    expect(existsSync(join(second, 'keep.txt'))).toBe(true);
    expect(await openApprovals()).toEqual([`rm -rf ${second}`]);

    tmux.keys(w, 'Escape'); // deny the second
    await tmux.waitFor(w, (s) => s.includes('TWO-DONE') && s.includes('◇ idle'), { scrollback: true });
    expect(existsSync(join(second, 'keep.txt'))).toBe(true);
    tmux.keys(w, 'C-c');
    await tmux.waitFor(w, 'Type a message');
  });

  it('once the card is armed: a bare Enter does nothing, a selects always, only Enter confirms it', async () => {
    const dir = victim('always');
    const command = `rm -rf ${dir}`;
    fx.model.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'ALWAYS-DONE' });
    tmux.type(w, 'remove the last folder', 'Enter');
    await tmux.waitFor(
      w,
      (s) => s.includes('Approval needed') && s.includes(`Press o, s, a, d or 1-4 ${ARMED}`),
    );

    tmux.keys(w, 'Enter'); // like any key for the composer, it holds the card unarmed for a moment
    await tmux.waitFor(w, (s) => s.includes('Enter does not answer') && s.includes(ARMED));
    expect(await openApprovals()).toEqual([command]);

    tmux.keys(w, 'a');
    const selected = await tmux.waitFor(w, 'Press Enter to confirm always. Esc cancels.');
    // the card names the entries always stores (approval-scope.ts) and says only those are allowed
    expect(selected).toContain('Always allows only what is named above, from now on');
    expect(selected).toContain(`always = allow only`);
    expect(await openApprovals()).toEqual([command]);
    expect(existsSync(dir)).toBe(true);
    expect(config()).not.toContain('command_allowlist');

    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, (s) => s.includes('ALWAYS-DONE') && s.includes('◇ idle'), { scrollback: true });
    expect(existsSync(dir)).toBe(false);
    expect(config()).toContain('command_allowlist');
    expect(await openApprovals()).toEqual([]);
  });
});
