/**
 * A yes/no question on the terminal, for commands that delete or create things (skills, sessions,
 * profiles, cron suggestions).
 */

/**
 * Asks `question` on stderr and reads one line from stdin.
 * @returns true only for an answer starting with y (any case); Enter alone is no.
 */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
