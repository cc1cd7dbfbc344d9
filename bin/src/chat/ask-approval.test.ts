import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scriptDescription, scriptRequestText, type ApprovalChoice } from '@hermes/core/approvals';
import { APPROVAL_ARM_MS, APPROVAL_BURST_MS } from '@hermes/core/constants';
import { askApprovalOnTerminal, type TerminalApprovalRequest } from './ask-approval.js';

// time moves only when a test moves it (setTimeout and Date)
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** A scripted terminal: `type` writes input, `shown` is everything written to it. */
function terminal(opts: { terminal?: boolean } = {}) {
  const input = new PassThrough();
  const out = new PassThrough();
  let shown = '';
  out.on('data', (c: Buffer) => (shown += c.toString()));
  const rl = createInterface({ input, output: out, terminal: opts.terminal ?? false });
  return {
    rl,
    input,
    out,
    type: (text: string) => input.write(text),
    shown: () => shown.replace(ANSI, ''),
    close: () => rl.close(),
  };
}

/** Starts asking `req` on a scripted terminal; `settled()` says whether it has answered. */
function start(req: TerminalApprovalRequest, opts: { terminal?: boolean; signal?: AbortSignal } = {}) {
  const t = terminal(opts);
  let choice: ApprovalChoice | undefined;
  const pending = askApprovalOnTerminal(req, {
    rl: t.rl,
    input: t.input,
    out: t.out,
    ...(opts.signal ? { signal: opts.signal } : {}),
  }).then((c) => (choice = c));
  return { ...t, pending, settled: () => choice };
}

/** Lets `ms` pass (timers and the I/O they lead to). */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** Asks `req` and answers `typed` once the question is shown; returns the choice and the output. */
async function ask(
  req: TerminalApprovalRequest,
  ...typed: string[]
): Promise<{ choice: ApprovalChoice; shown: string }> {
  const t = start(req);
  try {
    for (const line of typed) {
      await pass(APPROVAL_ARM_MS);
      t.type(`${line}\n`);
      await pass(0);
    }
    return { choice: await t.pending, shown: t.shown() };
  } finally {
    t.close();
  }
}

const command = { command: 'rm -rf ./build', description: 'recursive delete' };
const all = { ...command, choices: ['once', 'session', 'always', 'deny'] as const };

describe('askApprovalOnTerminal', () => {
  it('offers all four choices when the request offers them; once/deny by letter or word', async () => {
    const { choice, shown } = await ask(all, 'o');
    expect(choice).toBe('once');
    expect(shown).toContain('Allow? [o]nce / [s]ession / [a]lways / [d]eny: ');
    expect(shown).toContain('a command flagged as dangerous (recursive delete)');
    expect((await ask(all, 'deny')).choice).toBe('deny');
    expect((await ask(all, 'yes')).choice).toBe('deny');
    expect((await ask(all, '')).choice).toBe('deny'); // a bare Enter never approves
  });

  it('says that an answer it does not know, or none, denied the command', async () => {
    const yes = await ask(all, 'yes');
    expect(yes.choice).toBe('deny');
    expect(yes.shown).toContain('  “yes” is not one of o / s / a / d: denied.\n');
    const empty = await ask(all, '');
    expect(empty.shown).toContain('  No answer: denied.\n');
    const notOffered = await ask({ ...command, choices: ['once', 'deny'] as const }, 'a');
    expect(notOffered.choice).toBe('deny');
    expect(notOffered.shown).toContain('  “a” is not one of o / d: denied.\n');
    const plain = await ask(all, 'd');
    expect(plain.shown).not.toContain('denied.');
  });

  it('session and always need a typed yes, asked under the same rule', async () => {
    const always = await ask(all, 'always', 'yes');
    expect(always.choice).toBe('always');
    expect(always.shown).toContain(
      'Allow commands flagged like this one always (saved as command_allowlist in config.yaml)?\nType yes to confirm: ',
    );
    expect((await ask(all, 'a', 'yes')).choice).toBe('always');
    const session = await ask(all, 's', 'YES');
    expect(session.choice).toBe('session');
    expect(session.shown).toContain('for the rest of this session?');
    // anything but yes: not confirmed, asked again
    const back = await ask(all, 'always', 'y', 'd');
    expect(back.choice).toBe('deny');
    expect(back.shown).toContain('  Not confirmed.\nAllow? [o]nce');
  });

  it('shows what session/always would allow when the request names it, and confirms with it', async () => {
    const entry = 'recursive-delete: rm -f -r [/p/build]';
    const always = await ask({ ...all, allows: [entry] }, 'a', 'yes');
    expect(always.choice).toBe('always');
    expect(always.shown).toContain(`  session / always would allow only:\n    ${entry}\nAllow? [o]nce`);
    expect(always.shown).toContain(
      `Allow only ${entry} always (added to command_allowlist in config.yaml)?\nType yes to confirm: `,
    );
    const session = await ask({ ...all, allows: [entry] }, 's', 'yes');
    expect(session.shown).toContain(`Allow only ${entry} for the rest of this session?`);
    // after a smart DENY only once/deny are offered: nothing to say about session/always
    const once = await ask({ ...command, choices: ['once', 'deny'], allows: [entry] }, 'o');
    expect(once.shown).not.toContain('would allow only');
  });

  it('lines typed ahead (before the question, or within the arming interval) are set aside', async () => {
    const t = start(all);
    t.type('a\no\n'); // buffered while the turn ran: arrives the moment the prompt reads
    await pass(APPROVAL_ARM_MS - 100);
    t.type('always\n');
    await pass(99);
    expect(t.shown()).not.toContain('Allow?');
    await pass(APPROVAL_BURST_MS + 100);
    expect(t.shown()).toContain('(set aside, typed before the question: “a”)');
    expect(t.shown()).toContain('(set aside, typed before the question: “o”)');
    expect(t.shown()).toContain('(set aside, typed before the question: “always”)');
    expect(t.shown()).toContain('Allow? [o]nce');
    await pass(60_000);
    expect(t.settled()).toBeUndefined(); // no answer taken from any of them
    t.type('d\n');
    expect(await t.pending).toBe('deny');
    t.close();
  });

  it('waits for a pause in typing before asking', async () => {
    const t = start(all);
    for (let i = 0; i < 20; i++) {
      t.type('x');
      await pass(APPROVAL_BURST_MS - 50); // well past the arming interval, but one burst
    }
    expect(t.shown()).not.toContain('Allow?');
    await pass(APPROVAL_BURST_MS);
    expect(t.shown()).toContain('Allow?');
    t.close();
    expect(await t.pending).toBe('deny'); // the input closed
  });

  it('a line begun before the question is set aside; a confirmation cannot be typed ahead either', async () => {
    const t = start(all, { terminal: true });
    t.type('a'); // begun before the question, not finished
    await pass(APPROVAL_ARM_MS);
    expect(t.shown()).toContain('(set aside, typed before the question: “a”)');
    t.type('o\r');
    await pass(0);
    expect(await t.pending).toBe('once'); // "o", not "ao" (a deny) nor the "a" (always)
    t.close();

    const p = start(all);
    await pass(APPROVAL_ARM_MS);
    p.type('always\nyes\n'); // pasted at once: the yes arrives before its question
    await pass(APPROVAL_ARM_MS);
    expect(p.shown()).toContain('(set aside, typed before the question: “yes”)');
    await pass(60_000);
    expect(p.settled()).toBeUndefined();
    p.type('yes\n');
    expect(await p.pending).toBe('always');
    p.close();
  });

  it('denies when the request ends (signal) or the input closes', async () => {
    const ctl = new AbortController();
    const t = start(all, { signal: ctl.signal });
    await pass(APPROVAL_ARM_MS);
    ctl.abort();
    expect(await t.pending).toBe('deny');
    // the question ends its line: what the caller writes next does not run on after it
    expect(t.shown()).toMatch(/\[d\]eny: \n$/);
    t.close();
    const c = start(all);
    c.close();
    expect(await c.pending).toBe('deny');
  });

  it('after a smart DENY offers only once/deny, and a choice that was not offered is a deny', async () => {
    const override = { ...command, choices: ['once', 'deny'] as const };
    const { choice, shown } = await ask(override, 's');
    expect(choice).toBe('deny');
    expect(shown).toContain('Allow? [o]nce / [d]eny: ');
    expect(shown).not.toContain('[s]ession');
    expect((await ask(override, 'always')).choice).toBe('deny');
    expect((await ask(override, 'o')).choice).toBe('once');
  });

  it('words a script approval as a script, in process (pattern keys) and over the daemon (no keys)', async () => {
    const script = { code: 'import shutil\nshutil.rmtree("x")', language: 'python' };
    const req = {
      command: scriptRequestText(script),
      description: scriptDescription('python'),
      choices: ['once', 'session', 'always', 'deny'] as const,
    };
    for (const r of [{ ...req, patternKeys: ['execute-code'] }, req]) {
      const { choice, shown } = await ask(r, 'o');
      expect(choice).toBe('once');
      expect(shown).not.toContain('flagged as dangerous');
      expect(shown).toContain('Script approval — the agent wants to run a python script (execute_code)');
      expect(shown).toContain('  import shutil\n  shutil.rmtree("x")\n');
    }
  });
});
