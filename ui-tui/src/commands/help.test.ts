import { describe, expect, it } from 'vitest';
import { helpText, parseDaemonHelp } from './help.js';

const DAEMON_HELP = `Commands handled by the daemon:
  /compact [FOCUS]  compress the conversation history now (FOCUS: what to keep in detail)
  /SKILL-NAME [TEXT]  load a saved skill (see skills_list) and run it with TEXT
  /queue [run | drop]  prompts waiting in this session's queue; run the held ones; discard them all
  /tools        tools the model can use in this session
  /help         this list`;

describe('parseDaemonHelp', () => {
  it("reads the daemon's command lines: usage and description", () => {
    expect(parseDaemonHelp(DAEMON_HELP)).toEqual([
      {
        name: 'compact',
        usage: '/compact [FOCUS]',
        description: 'compress the conversation history now (FOCUS: what to keep in detail)',
      },
      {
        name: 'skill-name',
        usage: '/SKILL-NAME [TEXT]',
        description: 'load a saved skill (see skills_list) and run it with TEXT',
      },
      {
        name: 'queue',
        usage: '/queue [run | drop]',
        description: "prompts waiting in this session's queue; run the held ones; discard them all",
      },
      { name: 'tools', usage: '/tools', description: 'tools the model can use in this session' },
      { name: 'help', usage: '/help', description: 'this list' },
    ]);
  });
});

describe('helpText', () => {
  it('lists /queue, /tools and /exit, local and daemon commands apart, and the keys', () => {
    const text = helpText();
    expect(text).toMatch(/^ {2}\/quit, \/exit +Exit/m);
    expect(text).toMatch(/^ {2}\/queue run\|drop +Prompts waiting/m);
    expect(text).toMatch(/^ {2}\/tools +Tools this session can use/m);
    const daemonAt = text.indexOf('Commands run by the daemon');
    expect(text.indexOf('/sessions')).toBeLessThan(daemonAt);
    expect(text.indexOf('/compact')).toBeGreaterThan(daemonAt);
    expect(text).toContain('Other /commands are sent to the daemon as well.');
    expect(text).toMatch(/Ctrl\+O show or hide tool output/);
  });

  it("adds the daemon's commands the table does not know, once", () => {
    const text = helpText(DAEMON_HELP);
    expect(text).toMatch(/^ {2}\/SKILL-NAME \[TEXT\] +load a saved skill/m);
    expect(text.match(/^ {2}\/compact/gm)).toHaveLength(1);
    expect(text.match(/^ {2}\/help/gm)).toHaveLength(1);
    expect(text).not.toContain('Other /commands');
  });
});
