import { describe, expect, it } from 'vitest';
import { usageHint } from './cli.js';

describe('usageHint', () => {
  const names = ['config', 'skills', 'checkpoints', 'tui'];
  it('points at the help of the command that was given', () => {
    expect(usageHint(['config', 'bogus'], names)).toBe('Run "hermes config --help" for usage.');
    expect(usageHint(['--json', 'skills', 'show'], names)).toBe('Run "hermes skills --help" for usage.');
    expect(usageHint(['checkpoints', 'diff'], names)).toBe('Run "hermes checkpoints --help" for usage.');
  });
  it('falls back to hermes --help for an unknown or missing command', () => {
    expect(usageHint(['confg'], names)).toBe('Run "hermes --help" for usage.');
    expect(usageHint([], names)).toBe('Run "hermes --help" for usage.');
  });
});
