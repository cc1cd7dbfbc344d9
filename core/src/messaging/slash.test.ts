import { describe, expect, it } from 'vitest';
import { platformCommandNames, SLASH_COMMANDS } from '../protocol/slash-commands.js';
import {
  ALWAYS_ALLOWED_COMMANDS,
  approveChoice,
  COMMAND_HELP,
  parseCommand,
  PLATFORM_COMMANDS,
  SlashAccessPolicy,
} from './slash.js';

describe('parseCommand', () => {
  it.each([
    ['/new', { name: 'new', args: '' }],
    ['/RESET', { name: 'reset', args: '' }],
    ['/approve session', { name: 'approve', args: 'session' }],
    ['/model@hermes_bot gpt-4o', { name: 'model', args: 'gpt-4o' }],
    ['  /help  ', { name: 'help', args: '' }],
    ['/unknown', undefined],
    ['/ new', undefined],
    ['hello /new', undefined],
    ['/usr/bin/ls', undefined],
  ])('%j', (text, expected) => expect(parseCommand(text)).toEqual(expected));
});

describe('SlashAccessPolicy', () => {
  const open = new SlashAccessPolicy();
  const gated = new SlashAccessPolicy(['admin1'], ['status']);
  const cases: Array<[string, SlashAccessPolicy, string | undefined, string, boolean]> = [
    ['no gate: anyone, any command', open, 'u1', 'new', true],
    ['no gate: approve', open, 'u1', 'approve', true],
    ['gated: admin runs anything', gated, 'admin1', 'model', true],
    ['gated: admin approves', gated, 'admin1', 'approve', true],
    ['gated: user may not /new', gated, 'u1', 'new', false],
    ['gated: user may not approve', gated, 'u1', 'approve', false],
    ['gated: user may not deny', gated, 'u1', 'deny', false],
    ['gated: help always allowed', gated, 'u1', 'help', true],
    ['gated: whoami always allowed', gated, 'u1', 'whoami', true],
    ['gated: whoami without id', gated, undefined, 'whoami', true],
    ['gated: user_commands extend users', gated, 'u1', 'status', true],
    ['gated: slash prefix tolerated', gated, 'u1', '/help', true],
    ['gated: no id is no admin', gated, undefined, 'stop', false],
  ];
  it.each(cases)('%s', (_n, policy, user, command, allowed) =>
    expect(policy.allows(user, command)).toBe(allowed),
  );

  it('help and whoami are in every user’s list', () => {
    expect(ALWAYS_ALLOWED_COMMANDS).toEqual(['help', 'whoami']);
    expect(gated.allowedCommands('u1')).toEqual(['status', 'help', 'whoami']);
    expect(open.allowedCommands('u1')).toEqual([...PLATFORM_COMMANDS]);
  });

  it.each([
    ['', 'once'],
    ['once', 'once'],
    ['session', 'session'],
    ['ALWAYS', 'always'],
    ['forever', undefined],
  ])('approveChoice(%j)', (args, choice) => expect(approveChoice(args)).toBe(choice));
});

describe('platform commands come from the table', () => {
  it('keeps their /help order and lines', () => {
    expect(platformCommandNames()).toEqual([
      'new',
      'reset',
      'stop',
      'status',
      'model',
      'help',
      'whoami',
      'approve',
      'deny',
      'reasoning',
    ]);
    expect(PLATFORM_COMMANDS).toEqual(platformCommandNames());
    expect(COMMAND_HELP.reset).toBe('same as /new');
    expect(COMMAND_HELP.whoami).toBe('your id on this platform and what you may do');
  });

  it('parses exactly the names the table gives the platforms', () => {
    for (const c of SLASH_COMMANDS) {
      const parsed = parseCommand(`/${c.name} x`);
      if ('platform' in c) expect(parsed, `/${c.name}`).toEqual({ name: c.name, args: 'x' });
      else expect(parsed, `/${c.name}`).toBeUndefined();
    }
  });
});
