import { createInterface } from 'node:readline/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { scriptDescription, scriptRequestText } from '@hermes/core/approvals/guard';
import type { ApprovalChoice } from '@hermes/core/approvals/types';
import { askApprovalOnTerminal, type TerminalApprovalRequest } from './ask-approval.js';

/** Asks `req` on a scripted terminal that types `typed`; returns the choice and all output. */
async function ask(
  req: TerminalApprovalRequest,
  typed: string,
): Promise<{ choice: ApprovalChoice; shown: string }> {
  const input = new PassThrough();
  const out = new PassThrough();
  let shown = '';
  out.on('data', (c: Buffer) => (shown += c.toString()));
  const rl = createInterface({ input, output: out, terminal: false });
  try {
    const pending = askApprovalOnTerminal(req, { rl, out });
    input.write(`${typed}\n`);
    return { choice: await pending, shown };
  } finally {
    rl.close();
  }
}

const command = { command: 'rm -rf ./build', description: 'recursive delete' };

describe('askApprovalOnTerminal', () => {
  it('offers all four choices when the request offers them, and accepts letters and words', async () => {
    const all = { ...command, choices: ['once', 'session', 'always', 'deny'] as const };
    const { choice, shown } = await ask(all, 's');
    expect(choice).toBe('session');
    expect(shown).toContain('Allow? [o]nce / [s]ession / [a]lways / [d]eny: ');
    expect(shown).toContain('a command flagged as dangerous (recursive delete)');
    expect((await ask(all, 'always')).choice).toBe('always');
    expect((await ask(all, 'o')).choice).toBe('once');
    expect((await ask(all, 'yes')).choice).toBe('deny');
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
