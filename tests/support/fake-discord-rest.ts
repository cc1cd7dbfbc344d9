/**
 * The REST side of the local Discord (fake-discord.ts): the routes discord.js calls under
 * `/api/v10` — `GET /gateway/bot`, `GET /users/@me`, channel messages (create as JSON or multipart
 * with attachments, edit, history after an id), typing, `GET /channels/{id}`, application
 * commands (bulk overwrite, global and per guild), interaction callbacks and the original-response
 * webhook — with Discord's error bodies (`{message, code}`), every call recorded; and attachment
 * downloads under `/attachments/` (a CDN stand-in). The state it serves is the fake's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGateway } from './fake-discord-gateway.js';
import {
  snowflake,
  type BOT_USER,
  type BotMessage,
  type FakeChannel,
  type botMessageObj,
  type userMessageObj,
} from './fake-discord-payloads.js';

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

/** An interaction dispatched to the bot, until it is answered once. */
export interface PendingInteraction {
  id: string;
  token: string;
  channelId: string;
  /** The bot message whose button was pressed. */
  messageId?: string;
  answered: boolean;
}

/** What the fake Discord holds; the REST routes read and change it. */
export interface DiscordState {
  /** The bot token REST calls must carry (`Bot <token>`). */
  token: string;
  /** The bot's user (`GET /users/@me`). */
  bot: typeof BOT_USER;
  /** The application id slash commands are registered under. */
  appId: string;
  /** Every REST call, in order. */
  calls: RestCall[];
  /** The bot's messages by id. */
  messages: Map<string, BotMessage>;
  /** Answers to interactions, in order. */
  answers: InteractionAnswer[];
  /** Bytes of attachments users sent, by path under /attachments. */
  cdn: Map<string, { data: Buffer; type: string }>;
  /** Paths under /attachments the bot downloaded, in order. */
  downloads: string[];
  channels: Map<string, FakeChannel>;
  /** Message ids by `<channel>:<nonce>` (a create with `enforce_nonce` is answered once). */
  nonces: Map<string, string>;
  /** Every user message (as MESSAGE_CREATE carried it), for the channel history route. */
  userMessages: Array<ReturnType<typeof userMessageObj>>;
  /** Interactions dispatched, by id. */
  interactions: Map<string, PendingInteraction>;
  /** The listening port. */
  port(): number;
  /** The gateway, once it runs (a revoked token answers 401). */
  gateway(): FakeGateway | undefined;
  /** Wakes every `waitUntil` to check again. */
  wake(): void;
  /** A bot message as Discord's API shows it. */
  messageObj(m: BotMessage): ReturnType<typeof botMessageObj>;
}

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

/** Reads a request's JSON body, or a multipart body's `payload_json` and files. */
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

/** Stores a bot message, or says why Discord would refuse it (too long, empty). */
function createMessage(
  s: DiscordState,
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
  s.messages.set(m.id, m);
  return m;
}

/** Edits a bot message (its content when given as a string, its components when given); records the edit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function applyEdit(msg: BotMessage, data: any): void {
  if (typeof data.content === 'string') msg.content = data.content;
  if (data.components) msg.components = data.components;
  msg.edits.push(msg.content);
  msg.times.push(Date.now());
}

/** The request handler of the REST routes and the CDN stand-in, on `s`. */
export function discordRest(s: DiscordState): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { calls, messages, channels } = s;
  return async function handle(req, res) {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${s.port()}`);
    if (req.method === 'GET' && url.pathname.startsWith('/attachments/')) {
      s.downloads.push(url.pathname);
      const f =
        s.cdn.get(url.pathname) ??
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
    s.wake();
    const isInteraction = path.startsWith('/interactions/') || path.startsWith('/webhooks/');
    if (!isInteraction && (req.headers.authorization !== `Bot ${s.token}` || s.gateway()?.revoked))
      return json(res, 401, { message: '401: Unauthorized', code: 0 });
    let r: RegExpExecArray | null;
    if (method === 'GET' && path === '/gateway/bot')
      return json(res, 200, {
        url: `ws://127.0.0.1:${s.port()}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    if (method === 'GET' && path === '/users/@me') return json(res, 200, s.bot);
    if ((r = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'POST') {
      const channelId = r[1]!;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      if (b.enforce_nonce && b.nonce) {
        const seen = s.nonces.get(`${channelId}:${b.nonce}`);
        if (seen && messages.has(seen)) return json(res, 200, s.messageObj(messages.get(seen)!));
      }
      const made = createMessage(s, channelId, b, files);
      if ('error' in made) return json(res, 400, { message: made.message, code: made.error });
      if (b.nonce) s.nonces.set(`${channelId}:${b.nonce}`, made.id);
      s.gateway()?.dispatch('MESSAGE_CREATE', s.messageObj(made));
      return json(res, 200, s.messageObj(made));
    }
    if ((r = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const msg = messages.get(r[2]!);
      if (!msg || msg.channel_id !== r[1]) return notFound(res, 10008, 'Unknown Message');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      if (typeof b.content === 'string' && b.content.length > 2000)
        return json(res, 400, { message: 'Invalid Form Body', code: 50035 });
      applyEdit(msg, b);
      return json(res, 200, s.messageObj(msg));
    }
    if ((r = /^\/channels\/(\d+)\/typing$/.exec(path)) && method === 'POST') return json(res, 204);
    if ((r = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'GET') {
      // the channel's history after `after`, newest first (Discord's order), at most `limit`
      const channelId = r[1]!;
      const after = BigInt(url.searchParams.get('after') ?? '0');
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 50));
      const all = [
        ...s.userMessages.filter((m) => m.channel_id === channelId),
        ...[...messages.values()].filter((m) => m.channel_id === channelId).map(s.messageObj),
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
      if (r[1] !== s.appId) return json(res, 403, { message: 'Missing Access', code: 50001 });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const defs = (body as any[]) ?? [];
      return json(
        res,
        200,
        defs.map((d) => ({
          ...d,
          id: snowflake(),
          application_id: s.appId,
          version: '1',
          ...(r![2] ? { guild_id: r![2] } : {}),
        })),
      );
    }
    if ((r = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      const pending = s.interactions.get(r[1]!);
      if (!pending || pending.token !== r[2]) return notFound(res, 10062, 'Unknown interaction');
      if (pending.answered)
        return json(res, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      pending.answered = true;
      const data = b.data ?? {};
      s.answers.push({
        interactionId: r[1]!,
        type: b.type,
        data,
        ephemeral: ((data.flags ?? 0) & 64) === 64,
      });
      if (b.type === 7 && pending.messageId) applyEdit(messages.get(pending.messageId)!, data);
      s.wake();
      return json(res, 204);
    }
    if ((r = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/.exec(path)) && method === 'PATCH') {
      const pending = [...s.interactions.values()].find((i) => i.token === r![2]);
      if (!pending) return notFound(res, 10015, 'Unknown Webhook');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const b = (body ?? {}) as any;
      s.answers.push({ interactionId: pending.id, type: -1, data: b, ephemeral: false });
      s.wake();
      return json(res, 200, {
        id: snowflake(),
        channel_id: pending.channelId,
        author: s.bot,
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
  };
}

/** Answers a request that threw with a 500 and Discord's error body. */
export function restFailure(res: ServerResponse, err: Error): void {
  json(res, 500, { message: err.message, code: 0 });
}
