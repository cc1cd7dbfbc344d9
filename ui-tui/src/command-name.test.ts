import { afterEach, describe, expect, it } from 'vitest';
import { exitHint } from './app/exit-hint.js';
import { commandName, setCommandName } from './command-name.js';

afterEach(() => setCommandName('hermes'));

describe('commandName', () => {
  it('is hermes until set, then the form given (hints use it)', () => {
    expect(commandName()).toBe('hermes');
    setCommandName('./bin/hermes');
    expect(commandName()).toBe('./bin/hermes');
    const session = { id: 's1', title: null, profile: 'default', busy: false };
    expect(exitHint(session, 'default')).toContain(
      'Resume: ./bin/hermes tui -s s1 · the latest: ./bin/hermes tui -c',
    );
    setCommandName('');
    expect(commandName()).toBe('hermes');
  });
});
