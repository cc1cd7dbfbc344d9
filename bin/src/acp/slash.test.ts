import { describe, expect, it } from 'vitest';
import { availableCommands, daemonCommandLine } from './slash.js';

describe('slash commands in the editor', () => {
  it('announces the daemon’s commands with their argument hints, never the skill placeholder', () => {
    const cmds = availableCommands();
    const names = cmds.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['title', 'usage', 'compact', 'tools']));
    expect(names).not.toContain('SKILL-NAME');
    expect(names).not.toContain('model'); // the TUI's own command, not the daemon's
    expect(cmds.find((c) => c.name === 'title')).toMatchObject({ input: { hint: 'TEXT' } });
  });

  it('takes a one-line prompt naming a daemon command as that command, anything else as a prompt', () => {
    expect(daemonCommandLine('/usage')).toBe('/usage');
    expect(daemonCommandLine('  /title Parser work ')).toBe('/title Parser work');
    expect(daemonCommandLine('/usage\nand more')).toBeNull();
    expect(daemonCommandLine('/nosuch thing')).toBeNull();
    expect(daemonCommandLine('/model gpt')).toBeNull();
    expect(daemonCommandLine('what does /usage do?')).toBeNull();
  });
});
