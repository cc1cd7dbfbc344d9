import { describe, expect, it } from 'vitest';
import { RoomDirectory } from './rooms.js';

const member = (id: string, membership: string, extra: Record<string, unknown> = {}) => ({
  event_id: `$${id}`,
  type: 'm.room.member',
  sender: id,
  state_key: id,
  content: { membership, ...extra },
});

describe('RoomDirectory', () => {
  it('counts joined members from state, and knows direct invites', () => {
    const rooms = new RoomDirectory(
      () => ({ client: undefined, me: '@bot:x' }),
      () => undefined,
    );
    rooms.apply('!a:x', member('@bot:x', 'join'));
    rooms.apply('!a:x', member('@ann:x', 'join', { displayname: 'Ann' }));
    expect(rooms.isDm('!a:x')).toBe(true);
    rooms.apply('!a:x', member('@bob:x', 'join'));
    expect(rooms.isDm('!a:x')).toBe(false);
    rooms.apply('!a:x', member('@bob:x', 'leave'));
    expect(rooms.isDm('!a:x')).toBe(true);
    expect(rooms.get('!a:x').names.get('@ann:x')).toBe('Ann');
    rooms.apply('!b:x', member('@bot:x', 'invite', { is_direct: true }));
    expect(rooms.isDm('!b:x')).toBe(true);
    expect(rooms.isDm('!unknown:x')).toBe(false);
  });
});
