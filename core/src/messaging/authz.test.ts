import { describe, expect, it } from 'vitest';
import { authorize, type AuthContext } from './authz.js';
import { PlatformConfigSchema } from './platform-config.js';
import type { MessageSource } from './source.js';

const base = (over: Partial<AuthContext> = {}, cfg: Record<string, unknown> = {}): AuthContext => ({
  entry: { name: 'telegram', allowedUsersEnv: 'TELEGRAM_ALLOWED_USERS' },
  config: PlatformConfigSchema.parse(cfg),
  secrets: {},
  pairing: { isApproved: (_p, id) => id === 'paired' },
  env: {},
  ...over,
});
const dm = (userId?: string): MessageSource => ({
  platform: 'telegram',
  chatType: 'dm',
  chatId: 'c',
  ...(userId ? { userId } : {}),
});
const grp = (userId: string): MessageSource => ({
  platform: 'telegram',
  chatType: 'group',
  chatId: 'g',
  userId,
});

describe('authorize', () => {
  it.each<[string, MessageSource, AuthContext, object]>([
    ['stranger DM → pairing', dm('x'), base(), { allowed: false, action: 'pair' }],
    [
      'stranger DM, pairing off → ignore',
      dm('x'),
      base({}, { unauthorized_dm: 'ignore' }),
      { allowed: false, action: 'ignore' },
    ],
    ['stranger in a group → ignore', grp('x'), base(), { allowed: false, action: 'ignore' }],
    ['no user id → ignore', dm(), base(), { allowed: false, action: 'ignore', why: 'no_user_id' }],
    [
      'config allow-list (numbers from YAML)',
      dm('123'),
      base({}, { allowed_users: [123] }),
      { allowed: true, via: 'allowed_users' },
    ],
    [
      '.env allow-list',
      dm('7'),
      base({ secrets: { TELEGRAM_ALLOWED_USERS: '5, 7' } }),
      { allowed: true, via: 'env_list' },
    ],
    [
      '.env wildcard',
      dm('9'),
      base({ secrets: { TELEGRAM_ALLOWED_USERS: '*' } }),
      { allowed: true, via: 'env_list' },
    ],
    ['paired user', dm('paired'), base(), { allowed: true, via: 'paired' }],
    [
      'allow_all_users',
      grp('anyone'),
      base({}, { allow_all_users: true }),
      { allowed: true, via: 'allow_all' },
    ],
    [
      'adapter-authenticated platform',
      dm('x'),
      base({ entry: { name: 'api_server', authorization: 'adapter' } }),
      { allowed: true, via: 'adapter' },
    ],
    [
      'another platform’s list does not count',
      dm('7'),
      base({ secrets: { IRC_ALLOWED_USERS: '7' } }),
      { allowed: false },
    ],
  ])('%s', (_n, source, ctx, expected) => expect(authorize(source, ctx)).toMatchObject(expected));

  it('an unreadable pairing store authorizes nobody', () => {
    const ctx = base({
      pairing: {
        isApproved: () => {
          throw new Error('EACCES');
        },
      },
    });
    expect(authorize(dm('x'), ctx)).toMatchObject({ allowed: false });
  });
});
