/**
 * What the Matrix adapter knows of its rooms: name, members (display names, joined set, the
 * summary's count), direct-chat flag and encryption, from the state events of /sync — or asked of
 * the server for a room no sync described (after a restart, incremental syncs carry changes only).
 */
import type { MatrixClient } from 'matrix-js-sdk';
import type { MatrixEvent } from './events.js';

/** One room. */
export interface RoomInfo {
  name?: string;
  /** `m.joined_member_count` of the room summary, when the server sent one. */
  members?: number;
  /** Joined members seen in state events (the count when there is no summary). */
  joined: Set<string>;
  /** Members and name were asked of the server (a room known only from later syncs). */
  fetched?: boolean;
  direct?: boolean;
  encrypted?: boolean;
  names: Map<string, string>;
}

/** The rooms of one adapter. */
export class RoomDirectory {
  private readonly map = new Map<string, RoomInfo>();

  /** @param ctx the connected client and the bot's user id (read at each use). */
  constructor(
    private readonly ctx: () => { client: MatrixClient | undefined; me: string },
    private readonly log: (line: string) => void,
  ) {}

  /** What is known of a room (created empty on first use). */
  get(id: string): RoomInfo {
    let r = this.map.get(id);
    if (!r) this.map.set(id, (r = { names: new Map(), joined: new Set() }));
    return r;
  }

  /** Applies a state event (names, members, encryption) to what the adapter knows of a room. */
  apply(roomId: string, ev: MatrixEvent): void {
    const r = this.get(roomId);
    if (ev.type === 'm.room.name' && typeof ev.content.name === 'string') r.name = ev.content.name;
    if (ev.type === 'm.room.encryption') r.encrypted = true;
    if (ev.type === 'm.room.member' && ev.state_key) {
      if (typeof ev.content.displayname === 'string') r.names.set(ev.state_key, ev.content.displayname);
      if (ev.content.membership === 'join') r.joined.add(ev.state_key);
      else if (typeof ev.content.membership === 'string') r.joined.delete(ev.state_key);
      if (ev.state_key === this.ctx().me && ev.content.is_direct === true) r.direct = true;
    }
  }

  /**
   * Asks the server for a room's members and name when no sync carried its state (a room joined
   * before a restart: incremental syncs send state changes only). Failures leave it unknown.
   */
  async ensure(roomId: string): Promise<void> {
    const r = this.get(roomId);
    const { client } = this.ctx();
    if (!this.unknown(roomId) || !client) return;
    r.fetched = true;
    try {
      const { joined } = await client.getJoinedRoomMembers(roomId);
      for (const [id, m] of Object.entries(joined)) {
        r.joined.add(id);
        if (m.display_name) r.names.set(id, m.display_name);
      }
    } catch (err) {
      this.log(`cannot read the members of ${roomId}: ${(err as Error).message}`);
    }
    if (!r.name)
      await client
        .getStateEvent(roomId, 'm.room.name', '')
        .then((c) => typeof c.name === 'string' && (r.name = c.name))
        .catch(() => undefined);
  }

  /** True while no sync described the room's members and they were not asked of the server. */
  unknown(roomId: string): boolean {
    const r = this.get(roomId);
    return !r.fetched && r.members === undefined && r.joined.size === 0;
  }

  /** A DM: joined as direct, or two members. */
  isDm(roomId: string): boolean {
    const r = this.get(roomId);
    const members = r.members ?? (r.joined.size || undefined);
    return r.direct === true || (members !== undefined && members <= 2);
  }
}
