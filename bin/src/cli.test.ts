import { describe, expect, it } from 'vitest';
import { commandTypo, usageHint } from './cli.js';

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

describe('commandTypo', () => {
  const names = ['sessions', 'status', 'config', 'chat', 'tui', 'model', 'gateway'];
  it('names the command a mistyped first word meant', () => {
    expect(commandTypo(['sesions'], names)).toBe('sessions');
    expect(commandTypo(['sessoins', 'list'], names)).toBe('sessions');
    expect(commandTypo(['--json', 'gatway', 'status'], names)).toBe('gateway');
    expect(commandTypo(['chta'], names)).toBe('chat');
    expect(commandTypo(['Model'], names)).toBe('model');
  });
  it('says nothing for a command, a word far from every command, or no word', () => {
    expect(commandTypo(['sessions', 'lst'], names)).toBeUndefined();
    expect(commandTypo(['doctor'], names)).toBeUndefined();
    expect(commandTypo(['x'], names)).toBeUndefined();
    expect(commandTypo([], names)).toBeUndefined();
  });
});
