import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { applyColorEnv } from './theme.js';

const saved = chalk.level;
afterEach(() => {
  chalk.level = saved;
});

describe('applyColorEnv', () => {
  it('honours NO_COLOR', () => {
    chalk.level = 2;
    applyColorEnv({ NO_COLOR: '1' }, true);
    expect(chalk.level).toBe(0);
  });

  it('turns colour back on for CI=false on a terminal, not on a pipe', () => {
    chalk.level = 0;
    applyColorEnv({ CI: 'false', TERM: 'xterm-256color' }, false);
    expect(chalk.level).toBe(0);
    applyColorEnv({ CI: 'false', TERM: 'xterm-256color' }, true);
    expect(chalk.level).toBe(2);
  });
});
