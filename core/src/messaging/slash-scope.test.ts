/** Slash-command access per chat scope, with the original's key names. */
import { describe, expect, it } from 'vitest';
import { PlatformConfigSchema } from './platform-config.js';
import { slashPolicyFor } from './slash.js';

const cfg = (raw: Record<string, unknown>) => PlatformConfigSchema.parse(raw);

describe('slashPolicyFor', () => {
  type Row = [
    title: string,
    config: Record<string, unknown>,
    chat: string,
    user: string,
    command: string,
    allowed: boolean,
  ];
  const both = {
    allow_admin_from: ['111'],
    user_allowed_commands: ['status'],
    group_allow_admin_from: ['222'],
    group_user_allowed_commands: ['new'],
  };
  const rows: Row[] = [
    ['no lists: every command in a DM', {}, 'dm', '999', 'model', true],
    ['no lists: every command in a group', {}, 'group', '999', 'model', true],
    ['DM admin runs anything in a DM', both, 'dm', '111', 'model', true],
    ['DM admin is not a group admin', both, 'group', '111', 'model', false],
    ['group admin runs anything in a group', both, 'group', '222', 'model', true],
    ['group admin is not a DM admin', both, 'dm', '222', 'model', false],
    ['DM user may run the DM list', both, 'dm', '999', 'status', true],
    ['DM user may not run the group list', both, 'dm', '999', 'new', false],
    ['group user may run the group list', both, 'group', '999', 'new', true],
    ['group user may not run the DM list', both, 'group', '999', 'status', false],
    ['help is always allowed', both, 'group', '999', 'help', true],
    ['whoami is always allowed', both, 'dm', '999', 'whoami', true],
    ['channels use the group scope', both, 'channel', '222', 'model', true],
    ['threads use the group scope', both, 'thread', '111', 'model', false],
    ['only a group list: DMs stay open', { group_allow_admin_from: ['222'] }, 'dm', '999', 'model', true],
    [
      'only a group list: groups are gated',
      { group_allow_admin_from: ['222'] },
      'group',
      '999',
      'model',
      false,
    ],
    ['only a DM list: groups stay open', { allow_admin_from: ['111'] }, 'group', '999', 'model', true],
    [
      'a DM without its own command list falls back to the group list',
      { allow_admin_from: ['111'], group_user_allowed_commands: ['status'] },
      'dm',
      '999',
      'status',
      true,
    ],
    [
      'the group scope does not borrow the DM command list',
      { group_allow_admin_from: ['222'], user_allowed_commands: ['status'] },
      'group',
      '999',
      'status',
      false,
    ],
    ['legacy admins gate both scopes', { admins: ['1'] }, 'group', '2', 'model', false],
    ['legacy admins are admins in DMs', { admins: ['1'] }, 'dm', '1', 'model', true],
    [
      'a scope key wins over legacy admins',
      { admins: ['1'], group_allow_admin_from: ['2'] },
      'group',
      '1',
      'model',
      false,
    ],
    [
      'keys under extra: are read',
      { extra: { group_allow_admin_from: [5], group_user_allowed_commands: ['/status'] } },
      'group',
      '9',
      'status',
      true,
    ],
    ['extra: gates too', { extra: { group_allow_admin_from: [5] } }, 'group', '9', 'model', false],
    ['numeric ids match as strings', { extra: { group_allow_admin_from: [5] } }, 'group', '5', 'model', true],
  ];
  it.each(rows)('%s', (_t, config, chat, user, command, allowed) => {
    expect(slashPolicyFor(cfg(config), chat).allows(user, command)).toBe(allowed);
  });

  it('a bad value names the key', () => {
    expect(() => cfg({ group_allow_admin_from: 'abc' })).toThrow(/group_allow_admin_from/);
  });
});
