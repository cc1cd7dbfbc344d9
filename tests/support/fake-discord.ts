/**
 * A local Discord for tests (`node:http` + `ws`, 127.0.0.1, free port): the REST API routes
 * discord.js calls under `/api/v10` — `GET /gateway/bot`, `GET /users/@me`, channel messages
 * (create as JSON or multipart with attachments, edit, history after an id), typing, `GET /channels/{id}`,
 * application commands (bulk overwrite, global and per guild), interaction callbacks and the
 * original-response webhook — with Discord's error bodies (`{message, code}`), every call recorded;
 * attachment downloads (a CDN stand-in); and the gateway (fake-discord-gateway.ts). A test plays
 * users: DMs, guild and thread messages (with mentions, replies, attachments), button presses and
 * slash commands, all dispatched over the gateway with sequence numbers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway } from './fake-discord-gateway.js';
import {
  APP_ID,
  BOT_USER,
  GENERAL_ID,
  GUILD_ID,
  botMessageObj,
  guildCreate,
  interactionObj,
  snowflake,
  threadObj,
  userMessageObj,
  userObj,
  type BotMessage,
  type FakeChannel,
  type FakeUser,
} from './fake-discord-payloads.js';

export type { BotMessage, FakeUser } from './fake-discord-payloads.js';

/** One recorded REST call. */
export interface RestCall {
  method: string;
  /** Path after `/api/v10`, e.g. `/channels/1/messages`. */
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  body: any;
  /** Files of a multipart request. */
  files: Array<{ field: string; name: string; type: string; data: Buffer }>;
  at: number;
}

/** What an interaction got back (callback types: 4 reply, 5 deferred, 6/7 update). */
export interface InteractionAnswer {
  interactionId: string;
  type: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  ephemeral: boolean;
}

/** Options of the fake. */
export interface FakeDiscordOptions {
  token?: string;
  heartbeatIntervalMs?: number;
}

/** A running fake Discord. */
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

/** Starts the fake on a free loopback port. */
export async function startFakeDiscord(opts: FakeDiscordOptions = {}) {
  const token = opts.token ?? 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsT1.fake-discord-token-abcdefghijklmnop';
  const calls: RestCall[] = [];
  const messages = new Map<string, BotMessage>();
  const answers: InteractionAnswer[] = [];
  const waiters = new Set<() => void>();
  /** Bytes of attachments users sent, by path under /attachments. */
  const cdn = new Map<string, { data: Buffer; type: string }>();
  /** Paths under /attachments the bot downloaded, in order. */
  const downloads: string[] = [];
  const bot = BOT_USER;
  const appId = APP_ID;
  const guildId = GUILD_ID;
  const channels = new Map<string, FakeChannel>();
  channels.set(GENERAL_ID, { id: GENERAL_ID, type: 0, name: 'general', guild_id: guildId });
  const nonces = new Map<string, string>();
  /** Every user message (as MESSAGE_CREATE carried it), for the channel history route. */
  const userMessages: Array<ReturnType<typeof userMessageObj>> = [];
  let port = 0;
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };
  const gateway = { current: undefined as FakeGateway | undefined };
  const messageObj = (m: BotMessage) =>
    botMessageObj(m, channels.get(m.channel_id), `http://127.0.0.1:${port}`);

  const json = (res: ServerResponse, status: number, body?: unknown): void => {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse, code = 0, message = '404: Not Found'): void =>
    json(res, 404, { message, code });

  async function readBody(req: IncomingMessage): Promise<{ body: unknown; files: RestCall['files'] }> {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const raw = Buffer.concat(parts);
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://fake.local/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: raw,
      }).formData();
      let body: unknown = {};
      const files: RestCall['files'] = [];
      for (const [field, value] of form as unknown as Iterable<[string, string | File]>) {
        if (typeof value === 'string') {
          if (field === 'payload_json') body = JSON.parse(value);
        } else {
          files.push({
            field,
            name: value.name,
            type: value.type,
            data: Buffer.from(await value.arrayBuffer()),
          });
        }
      }
      return { body, files };
    }
    return { body: raw.length ? JSON.parse(raw.toString('utf8')) : undefined, files: [] };
  }

  function createMessage(
    channelId: string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: any,
    files: RestCall['files'],
  ): BotMessage | { error: number; message: string } {
    const content = typeof body?.content === 'string' ? body.content : '';
    if (content.length > 2000)
      return { error: 50035, message: 'Invalid Form Body: content must be 2000 or fewer in length.' };
    if (!content && !files.length && !body?.components?.length)
      return { error: 50006, message: 'Cannot send an empty message' };
    const m: BotMessage = {
      id: snowflake(),
      channel_id: channelId,
      content,
      components: body?.components ?? [],
      attachments: files.map((f) => ({ filename: f.name, size: f.data.length, data: f.data })),
      ...(body?.message_reference?.message_id ? { reply_to: String(body.message_reference.message_id) } : {}),
      ...(body?.nonce ? { nonce: String(body.nonce) } : {}),
      times: [Date.now()],
      edits: [],
    };
    messages.set(m.id, m);
    return m;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) {
      downloads.push(url.pathname);
      const f =
        cdn.get(url.pathname) ??
        (() => {
          const [, , mid, name] = url.pathname.split('/');
          const a = messages
            .get(mid ?? '')
            ?.attachments.find((x) => x.filename === decodeURIComponent(name ?? ''));
          return a ? { data: a.data, type: 'application/octet-stream' } : undefined;
        })();
      if (!f) return notFound(res);
      res.writeHead(200, { 'content-type': f.type, 'content-length': f.data.length });
      res.end(f.data);
      return;
    }
    const m = /^\/api\/v10(\/.*)$/.exec(url.pathname);
    if (!m) return notFound(res);
    const path = decodeURIComponent(m[1]!);
    const method = req.method ?? 'GET';
    const { body, files } = await readBody(req);
    calls.push({ method, path, body, files, at: Date.now() });
    wake();
    const isInteraction = path.startsWith('/interactions/') || path.startsWith('/webhooks/');
    if (!isInteraction && (req.headers.authorization !== `Bot ${token}` || gateway.current?.revoked))
      return json(res, 401, { message: '401: Unauthorized', code: 0 });
    let r: RegExpExecArray | null;
    if (method === 'GET' && path === '/gateway/bot')
      return json(res, 200, {
        url: `ws://127.0.0.1:${port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    if (method === 'GET' && path === '/users/@me') return json(res, 200, bot);
    if ((r = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'POST') {
      const channelId = r[1]!;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      if (b.enforce_nonce && b.nonce) {
        const seen = nonces.get(`${channelId}:${b.nonce}`);
        if (seen && messages.has(seen)) return json(res, 200, messageObj(messages.get(seen)!));
      }
      const made = createMessage(channelId, b, files);
      if ('error' in made) return json(res, 400, { message: made.message, code: made.error });
      if (b.nonce) nonces.set(`${channelId}:${b.nonce}`, made.id);
      gateway.current?.dispatch('MESSAGE_CREATE', messageObj(made));
      return json(res, 200, messageObj(made));
    }
    if ((r = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const msg = messages.get(r[2]!);
      if (!msg || msg.channel_id !== r[1]) return notFound(res, 10008, 'Unknown Message');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      if (typeof b.content === 'string') {
        if (b.content.length > 2000) return json(res, 400, { message: 'Invalid Form Body', code: 50035 });
        msg.content = b.content;
      }
      if (b.components) msg.components = b.components;
      msg.edits.push(msg.content);
      msg.times.push(Date.now());
      return json(res, 200, messageObj(msg));
    }
    if ((r = /^\/channels\/(\d+)\/typing$/.exec(path)) && method === 'POST') return json(res, 204);
    if ((r = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'GET') {
      // the channel's history after `after`, newest first (Discord's order), at most `limit`
      const channelId = r[1]!;
      const after = BigInt(url.searchParams.get('after') ?? '0');
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 50));
      const all = [
        ...userMessages.filter((m) => m.channel_id === channelId),
        ...[...messages.values()].filter((m) => m.channel_id === channelId).map(messageObj),
      ]
        .filter((m) => BigInt(m.id) > after)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .slice(0, limit)
        .reverse();
      return json(res, 200, all);
    }
    if ((r = /^\/channels\/(\d+)$/.exec(path)) && method === 'GET') {
      const ch = channels.get(r[1]!);
      return ch ? json(res, 200, ch) : notFound(res, 10003, 'Unknown Channel');
    }
    if ((r = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path)) && method === 'PUT') {
      if (r[1] !== appId) return json(res, 403, { message: 'Missing Access', code: 50001 });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const defs = (body as any[]) ?? [];
      return json(
        res,
        200,
        defs.map((d) => ({
          ...d,
          id: snowflake(),
          application_id: appId,
          version: '1',
          ...(r![2] ? { guild_id: r![2] } : {}),
        })),
      );
    }
    if ((r = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      const pending = interactions.get(r[1]!);
      if (!pending || pending.token !== r[2]) return notFound(res, 10062, 'Unknown interaction');
      if (pending.answered)
        return json(res, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      pending.answered = true;
      const data = b.data ?? {};
      answers.push({ interactionId: r[1]!, type: b.type, data, ephemeral: ((data.flags ?? 0) & 64) === 64 });
      if (b.type === 7 && pending.messageId) {
        const msg = messages.get(pending.messageId)!;
        if (typeof data.content === 'string') msg.content = data.content;
        if (data.components) msg.components = data.components;
        msg.edits.push(msg.content);
        msg.times.push(Date.now());
      }
      wake();
      return json(res, 204);
    }
    if ((r = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/.exec(path)) && method === 'PATCH') {
      const pending = [...interactions.values()].find((i) => i.token === r![2]);
      if (!pending) return notFound(res, 10015, 'Unknown Webhook');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      answers.push({ interactionId: pending.id, type: -1, data: b, ephemeral: false });
      wake();
      return json(res, 200, {
        id: snowflake(),
        channel_id: pending.channelId,
        author: bot,
        content: b.content ?? '',
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        type: 20,
        flags: 0,
        components: [],
      });
    }
    return notFound(res);
  }

  const interactions = new Map<
    string,
    { id: string; token: string; channelId: string; messageId?: string; answered: boolean }
  >();

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => json(res, 500, { message: err.message, code: 0 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const gw = new FakeGateway({
    server,
    path: '/gateway',
    url: () => `ws://127.0.0.1:${port}/gateway`,
    token,
    heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 5_000,
    ready: () => ({
      user: bot,
      application: { id: appId, flags: 0 },
      guilds: [guildCreate(channels.values())],
    }),
  });
  gateway.current = gw;

  /** Puts bytes on the CDN stand-in; returns their URL. */
  function upload(name: string, data: Buffer, type: string): string {
    const p = `/attachments/${snowflake()}/${encodeURIComponent(name)}`;
    cdn.set(p, { data, type });
    return `http://127.0.0.1:${port}${p}`;
  }

  /** The DM channel of a user (created on first use). */
  function dmChannel(u: FakeUser): string {
    const id = `6${u.id.slice(1)}`;
    if (!channels.has(id)) channels.set(id, { id, type: 1, recipients: [userObj(u)] });
    return id;
  }

  function channelPayload(channelId: string) {
    const ch = channels.get(channelId);
    if (!ch) throw new Error(`no channel ${channelId} in the fake`);
    return ch;
  }

  return {
    /** For `api_base`: `http://127.0.0.1:<port>/api`. */
    url: `http://127.0.0.1:${port}/api`,
    /** The gateway's URL (also what `GET /gateway/bot` names). */
    gatewayUrl: `ws://127.0.0.1:${port}/gateway`,
    token,
    bot,
    appId,
    guildId,
    /** The guild's text channel `#general`. */
    generalId: GENERAL_ID,
    calls,
    /** Paths of attachment downloads (`/attachments/…`) the bot made, in order. */
    downloads,
    messages,
    answers,
    gateway: gw,
    /** Adds a public thread under `#general` (before the bot connects: it is in GUILD_CREATE). */
    addThread(name: string): string {
      const id = snowflake();
      channels.set(id, { id, type: 11, name, parent_id: GENERAL_ID, guild_id: guildId });
      gw.dispatch('THREAD_CREATE', { ...threadObj(channels.get(id)!), newly_created: true });
      return id;
    },
    /** A DM channel id of `user`. */
    dmChannel,
    /** Puts bytes on the CDN stand-in; returns their URL. */
    upload,
    /**
     * A user's message, dispatched as MESSAGE_CREATE (in a DM when `channelId` is absent).
     * @returns the message id.
     */
    userMessage(m: {
      user: FakeUser;
      content: string;
      channelId?: string;
      mentionBot?: boolean;
      replyTo?: string;
      attachments?: Array<{ name: string; data: Buffer; type: string }>;
    }): string {
      const channelId = m.channelId ?? dmChannel(m.user);
      const ch = channelPayload(channelId);
      const id = snowflake();
      const replied = m.replyTo ? messages.get(m.replyTo) : undefined;
      const payload = userMessageObj({
        id,
        channel: ch,
        user: m.user,
        content: m.content,
        mentionBot: m.mentionBot ?? false,
        attachments: (m.attachments ?? []).map((a) => ({
          name: a.name,
          size: a.data.length,
          type: a.type,
          url: upload(a.name, a.data, a.type),
        })),
        ...(replied ? { replied: messageObj(replied) } : {}),
      });
      userMessages.push(payload);
      gw.dispatch('MESSAGE_CREATE', payload);
      return id;
    },
    /** A press of a button (`customId`) on the bot's message `messageId`, dispatched as INTERACTION_CREATE. */
    pressButton(p: { user: FakeUser; messageId: string; customId: string }): string {
      const msg = messages.get(p.messageId);
      if (!msg) throw new Error(`no bot message ${p.messageId}`);
      return interaction(p.user, msg.channel_id, 3, { custom_id: p.customId, component_type: 2 }, msg.id);
    },
    /** A slash command, dispatched as INTERACTION_CREATE (type 2) in a DM unless `channelId` is given. */
    slashCommand(c: {
      user: FakeUser;
      name: string;
      options?: Record<string, string>;
      channelId?: string;
    }): string {
      const channelId = c.channelId ?? dmChannel(c.user);
      return interaction(c.user, channelId, 2, {
        id: snowflake(),
        name: c.name,
        type: 1,
        ...(c.options
          ? { options: Object.entries(c.options).map(([name, value]) => ({ name, type: 3, value })) }
          : {}),
      });
    },
    /** Revokes the bot token (as a reset in the developer portal does): REST 401, gateway 4004. */
    revokeToken(): void {
      gw.revoked = true;
      gw.drop(4004);
    },
    /** Resolves with the first REST call (past or future) matching `pred`. */
    async waitForCall(pred: (c: RestCall) => boolean, what: string, timeoutMs = 20_000): Promise<RestCall> {
      return waitUntil(() => calls.find(pred), what, timeoutMs);
    },
    /** Resolves with the first truthy value of `probe`, checked on every REST call. */
    waitUntil,
    async close(): Promise<void> {
      gw.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  function interaction(
    u: FakeUser,
    channelId: string,
    type: number,
    data: object,
    messageId?: string,
  ): string {
    const ch = channelPayload(channelId);
    const id = snowflake();
    const itoken = `itoken-${id}`;
    interactions.set(id, {
      id,
      token: itoken,
      channelId,
      ...(messageId ? { messageId } : {}),
      answered: false,
    });
    gw.dispatch(
      'INTERACTION_CREATE',
      interactionObj({
        id,
        token: itoken,
        type,
        data,
        channel: ch,
        user: u,
        ...(messageId ? { message: messageObj(messages.get(messageId)!) } : {}),
      }),
    );
    return id;
  }

  async function waitUntil<T>(
    probe: () => T | undefined | false,
    what: string,
    timeoutMs = 20_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; calls: ${calls
            .map((c) => `${c.method} ${c.path}`)
            .slice(-15)
            .join(', ')}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(done, 100);
        function done(): void {
          clearTimeout(t);
          waiters.delete(done);
          r();
        }
        waiters.add(done);
      });
    }
  }
}
