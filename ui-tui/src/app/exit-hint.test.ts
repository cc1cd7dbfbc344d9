import { describe, expect, it } from 'vitest';
import { exitHint } from './exit-hint.js';

const session = (profile: string, busy = false) => ({ id: 's1', title: 'Fix it', profile, busy });

describe('exitHint', () => {
  it('names -p for a session outside the profile a bare `hermes tui` opens', () => {
    // `hermes tui -p work` while another profile is sticky: the hint must say -p work
    expect(exitHint(session('work'), 'personal', 'hermes')).toBe(
      'Session “Fix it” stays in the daemon (in the background). Resume: hermes tui -p work -s s1 · the latest: hermes tui -p work -c',
    );
    expect(exitHint(session('work'), 'work', 'hermes')).toContain('Resume: hermes tui -s s1 ·');
  });

  it('prints the command as it runs in this install, and says a running turn goes on', () => {
    expect(exitHint(session('default', true), 'default', './bin/hermes')).toBe(
      'Session “Fix it” keeps running in the daemon (in the background). Resume: ./bin/hermes tui -s s1 · the latest: ./bin/hermes tui -c',
    );
    expect(exitHint(null, 'default')).toBeNull();
  });
});
