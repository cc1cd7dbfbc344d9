/** Asking the user on the terminal to approve a dangerous command (`hermes chat`). */
import { createInterface, type Interface } from 'node:readline/promises';
import type { ApprovalChoice } from '@hermes/core/approvals/types';

const ANSWERS: Record<string, ApprovalChoice> = {
  o: 'once',
  once: 'once',
  s: 'session',
  session: 'session',
  a: 'always',
  always: 'always',
};

/**
 * Shows the command and why it is flagged on stderr and reads the answer; anything but
 * o/s/a (or their words) is `deny` (fail closed).
 * @param rl an open readline to reuse; one on stdin/stderr is opened and closed otherwise.
 */
export async function askApprovalOnTerminal(
  command: string,
  description: string,
  rl?: Interface,
): Promise<ApprovalChoice> {
  const own = rl ? undefined : createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write(
      `\n⚠ The agent wants to run a command flagged as dangerous (${description}):\n  ${command}\n`,
    );
    const answer = (await (rl ?? own)!.question('Allow? [o]nce / [s]ession / [a]lways / [d]eny: '))
      .trim()
      .toLowerCase();
    return ANSWERS[answer] ?? 'deny';
  } finally {
    own?.close();
  }
}
