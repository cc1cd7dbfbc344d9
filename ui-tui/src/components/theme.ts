/**
 * Colours of the TUI by meaning, as ANSI colour names only (the terminal's palette decides the
 * shade, so they stay readable on light and dark backgrounds). NO_COLOR is honoured by setting the
 * colour level to 0 (`applyColorEnv`), which Ink and the markdown renderer both obey.
 */
import chalk from 'chalk';

/** Semantic colour → ANSI colour name. */
export const theme = {
  user: 'cyan',
  accent: 'cyan',
  ok: 'green',
  error: 'red',
  warn: 'yellow',
  muted: 'gray',
  tool: 'magenta',
  border: 'gray',
} as const;

/** Turns colours off when `NO_COLOR` is set to a non-empty value (https://no-color.org). */
export function applyColorEnv(
  env: NodeJS.ProcessEnv = process.env,
  isTTY: boolean = Boolean(process.stdout.isTTY),
): void {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') {
    chalk.level = 0;
    return;
  }
  // chalk turns colour off whenever a CI variable exists; `CI=false` on a terminal means a person
  if (chalk.level === 0 && env.CI === 'false' && isTTY && env.TERM !== 'dumb' && env.FORCE_COLOR !== '0') {
    chalk.level = /256/.test(env.TERM ?? '') || env.COLORTERM ? 2 : 1;
  }
}
