/**
 * The /sync answers of the Matrix stand-in (fake-matrix.ts): what changed for the bot since a
 * stream position, in the client-server API's shape.
 */
import type { MxEvent } from './fake-matrix.js';

/** A room of the stand-in. */
export interface Room {
  id: string;
  name?: string;
  members: Map<string, { membership: 'join' | 'invite' | 'leave'; displayname?: string }>;
  encrypted: boolean;
  /** Stream position at which the bot joined (state is sent again in the first sync after it). */
  botJoinedAt?: number;
}

function stateEvents(room: Room, botUserId: string): object[] {
  const out: object[] = [];
  if (room.name)
    out.push({
      type: 'm.room.name',
      state_key: '',
      sender: botUserId,
      content: { name: room.name },
      event_id: `$state-name-${room.id}`,
      origin_server_ts: 0,
    });
  if (room.encrypted)
    out.push({
      type: 'm.room.encryption',
      state_key: '',
      sender: botUserId,
      content: { algorithm: 'm.megolm.v1.aes-sha2' },
      event_id: `$state-enc-${room.id}`,
      origin_server_ts: 0,
    });
  for (const [id, m] of room.members)
    out.push({
      type: 'm.room.member',
      state_key: id,
      sender: id,
      content: { membership: m.membership, ...(m.displayname ? { displayname: m.displayname } : {}) },
      event_id: `$state-member-${room.id}-${id}`,
      origin_server_ts: 0,
    });
  return out;
}

/**
 * The /sync answer for the bot after stream position `since` (undefined: an initial sync):
 * joined rooms with their new timeline events (and full state when the bot joined since), and
 * pending invites. `summary`: include `m.joined_member_count` (Synapse sends room summaries to
 * clients that lazy-load members; others count the members of the state).
 */
export function buildSync(o: {
  rooms: Map<string, Room>;
  events: MxEvent[];
  invites: Array<{ pos: number; roomId: string; inviter: string; isDirect: boolean }>;
  botUserId: string;
  pos: number;
  since: number | undefined;
  limit: number;
  summary: boolean;
}): object {
  const { rooms, events, invites, botUserId, since, limit, summary } = o;
  const posOf = (ev: MxEvent): number => (ev as MxEvent & { pos: number }).pos;
  const join: Record<string, object> = {};
  for (const room of rooms.values()) {
    if (room.members.get(botUserId)?.membership !== 'join') continue;
    const joinedNow = since === undefined || (room.botJoinedAt ?? 0) > since;
    let timeline = events.filter((e) => e.room_id === room.id && (since === undefined || posOf(e) > since));
    const limited = timeline.length > limit;
    if (limited) timeline = timeline.slice(-limit);
    if (!timeline.length && !joinedNow) continue;
    join[room.id] = {
      timeline: { events: timeline.map(({ ...e }) => (delete (e as { pos?: number }).pos, e)), limited },
      state: { events: joinedNow ? stateEvents(room, botUserId) : [] },
      ...(summary
        ? {
            summary: {
              'm.joined_member_count': [...room.members.values()].filter((m) => m.membership === 'join')
                .length,
            },
          }
        : {}),
    };
  }
  const invite: Record<string, object> = {};
  for (const inv of invites) {
    if (since !== undefined && inv.pos <= since) continue;
    const room = rooms.get(inv.roomId)!;
    if (room.members.get(botUserId)?.membership !== 'invite') continue;
    invite[inv.roomId] = {
      invite_state: {
        events: [
          ...(room.name
            ? [{ type: 'm.room.name', state_key: '', sender: inv.inviter, content: { name: room.name } }]
            : []),
          {
            type: 'm.room.member',
            state_key: botUserId,
            sender: inv.inviter,
            content: { membership: 'invite', ...(inv.isDirect ? { is_direct: true } : {}) },
          },
        ],
      },
    };
  }
  return { next_batch: `s${o.pos}`, rooms: { join, invite, leave: {} } };
}
