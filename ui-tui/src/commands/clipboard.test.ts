import { describe, expect, it } from 'vitest';
import { knownOsc52Terminal, planCopy } from './clipboard.js';

const tmuxEnv = { TMUX: '/tmp/tmux-0/default,1,0', TERM_PROGRAM: 'tmux' };
const options =
  (o: Record<string, string>) =>
  (name: string): string | null =>
    o[name] ?? null;

describe('planCopy', () => {
  it('in tmux with set-clipboard on: a plain OSC 52 that tmux takes', () => {
    const p = planCopy('hi', 'the last reply', tmuxEnv, options({ 'set-clipboard': 'on' }));
    expect(p.sequence).toBe('\u001b]52;c;aGk=\u0007');
    expect(p.tmuxBuffer).toBe(false);
    expect(p.message).toContain("Copied the last reply (2 characters) to tmux's buffer");
  });

  it('in tmux with passthrough allowed: the wrapped sequence, without claiming success', () => {
    const p = planCopy(
      'hi',
      'the last reply',
      tmuxEnv,
      options({ 'set-clipboard': 'external', 'allow-passthrough': 'on' }),
    );
    expect(p.sequence).toBe('\u001bPtmux;\u001b\u001b]52;c;aGk=\u0007\u001b\\');
    expect(p.message).toBe(
      'Sent the last reply (2 characters) via OSC 52 through tmux; your terminal may not support it.',
    );
  });

  it("in default tmux (external, no passthrough): says it cannot, and uses tmux's paste buffer", () => {
    const p = planCopy(
      'hi',
      'the last reply',
      tmuxEnv,
      options({ 'set-clipboard': 'external', 'allow-passthrough': 'off' }),
    );
    expect(p.sequence).toBeNull();
    expect(p.tmuxBuffer).toBe(true);
    expect(p.tone).toBe('warn');
    expect(p.message).toMatch(/^Not copied to the clipboard: tmux's set-clipboard is external/);
    expect(p.message).toContain('tmux set -g set-clipboard on');
    expect(p.message).not.toMatch(/^Copied/);
  });

  it('an unknown terminal is told the sequence was sent and may not be supported', () => {
    const p = planCopy('hi', 'the last reply', { TERM: 'xterm-256color' }, () => {
      throw new Error('tmux must not be asked outside tmux');
    });
    expect(p.sequence).toBe('\u001b]52;c;aGk=\u0007');
    expect(p.message).toBe(
      'Sent the last reply (2 characters) via OSC 52; your terminal may not support it.',
    );
  });

  it('a terminal known to take OSC 52 gets "Copied"', () => {
    expect(planCopy('hi', 'the last reply', { TERM: 'xterm-kitty' }).message).toBe(
      'Copied the last reply (2 characters) to the clipboard.',
    );
    expect(knownOsc52Terminal({ TERM_PROGRAM: 'WezTerm' })).toBe(true);
    expect(knownOsc52Terminal({ TERM_PROGRAM: 'Apple_Terminal' })).toBe(false);
  });

  it('says when a long text is cut', () => {
    const p = planCopy('x'.repeat(80_000), 'the last reply', { TERM: 'xterm-kitty' });
    expect(p.message).toContain('80000 characters, cut to the first 74994 bytes');
  });
});
