import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chatLineCommand,
  chatLineForeignCommand,
  commandsFor,
  daemonHelpText,
  findSlashCommand,
  SLASH_COMMANDS,
} from './slash-commands.js';

describe('the slash-command table', () => {
  it('imports nothing, so the TUI can load it without zod or the engine', () => {
    const source = readFileSync(new URL('./slash-commands.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it('has unique lower-case names and aliases that clash with no name', () => {
    const names = SLASH_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of commandsFor('tui')) expect(c.name).toBe(c.name.toLowerCase());
    const aliases = SLASH_COMMANDS.flatMap((c) => ('aliases' in c ? [...c.aliases] : []));
    for (const a of aliases) expect(names).not.toContain(a);
  });

  it('lists every command the TUI sends to the daemon as one the daemon answers', () => {
    for (const c of commandsFor('tui').filter((c) => c.tui!.runs === 'daemon')) {
      expect(c.daemon, `/${c.name}`).toBeDefined();
    }
    // and the TUI never sends one the daemon does not know, except through the skill fallback
    for (const c of commandsFor('daemon').filter((c) => c.daemon!.runner !== 'skill')) {
      if (c.tui) expect(c.tui.runs === 'daemon' || c.name === 'help', `/${c.name}`).toBe(true);
    }
  });

  it('finds commands per surface, by alias and case-insensitively; the skill placeholder never', () => {
    expect(findSlashCommand('tui', 'EXIT')?.name).toBe('quit');
    expect(findSlashCommand('chat', 'exit')?.name).toBe('quit');
    expect(findSlashCommand('platform', 'quit')).toBeUndefined();
    expect(findSlashCommand('daemon', 'clear')).toBeUndefined();
    expect(findSlashCommand('daemon', 'skill-name')).toBeUndefined();
    expect(commandsFor('chat').map((c) => c.name)).toEqual(['help', 'quit']);
  });

  it("renders the daemon's /help exactly as the daemon has always answered it", () => {
    expect(daemonHelpText()).toBe(`Commands handled by the daemon:
  /compact [FOCUS]  compress the conversation history now (FOCUS: what to keep in detail)
  /rollback [list | diff N | N [FILE]]  list, inspect or restore file checkpoints of this session's folder
  /mcp [list | reload]  MCP servers of this profile and their state
  /SKILL-NAME [TEXT]  load a saved skill (see skills_list) and run it with TEXT
  /queue [run | drop]  prompts waiting in this session's queue; run the held ones; discard them all
  /permissions [remove N|TEXT]  what "session" and "always" approved; forget one
  /tools        tools the model can use in this session
  /title TEXT   rename this session
  /ps [kill ID]  background processes of this profile; stop one
  /usage        token usage of this session
  /status       session state, clients attached, model
  /help         this list
  /reasoning [LEVEL]  reasoning effort of this session: none, low, medium, high or default`);
  });
});

describe('the line mode of hermes chat', () => {
  it('knows exactly its table entries, as whole lower-case lines', () => {
    expect(chatLineCommand('/quit')).toBe('quit');
    expect(chatLineCommand(' /exit ')).toBe('quit');
    expect(chatLineCommand('/help')).toBe('help');
    for (const line of ['/QUIT', '/quit now', '/clear', '/new', 'quit', '/usr/bin/ls', '//quit']) {
      expect(chatLineCommand(line), line).toBeUndefined();
    }
  });
});

describe('commands of the TUI typed into the line mode', () => {
  it('are recognised, with or without arguments; paths, line commands and other text are not', () => {
    expect(chatLineForeignCommand('/sessions')).toBe('sessions');
    expect(chatLineForeignCommand(' /new ')).toBe('new');
    expect(chatLineForeignCommand('/model gpt-4o')).toBe('model');
    expect(chatLineForeignCommand('/usage')).toBe('usage');
    for (const line of [
      '/quit',
      '/help',
      '/usr/bin/ls',
      '/tmp',
      'sessions',
      '/nosuchcommand',
      '/models are fun',
    ])
      expect(chatLineForeignCommand(line), line).toBeUndefined();
  });
});
