import { describe, expect, it } from 'vitest';
import { applyCompletion, completeCommands } from './complete.js';
import { osc52 } from './osc52.js';
import { parseInput } from './parse.js';
import { COMMANDS, findCommand } from './table.js';

describe('command table', () => {
  it('holds the commands of the issue, each with a description', () => {
    const names = COMMANDS.map((c) => c.name);
    for (const n of [
      'help',
      'new',
      'sessions',
      'resume',
      'title',
      'model',
      'profile',
      'usage',
      'compact',
      'clear',
      'detach',
      'quit',
      'copy',
      'queue',
      'permissions',
      'tools',
    ]) {
      expect(names).toContain(n);
    }
    expect(COMMANDS.every((c) => c.description.length > 0)).toBe(true);
    expect(findCommand('EXIT')?.name).toBe('quit');
  });
});

describe('parseInput', () => {
  it('parses a known command with its arguments', () => {
    expect(parseInput('/resume  my title ')).toMatchObject({
      kind: 'command',
      command: { name: 'resume' },
      args: 'my title',
    });
    expect(parseInput('/quit')).toMatchObject({ kind: 'command', command: { name: 'quit' }, args: '' });
  });

  it('marks unknown commands for slash.exec', () => {
    expect(parseInput('/deploy now')).toEqual({
      kind: 'unknown',
      name: 'deploy',
      args: 'now',
      raw: '/deploy now',
    });
  });

  it('treats paths and plain text as text, and // as an escaped slash', () => {
    expect(parseInput('/usr/bin/env is missing')).toEqual({ kind: 'text', text: '/usr/bin/env is missing' });
    expect(parseInput('hello /help')).toEqual({ kind: 'text', text: 'hello /help' });
    expect(parseInput('//help me')).toEqual({ kind: 'text', text: '/help me' });
  });
});

describe('completeCommands', () => {
  it('lists prefix matches first, then inner matches', () => {
    expect(completeCommands('/').length).toBe(COMMANDS.length);
    expect(completeCommands('/s').map((c) => c.name)).toEqual([
      'sessions',
      'setup',
      'steer',
      'status',
      'resume',
      'usage',
      'tools',
      'ps',
      'permissions',
      'history',
      'paste',
      'reasoning',
    ]);
    expect(completeCommands('/co').map((c) => c.name)).toEqual(['compact', 'copy']);
    expect(completeCommands('/ex').map((c) => c.name)).toEqual(['quit']);
  });

  it('is empty once arguments are being typed, or for text', () => {
    expect(completeCommands('/resume ')).toEqual([]);
    expect(completeCommands('hello')).toEqual([]);
  });

  it('adds a space after commands that take arguments', () => {
    expect(applyCompletion(findCommand('resume')!)).toBe('/resume ');
    expect(applyCompletion(findCommand('clear')!)).toBe('/clear');
  });
});

describe('osc52', () => {
  it('encodes the text in base64', () => {
    expect(osc52('hi ✓', {})).toBe(`\u001b]52;c;${Buffer.from('hi ✓').toString('base64')}\u0007`);
  });

  it('wraps for tmux passthrough with doubled escapes', () => {
    expect(osc52('x', { TMUX: '/tmp/tmux-1/default,1,0' })).toBe(
      '\u001bPtmux;\u001b\u001b]52;c;eA==\u0007\u001b\\',
    );
  });
});
