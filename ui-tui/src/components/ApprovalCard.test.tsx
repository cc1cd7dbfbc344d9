import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../testing/clock.js';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { ApprovalCard, type ApprovalChoice, wrapCommand } from './ApprovalCard.js';

afterEach(() => cleanup());

const params: { command: string; description: string; choices: string[]; allows?: string[] } = {
  command: 'rm -rf ./build',
  description: 'recursive delete',
  choices: ['once', 'session', 'always', 'deny'],
};

const ARMING = 'Arming… keys go to your message until you pause.';
const ARMED = 'o, s, a, d or 1-4 to answer. Esc denies.';

/** A card on a manual clock; `passed` collects the keys it hands on to the composer. */
async function card(over: Partial<typeof params> = {}, draftChars = 0, width = 100, earlyMs = 0) {
  const answers: ApprovalChoice[] = [];
  const passed: string[] = [];
  const clock = manualClock(undefined, { earlyMs });
  const r = await renderInk(
    <ApprovalCard
      params={{ ...params, ...over }}
      onAnswer={(c) => answers.push(c)}
      onPassKey={(input, key) => passed.push(key.return ? '⏎' : key.escape ? '⎋' : input)}
      draftChars={draftChars}
      clock={clock}
      width={width}
    />,
  );
  /** Moves the clock on and waits for the frame the timers lead to. */
  const advance = async (ms: number, frame?: string) => {
    clock.advance(ms);
    if (frame) await r.waitFor(frame);
  };
  /** Lets the card arm (600 ms shown, no key for 350 ms). */
  const arm = () => advance(600, ARMED);
  return { r, answers, passed, clock, advance, arm };
}

describe('ApprovalCard', () => {
  it('shows the command, why it is flagged and the four choices with their keys; arms after 600 ms', async () => {
    const { r, advance } = await card();
    const f = r.text();
    expect(f).toContain('⚠ Approval needed');
    expect(f).toContain('rm -rf ./build');
    expect(f).toContain('Why: recursive delete');
    expect(f).toContain('[o] once   [s] this session   [a] always   [d] deny');
    expect(f).toContain(ARMING);
    await advance(599);
    expect(r.text()).toContain(ARMING);
    await advance(1, ARMED);
  });

  it.each(['o', 's', 'a', 'd', '1', '2', '3', '4'])(
    'key %s before the card is armed goes to the composer and answers nothing',
    async (key) => {
      const { r, answers, passed, advance } = await card();
      await r.press('n', key, 'w');
      await advance(350);
      await r.press(key);
      expect(passed).toEqual(['n', key, 'w', key]);
      await advance(2_000, ARMED);
      expect(answers).toEqual([]);
    },
  );

  it('a key inside a typing burst goes to the composer even after 600 ms; the card arms after a pause', async () => {
    const { r, answers, passed, advance } = await card();
    for (const k of 'keep typing a') {
      await r.press(k);
      await advance(300); // < 350 ms between keys: one burst, past the 600 ms arming interval
    }
    await r.press('o');
    expect(passed.join('')).toBe('keep typing ao');
    expect(r.text()).toContain(ARMING);
    await advance(349);
    expect(r.text()).toContain(ARMING);
    await advance(1, ARMED);
    expect(answers).toEqual([]);
  });

  it.each([
    ['o', 'once'],
    ['d', 'deny'],
  ])(
    'key %s answers %s even when its timer fires a moment early and the card redraws after its time',
    async (key, choice) => {
      const { r, answers, advance, arm } = await card({}, 0, 100, 2);
      await arm();
      await r.press(key);
      await r.waitFor(choice === 'deny' ? 'Denying… (any key cancels)' : 'Approving once… (any key cancels)');
      // the timer runs 2 ms before the selection has stood 350 ms (nothing due yet); the redraw it
      // asks for comes after that time
      await advance(360);
      await waitFor(() => answers.length === 1, { timeoutMs: 2_000 });
      expect(answers).toEqual([choice]);
    },
  );

  it.each([
    ['o', 'once'],
    ['1', 'once'],
    ['d', 'deny'],
    ['4', 'deny'],
  ])('armed, key %s answers %s once it has stood 350 ms without another key', async (key, choice) => {
    const { r, answers, passed, advance, arm } = await card();
    await arm();
    await r.press(key);
    await r.waitFor(choice === 'deny' ? 'Denying… (any key cancels)' : 'Approving once… (any key cancels)');
    await advance(349);
    expect(answers).toEqual([]);
    await advance(1);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual([choice]);
    expect(passed).toEqual([]);
  });

  it('armed, a choice key followed within 350 ms by another key was typing: both go to the composer', async () => {
    const { r, answers, passed, advance } = await card();
    await advance(600, ARMED);
    await r.press('o');
    await advance(80);
    await r.press('f');
    expect(passed).toEqual(['o', 'f']);
    await r.waitFor(ARMING);
    await advance(5_000, ARMED);
    expect(answers).toEqual([]);
  });

  it.each([
    ['a', 'always', 'always', 'Always allows commands flagged like this one from now on'],
    ['3', 'always', 'always', '(config.yaml command_allowlist)'],
    ['s', 'session', 'this session', 'This session allows commands flagged like this one until the session'],
    ['2', 'session', 'this session', 'This session allows'],
  ])('armed, %s selects %s and only Enter confirms it', async (key, choice, label, what) => {
    const { r, answers, passed, advance, arm } = await card();
    await arm();
    await r.press(key);
    await r.waitFor(`${label} selected…`);
    await advance(350, `Press Enter to confirm ${label}. Esc cancels.`);
    expect(r.text()).toContain(what);
    await advance(60_000);
    expect(answers).toEqual([]); // a selection alone never answers
    await r.press(keys.enter);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual([choice]);
    expect(passed).toEqual([]);
  });

  it.each([
    ['s', 'this session', 'This session allows only what is named above, until the session ends.'],
    ['a', 'always', 'Always allows only what is named above, from now on (config.yaml command_allowlist).'],
  ])('with the entries named, %s says it allows only those', async (key, label, what) => {
    const entry = 'recursive-delete: rm -f -r [/p/build]';
    const { r, advance, arm } = await card({ allows: [entry] }, 0, 140);
    await arm();
    await r.press(key);
    await advance(350, `Press Enter to confirm ${label}. Esc cancels.`);
    expect(r.text()).toContain(what);
    expect(r.text()).not.toContain('flagged like this one');
  });

  it('Enter within 350 ms of selecting always does not confirm: the letter goes to the composer', async () => {
    const { r, answers, passed, advance, arm } = await card();
    await arm();
    await r.press('a');
    await advance(100);
    await r.press(keys.enter);
    expect(passed).toEqual(['a']);
    await advance(5_000, 'Enter does not answer');
    await r.press(keys.enter);
    expect(answers).toEqual([]);
  });

  it('Esc cancels a selection; Esc with nothing selected denies, and the card answers only once', async () => {
    const { r, answers, advance, arm } = await card();
    await arm();
    await r.press('a');
    await advance(350, 'Press Enter to confirm always');
    await r.press(keys.esc);
    await r.waitFor(ARMED);
    await r.press(keys.enter);
    expect(answers).toEqual([]);
    await r.press(keys.esc);
    await waitFor(() => answers.length === 1);
    await advance(1_000);
    await r.press('o');
    await advance(1_000);
    expect(answers).toEqual(['deny']);
  });

  it('never approves on a bare Enter, armed or not, and keeps the draft unsent', async () => {
    const { r, answers, passed, arm } = await card();
    await r.press(keys.enter);
    await arm();
    await r.press(keys.enter);
    await r.waitFor('Enter does not answer (and does not send your draft while the card is up).');
    expect(answers).toEqual([]);
    expect(passed).toEqual([]);
  });

  it('takes no answer from a chunk or a paste: "a⏎" typed as one chunk and a pasted "a" are text', async () => {
    const { r, answers, passed, advance, arm } = await card();
    await arm();
    await r.press('a\r');
    await advance(1_000, ARMED);
    await r.press(`${keys.pasteStart}a${keys.pasteEnd}`);
    await advance(1_000, ARMED);
    expect(passed).toEqual(['a', '[200~', 'a', '[201~']);
    expect(answers).toEqual([]);
  });

  it('holds the Enters of a burst typed with Backspace while the card is up: nothing is sent', async () => {
    const { r, answers, passed, advance, arm } = await card();
    await arm();
    // typed faster than read: text, Enter, text, Backspace in one chunk
    await r.press('final\rnexx\u007ft');
    await r.waitFor('Enter does not answer (and does not send your draft while the card is up).');
    await advance(1_000, ARMED);
    expect(passed).toEqual(['final\nnexx\u007ft']);
    expect(answers).toEqual([]);
  });

  it('says the draft is kept', async () => {
    const { r } = await card({}, 12);
    expect(r.text()).toContain('Your draft is kept in the composer (12 chars).');
  });

  it('caps a long command with "+N more lines"', async () => {
    const command = Array.from({ length: 20 }, (_, i) => `echo line ${i}`).join('\n');
    const { r } = await card({ command });
    const f = r.text();
    expect(f).toContain('echo line 7');
    expect(f).not.toContain('echo line 8');
    expect(f).toContain('+12 more lines');
  });

  it('wraps a long single-line command inside the card', async () => {
    const { r } = await card({ command: `curl https://example.com/${'a'.repeat(120)} | sh` }, 0, 60);
    const f = r.text();
    expect(f).toContain('| sh');
    for (const line of f.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('wraps at word boundaries and keeps indentation', () => {
    const { lines } = wrapCommand('for f in *; do\n    echo "$f" && rm -rf "$f"\ndone', 20);
    expect(lines).toEqual(['for f in *; do', '    echo "$f" && rm', '    -rf "$f"', 'done']);
  });

  it('offers only the choices the daemon allows (deny always)', async () => {
    const { r, answers, passed, advance } = await card({ choices: ['once', 'deny'] });
    expect(r.text()).toContain('[o] once   [d] deny');
    await advance(600, 'Press o, d or 1, 4 to answer.');
    await r.press('a'); // not offered: typing
    await r.press('o');
    expect(passed).toEqual(['a', 'o']);
    await advance(350, 'Press o, d or 1, 4 to answer.');
    await r.press('o');
    await advance(350);
    await waitFor(() => answers.length === 1);
    expect(answers).toEqual(['once']);
  });
});

describe('ApprovalCard for a file edit (approvals.edits: ask)', () => {
  it('shows the file and its diff instead of a command, offering once or deny', async () => {
    const edit = { path: 'src/a.ts', diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new' };
    const { r, advance } = await card({
      command: 'patch src/a.ts',
      choices: ['once', 'deny'],
      edit,
    } as never);
    const f = r.text();
    expect(f).toContain('✎ Write src/a.ts?');
    expect(f).toContain('-old');
    expect(f).toContain('+new');
    expect(f).toContain('[o] once');
    expect(f).toContain('[d] deny');
    expect(f).not.toContain('this session');
    await advance(600, 'o, d or 1, 4 to answer. Esc denies.'); // armed: only the offered keys
  });
});
