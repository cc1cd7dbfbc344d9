/**
 * A yes/no question on the terminal, for commands that delete or create things (skills, sessions,
 * profiles, cron suggestions).
 */

/**
 * Ctrl-C at a question: the command ends at once with status 130, as an interrupted program does
 * (readline would otherwise only pause, and the process end with status 0 as if it had succeeded).
 */
export function interrupted(): never {
  process.stderr.write('\n');
  process.exit(130);
}

/**
 * Asks `question` on stderr and reads one line from stdin.
 * @returns true only for an answer starting with y (any case); Enter alone is no. Ctrl-C exits
 *   the process with status 130 (`interrupted`).
 */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  rl.on('SIGINT', interrupted);
  try {
    return /^y/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
