/**
 * A local stand-in of a Matrix homeserver's client-server API for tests (`node:http`, 127.0.0.1,
 * free port), speaking the routes matrix-js-sdk calls: `GET /_matrix/client/versions`, `POST
 * /v3/login`, `GET /v3/account/whoami`, `GET /v3/pushrules/`, `POST|GET /v3/user/{id}/filter`,
 * `GET /v3/sync` (long poll with `since` / `next_batch`), `PUT /v3/rooms/{id}/send/{type}/{txnId}`
 * (idempotent per access token and txnId, as the spec requires), `POST /v3/join/{id}` and
 * `/v3/rooms/{id}/join`, `PUT /v3/rooms/{id}/redact/{event}/{txnId}`, `PUT /v3/rooms/{id}/typing/
 * {user}`, `GET /v3/rooms/{id}/joined_members`, `GET /v3/rooms/{id}/state/{type}/{key}`, `GET /v3/profile/{id}`, and the media API
 * (`POST /_matrix/media/v3/upload`, downloads by `/_matrix/client/v1/media/download/…` and
 * `/_matrix/media/v3/download/…`). Errors use the spec's `{errcode, error}` body.
 *
 * A test plays the other users (room messages, thread replies, reactions, invites), reads what the
 * bot sent (edits applied), and breaks the connection: failing syncs, dropped long polls, or a
 * server restart on the same port that keeps its rooms and stream positions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildSync, type Room } from './fake-matrix-sync.js';

/** One recorded request. */
export interface MatrixCall {
  method: string;
  path: string;
  query: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  body: any;
  at: number;
}

/** A timeline event as the server stores it. */
export interface MxEvent {
  event_id: string;
  type: string;
  sender: string;
  room_id: string;
  origin_server_ts: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  content: any;
  state_key?: string;
}

/** A message the bot sent, with its edits applied. */
export interface BotMessage {
  event_id: string;
  room_id: string;
  /** Latest text (after `m.replace` edits). */
  body: string;
  msgtype: string;
  edits: number;
  /** Thread root when sent in a thread. */
  thread?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  content: any;
}

/** A running stand-in. */
export interface FakeMatrix {
  /** Homeserver base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  botUserId: string;
  /** The bot's access token (`MATRIX_ACCESS_TOKEN`). */
  token: string;
  /** The bot's password (`MATRIX_PASSWORD`, for `m.login.password`). */
  password: string;
  calls: MatrixCall[];
  /** Every event, in stream order. */
  events: MxEvent[];
  /** Creates a room with the bot joined (and `members` joined). */
  createRoom(o: {
    id: string;
    name?: string;
    members: Array<{ id: string; name: string }>;
    encrypted?: boolean;
  }): void;
  /** `inviter` invites the bot to a new room (`isDirect`: the invite's `is_direct`). */
  invite(o: { id: string; inviter: string; inviterName: string; isDirect?: boolean; name?: string }): void;
  /** A user sends an event to a room; returns its event id. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  send(roomId: string, sender: string, type: string, content: any): string;
  /** A user's text message (`thread`: root event id of the thread; `mentions`: `m.mentions.user_ids`). */
  text(roomId: string, sender: string, body: string, o?: { thread?: string; mentions?: string[] }): string;
  /** A user's reaction `key` to `eventId`. */
  react(roomId: string, sender: string, eventId: string, key: string): string;
  /** Stores media as a user's upload; returns its `mxc://` URI. */
  upload(data: Buffer, mime: string, name: string): string;
  /** Media by `mxc://` URI. */
  media(mxc: string): { data: Buffer; mime: string; name: string } | undefined;
  /** The bot's messages in a room (edits applied, edit events themselves left out). */
  botMessages(roomId: string): BotMessage[];
  /** The next `n` syncs fail with HTTP `status` (default 502). */
  failSyncs(n: number, status?: number): void;
  /** Destroys the sockets of the long polls now open (a dropped connection). */
  dropSyncs(): void;
  /** Closes the server and every connection, waits `downMs`, then listens on the same port again. */
  restart(downMs?: number): Promise<void>;
  /** Resolves with the first event (past or future) matching `pred`. */
  waitForEvent(pred: (e: MxEvent) => boolean, what: string, timeoutMs?: number): Promise<MxEvent>;
  close(): Promise<void>;
}

const SERVER = 'fake.test';

/** Starts the stand-in on a free loopback port. */
export async function startFakeMatrix(
  o: { botUserId?: string; token?: string; password?: string } = {},
): Promise<FakeMatrix> {
  const botUserId = o.botUserId ?? `@hermes:${SERVER}`;
  const password = o.password ?? 'bot-password-123';
  const tokens = new Map<string, string>([[o.token ?? 'syt_bot_token_abcdefghijklmnop', botUserId]]);
  const botToken = [...tokens.keys()][0]!;
  const calls: MatrixCall[] = [];
  const events: MxEvent[] = [];
  /** stream position of each event: its index + 1 */
  const rooms = new Map<string, Room>();
  const invites: Array<{ pos: number; roomId: string; inviter: string; isDirect: boolean }> = [];
  const txns = new Map<string, string>();
  const mediaStore = new Map<string, { data: Buffer; mime: string; name: string }>();
  const filters = new Map<string, unknown>();
  const waiters = new Set<() => void>();
  const syncSockets = new Set<Socket>();
  let failing: { n: number; status: number } = { n: 0, status: 502 };
  let seq = 0;
  let mediaSeq = 0;

  const pos = (): number => events.length + invites.length;
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const append = (roomId: string, sender: string, type: string, content: any, stateKey?: string): MxEvent => {
    const ev: MxEvent = {
      event_id: `$ev${++seq}:${SERVER}`,
      type,
      sender,
      room_id: roomId,
      origin_server_ts: Date.now(),
      content,
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
    };
    events.push(ev);
    (ev as MxEvent & { pos: number }).pos = pos();
    wake();
    return ev;
  };

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const err = (res: ServerResponse, status: number, errcode: string, error: string): void =>
    json(res, status, { errcode, error });

  const syncBody = (since: number | undefined, limit: number, summary: boolean): object =>
    buildSync({ rooms, events, invites, botUserId, pos: pos(), since, limit, summary });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(u.pathname);
    const query = Object.fromEntries(u.searchParams.entries());
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const raw = Buffer.concat(parts);
    const isJson = String(req.headers['content-type'] ?? '').includes('json');
    const body = raw.length ? (isJson ? JSON.parse(raw.toString('utf8')) : { bytes: raw.length }) : undefined;
    const call: MatrixCall = { method: req.method ?? 'GET', path, query, body, at: Date.now() };
    calls.push(call);
    wake();

    if (path === '/_matrix/client/versions')
      return json(res, 200, { versions: ['v1.1', 'v1.5', 'v1.11'], unstable_features: {} });
    if (path === '/_matrix/client/v3/login' && req.method === 'GET')
      return json(res, 200, { flows: [{ type: 'm.login.password' }] });
    if (path === '/_matrix/client/v3/login') {
      const user = body?.identifier?.user ?? body?.user;
      const local = String(user ?? '')
        .replace(/^@/, '')
        .split(':')[0];
      if (local !== botUserId.slice(1).split(':')[0] || body?.password !== password)
        return err(res, 403, 'M_FORBIDDEN', 'Invalid username or password');
      const t = `syt_login_${tokens.size}_${Math.random().toString(36).slice(2)}`;
      tokens.set(t, botUserId);
      return json(res, 200, {
        access_token: t,
        user_id: botUserId,
        device_id: body?.device_id ?? 'DEVLOGIN',
        home_server: SERVER,
      });
    }
    // media downloads: authenticated (v1) and legacy (v3)
    const dl = /^\/_matrix\/(?:client\/v1\/media|media\/v3)\/download\/([^/]+)\/([^/]+)/.exec(path);
    const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '') || query.access_token || '';
    const who = tokens.get(auth);
    if (dl && path.startsWith('/_matrix/media/v3/')) return serveMedia(res, dl[1]!, dl[2]!);
    if (!who) return err(res, 401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.');
    if (dl) return serveMedia(res, dl[1]!, dl[2]!);

    if (path === '/_matrix/media/v3/upload' && req.method === 'POST') {
      const id = `up${++mediaSeq}`;
      mediaStore.set(`${SERVER}/${id}`, {
        data: raw,
        mime: String(req.headers['content-type'] ?? 'application/octet-stream'),
        name: query.filename ?? 'upload',
      });
      return json(res, 200, { content_uri: `mxc://${SERVER}/${id}` });
    }
    const c = '/_matrix/client/v3';
    if (path === `${c}/account/whoami`) return json(res, 200, { user_id: who, device_id: 'DEVBOT' });
    if (path === `${c}/pushrules/`)
      return json(res, 200, { global: { override: [], content: [], room: [], sender: [], underride: [] } });
    const filt = /^\/_matrix\/client\/v3\/user\/([^/]+)\/filter(?:\/([^/]+))?$/.exec(path);
    if (filt) {
      if (req.method === 'POST') {
        const id = String(filters.size + 1);
        filters.set(id, body);
        return json(res, 200, { filter_id: id });
      }
      const f = filters.get(filt[2] ?? '');
      return f ? json(res, 200, f) : err(res, 404, 'M_NOT_FOUND', 'No such filter');
    }
    if (path === `${c}/sync`) {
      if (failing.n > 0) {
        failing.n--;
        return err(res, failing.status, 'M_UNKNOWN', 'sync failed (injected)');
      }
      const since = query.since ? Number(query.since.replace(/^s/, '')) : undefined;
      const deadline = Date.now() + Math.min(Number(query.timeout ?? 0), 30_000);
      syncSockets.add(req.socket);
      try {
        for (;;) {
          const filter = filters.get(query.filter ?? '') as {
            room?: { state?: { lazy_load_members?: boolean } };
          };
          const b = syncBody(since, 50, filter?.room?.state?.lazy_load_members === true) as {
            rooms: { join: object; invite: object };
          };
          const has = Object.keys(b.rooms.join).length > 0 || Object.keys(b.rooms.invite).length > 0;
          if (has || since === undefined || Date.now() >= deadline || res.destroyed) return json(res, 200, b);
          await new Promise<void>((r) => {
            const t = setTimeout(done, Math.max(0, deadline - Date.now()));
            function done(): void {
              clearTimeout(t);
              waiters.delete(done);
              r();
            }
            waiters.add(done);
            res.once('close', done);
          });
        }
      } finally {
        syncSockets.delete(req.socket);
      }
    }
    const send = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/.exec(path);
    if (send && req.method === 'PUT') {
      const [, roomId, type, txnId] = send;
      const room = rooms.get(roomId!);
      if (!room || room.members.get(who)?.membership !== 'join')
        return err(res, 403, 'M_FORBIDDEN', 'User not in room');
      const key = `${auth}\u0000${txnId}`;
      const seen = txns.get(key);
      if (seen) return json(res, 200, { event_id: seen });
      const ev = append(roomId!, who, type!, body ?? {});
      txns.set(key, ev.event_id);
      return json(res, 200, { event_id: ev.event_id });
    }
    const redact = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/redact\/([^/]+)\/([^/]+)$/.exec(path);
    if (redact && req.method === 'PUT') {
      const ev = append(redact[1]!, who, 'm.room.redaction', { redacts: redact[2], ...(body ?? {}) });
      return json(res, 200, { event_id: ev.event_id });
    }
    const join = /^\/_matrix\/client\/v3\/(?:join|rooms)\/([^/]+?)(?:\/join)?$/.exec(path);
    if (join && req.method === 'POST') {
      const room = rooms.get(join[1]!);
      if (!room || !room.members.get(who))
        return err(res, 403, 'M_FORBIDDEN', 'You are not invited to this room.');
      room.members.set(who, { ...room.members.get(who)!, membership: 'join' });
      append(room.id, who, 'm.room.member', { membership: 'join' }, who);
      room.botJoinedAt = pos();
      return json(res, 200, { room_id: room.id });
    }
    const typing = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/typing\/([^/]+)$/.exec(path);
    if (typing && req.method === 'PUT') return json(res, 200, {});
    const joinedMembers = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/joined_members$/.exec(path);
    if (joinedMembers && req.method === 'GET') {
      const room = rooms.get(joinedMembers[1]!);
      if (!room || room.members.get(who)?.membership !== 'join')
        return err(res, 403, 'M_FORBIDDEN', 'Not in room');
      const joined: Record<string, { display_name?: string }> = {};
      for (const [id, m] of room.members)
        if (m.membership === 'join') joined[id] = m.displayname ? { display_name: m.displayname } : {};
      return json(res, 200, { joined });
    }
    const state = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/state\/([^/]+)\/?([^/]*)$/.exec(path);
    if (state && req.method === 'GET') {
      const room = rooms.get(state[1]!);
      if (!room) return err(res, 404, 'M_NOT_FOUND', 'Unknown room');
      if (state[2] === 'm.room.name' && room.name) return json(res, 200, { name: room.name });
      return err(res, 404, 'M_NOT_FOUND', 'Event not found.');
    }
    const profile = /^\/_matrix\/client\/v3\/profile\/([^/]+)$/.exec(path);
    if (profile) {
      for (const r of rooms.values()) {
        const m = r.members.get(profile[1]!);
        if (m?.displayname) return json(res, 200, { displayname: m.displayname });
      }
      return json(res, 200, {});
    }
    return err(res, 404, 'M_UNRECOGNIZED', 'Unrecognized request');
  }

  function serveMedia(res: ServerResponse, server: string, id: string): void {
    const m = mediaStore.get(`${server}/${id}`);
    if (!m) return err(res, 404, 'M_NOT_FOUND', 'Not found');
    res.writeHead(200, { 'content-type': m.mime, 'content-length': m.data.length });
    res.end(m.data);
  }

  let server: Server = createServer();
  let port = 0;
  const sockets = new Set<Socket>();
  const listen = async (): Promise<void> => {
    server = createServer((req, res) => {
      handle(req, res).catch((e: Error) => err(res, 500, 'M_UNKNOWN', e.message));
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  };
  await listen();
  const shut = async (): Promise<void> => {
    wake();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };

  const botMessages = (roomId: string): BotMessage[] => {
    const out = new Map<string, BotMessage>();
    for (const e of events) {
      if (e.room_id !== roomId || e.sender !== botUserId || e.type !== 'm.room.message') continue;
      const rel = e.content['m.relates_to'];
      if (rel?.rel_type === 'm.replace') {
        const target = out.get(rel.event_id);
        if (target) {
          target.body = e.content['m.new_content']?.body ?? target.body;
          target.edits++;
        }
        continue;
      }
      out.set(e.event_id, {
        event_id: e.event_id,
        room_id: roomId,
        body: e.content.body,
        msgtype: e.content.msgtype,
        edits: 0,
        ...(rel?.rel_type === 'm.thread' ? { thread: rel.event_id } : {}),
        content: e.content,
      });
    }
    return [...out.values()];
  };

  const api: FakeMatrix = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    botUserId,
    token: botToken,
    password,
    calls,
    events,
    createRoom: ({ id, name, members, encrypted }) => {
      const room: Room = { id, ...(name ? { name } : {}), members: new Map(), encrypted: encrypted === true };
      room.members.set(botUserId, { membership: 'join', displayname: 'Hermes' });
      for (const m of members) room.members.set(m.id, { membership: 'join', displayname: m.name });
      room.botJoinedAt = pos() + 1;
      rooms.set(id, room);
      append(id, botUserId, 'm.room.member', { membership: 'join', displayname: 'Hermes' }, botUserId);
    },
    invite: ({ id, inviter, inviterName, isDirect, name }) => {
      const room: Room = { id, ...(name ? { name } : {}), members: new Map(), encrypted: false };
      room.members.set(inviter, { membership: 'join', displayname: inviterName });
      room.members.set(botUserId, { membership: 'invite' });
      rooms.set(id, room);
      invites.push({ pos: pos() + 1, roomId: id, inviter, isDirect: isDirect === true });
      wake();
    },
    send: (roomId, sender, type, content) => append(roomId, sender, type, content).event_id,
    text: (roomId, sender, body, opt = {}) =>
      append(roomId, sender, 'm.room.message', {
        msgtype: 'm.text',
        body,
        ...(opt.mentions ? { 'm.mentions': { user_ids: opt.mentions } } : {}),
        ...(opt.thread
          ? {
              'm.relates_to': {
                rel_type: 'm.thread',
                event_id: opt.thread,
                is_falling_back: true,
                'm.in_reply_to': { event_id: opt.thread },
              },
            }
          : {}),
      }).event_id,
    react: (roomId, sender, eventId, key) =>
      append(roomId, sender, 'm.reaction', {
        'm.relates_to': { rel_type: 'm.annotation', event_id: eventId, key },
      }).event_id,
    upload: (data, mime, name) => {
      const id = `user${++mediaSeq}`;
      mediaStore.set(`${SERVER}/${id}`, { data, mime, name });
      return `mxc://${SERVER}/${id}`;
    },
    media: (mxc) => mediaStore.get(mxc.replace(/^mxc:\/\//, '')),
    botMessages,
    failSyncs: (n, status = 502) => {
      failing = { n, status };
    },
    dropSyncs: () => {
      for (const s of syncSockets) s.destroy();
    },
    restart: async (downMs = 300) => {
      await shut();
      await new Promise((r) => setTimeout(r, downMs));
      await listen();
    },
    waitForEvent: async (pred, what, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(pred);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; events: ${events.map((e) => e.type).join(', ')}`);
        await new Promise<void>((r) => {
          const t = setTimeout(done, 200);
          function done(): void {
            clearTimeout(t);
            waiters.delete(done);
            r();
          }
          waiters.add(done);
        });
      }
    },
    close: shut,
  };
  return api;
}
