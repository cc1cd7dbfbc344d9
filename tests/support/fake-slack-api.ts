/**
 * The Web API half of the Slack stand-in (tests/support/fake-slack.ts): the HTTP methods the
 * Slack adapter and Bolt call, answered as slack.com answers them — `POST /api/<method>` with a
 * form-encoded body (nested values as JSON strings) and the token in `Authorization: Bearer`,
 * replies `{ok: true, …}` or `{ok: false, error}` with HTTP 200. Also the upload URL of the file
 * upload flow (multipart, as `@slack/web-api` posts it) and `url_private` downloads (the bot token
 * required). Every call is recorded with its parameters and token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** One recorded Web API call. */
export interface SlackCall {
  method: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  params: any;
  /** The bearer token it carried ('' when none). */
  token: string;
  at: number;
}

/** A message the bot posted (edits update it). */
export interface SlackBotMessage {
  channel: string;
  ts: string;
  text: string;
  thread_ts?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  blocks?: any[];
  /** chat.update calls on it, with their times (ms). */
  updates: number[];
}

/** A file the bot uploaded through the upload flow. */
export interface SlackUpload {
  id: string;
  filename: string;
  length: number;
  data?: Buffer;
  /** Set by files.completeUploadExternal. */
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
  title?: string;
}

/** A file users "shared" that the bot may download (`url_private`). */
export interface SlackHostedFile {
  id: string;
  name: string;
  mimetype: string;
  data: Buffer;
}

/** State the API half shares with the socket half. */
export interface SlackApiState {
  origin: string;
  botToken: string;
  appToken: string;
  botUserId: string;
  botId: string;
  teamId: string;
  calls: SlackCall[];
  messages: Map<string, SlackBotMessage>;
  uploads: Map<string, SlackUpload>;
  files: Map<string, SlackHostedFile>;
  /** Display names of users (users.info). */
  users: Map<string, string>;
  /** The WebSocket URL apps.connections.open hands out. */
  socketUrl: () => string;
  /** apps.connections.open answers this error instead (e.g. `invalid_auth`) while set. */
  openError?: string;
  /** The bot token was revoked (bot methods answer `token_revoked`) while set. */
  botRevoked?: boolean;
  /** Next message ts (`<seconds>.<6 digits>`, increasing). */
  nextTs: () => string;
  wake: () => void;
}

const json = (res: ServerResponse, body: unknown, status = 200): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

/** Form fields as Slack reads them: a JSON-looking value (blocks, files) is parsed. */
function formParams(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parseQuery(raw))) {
    const s = Array.isArray(v) ? v[0]! : (v ?? '');
    out[k] = /^[[{]/.test(s) ? safeJson(s) : s;
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

const BOT_METHODS = new Set([
  'auth.test',
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'chat.delete',
  'reactions.add',
  'reactions.remove',
  'conversations.info',
  'users.info',
  'files.getUploadURLExternal',
  'files.completeUploadExternal',
]);

/** Handles one HTTP request of the API half; false when the path is not its. */
export async function handleSlackApi(
  s: SlackApiState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', s.origin);
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  if (req.method === 'GET' && url.pathname.startsWith('/files-pri/')) {
    const id = url.pathname.split('/')[2]?.split('-')[1] ?? '';
    const f = s.files.get(id);
    s.calls.push({ method: 'GET url_private', params: { path: url.pathname }, token, at: Date.now() });
    s.wake();
    // without the bot token Slack answers with its sign-in page, not the file
    if (!f || token !== s.botToken) {
      res.writeHead(token === s.botToken ? 404 : 302, { location: `${s.origin}/signin` });
      res.end();
      return true;
    }
    res.writeHead(200, { 'content-type': f.mimetype, 'content-length': f.data.length });
    res.end(f.data);
    return true;
  }
  const upload = /^\/upload\/v1\/(\w+)$/.exec(url.pathname);
  if (req.method === 'POST' && upload) {
    const body = await readBody(req);
    const u = s.uploads.get(upload[1]!);
    s.calls.push({
      method: 'POST upload_url',
      params: { id: upload[1], bytes: body.length },
      token,
      at: Date.now(),
    });
    s.wake();
    if (!u) return (res.writeHead(404).end(), true);
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    let part: Blob | undefined;
    form.forEach((v) => {
      if (typeof v !== 'string') part ??= v;
    });
    u.data = part ? Buffer.from(await (part as Blob).arrayBuffer()) : body;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${u.data.length}`);
    return true;
  }
  const m = /^\/api\/([\w.]+)$/.exec(url.pathname);
  if (req.method !== 'POST' || !m) return false;
  const method = m[1]!;
  const params = formParams((await readBody(req)).toString('utf8'));
  s.calls.push({ method, params, token, at: Date.now() });
  s.wake();
  json(res, answer(s, method, params, token));
  return true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function answer(s: SlackApiState, method: string, p: any, token: string): Record<string, unknown> {
  if (method === 'apps.connections.open') {
    if (!token) return { ok: false, error: 'not_authed' };
    if (token.startsWith('xoxb-')) return { ok: false, error: 'not_allowed_token_type' };
    if (token !== s.appToken || s.openError) return { ok: false, error: s.openError ?? 'invalid_auth' };
    return { ok: true, url: s.socketUrl() };
  }
  if (!BOT_METHODS.has(method)) return { ok: false, error: 'unknown_method' };
  if (!token) return { ok: false, error: 'not_authed' };
  if (token !== s.botToken) return { ok: false, error: 'invalid_auth' };
  if (s.botRevoked) return { ok: false, error: 'token_revoked' };
  switch (method) {
    case 'auth.test':
      return {
        ok: true,
        url: 'https://hermes-test.slack.com/',
        team: 'Hermes Test',
        user: 'hermes',
        team_id: s.teamId,
        user_id: s.botUserId,
        bot_id: s.botId,
      };
    case 'chat.postMessage': {
      if (!p.channel) return { ok: false, error: 'channel_not_found' };
      if (!p.text && !p.blocks) return { ok: false, error: 'no_text' };
      if (String(p.text ?? '').length > 40_000) return { ok: false, error: 'msg_too_long' };
      const msg: SlackBotMessage = {
        channel: String(p.channel),
        ts: s.nextTs(),
        text: String(p.text ?? ''),
        ...(p.thread_ts ? { thread_ts: String(p.thread_ts) } : {}),
        ...(p.blocks ? { blocks: p.blocks } : {}),
        updates: [],
      };
      s.messages.set(msg.ts, msg);
      return {
        ok: true,
        channel: msg.channel,
        ts: msg.ts,
        message: { type: 'message', user: s.botUserId, bot_id: s.botId, text: msg.text, ts: msg.ts },
      };
    }
    case 'chat.update': {
      const msg = s.messages.get(String(p.ts));
      if (!msg || msg.channel !== String(p.channel)) return { ok: false, error: 'message_not_found' };
      if (p.text !== undefined) msg.text = String(p.text);
      if (p.blocks !== undefined) msg.blocks = p.blocks;
      msg.updates.push(Date.now());
      return { ok: true, channel: msg.channel, ts: msg.ts, text: msg.text };
    }
    case 'chat.postEphemeral':
      if (!p.channel || !p.user) return { ok: false, error: 'channel_not_found' };
      return { ok: true, message_ts: s.nextTs() };
    case 'chat.delete':
      return s.messages.delete(String(p.ts)) ? { ok: true } : { ok: false, error: 'message_not_found' };
    case 'reactions.add':
    case 'reactions.remove':
      return p.channel && p.timestamp && p.name ? { ok: true } : { ok: false, error: 'invalid_arguments' };
    case 'conversations.info': {
      const id = String(p.channel ?? '');
      if (!id) return { ok: false, error: 'channel_not_found' };
      const im = id.startsWith('D');
      return {
        ok: true,
        channel: {
          id,
          ...(im ? { is_im: true, user: 'U0' } : { name: `chan-${id.toLowerCase()}`, is_channel: true }),
          is_private: id.startsWith('G'),
          topic: { value: im ? '' : 'where the team talks' },
          purpose: { value: '' },
        },
      };
    }
    case 'users.info': {
      const id = String(p.user ?? '');
      const name = s.users.get(id);
      if (!name) return { ok: false, error: 'user_not_found' };
      return {
        ok: true,
        user: {
          id,
          name: name.toLowerCase(),
          real_name: name,
          profile: { display_name: name, real_name: name },
        },
      };
    }
    case 'files.getUploadURLExternal': {
      if (!p.filename || !p.length) return { ok: false, error: 'invalid_arguments' };
      const id = `F${String(s.uploads.size + 1).padStart(6, '0')}`;
      s.uploads.set(id, { id, filename: String(p.filename), length: Number(p.length) });
      return { ok: true, upload_url: `${s.origin}/upload/v1/${id}`, file_id: id };
    }
    case 'files.completeUploadExternal': {
      const files = (Array.isArray(p.files) ? p.files : []) as Array<{ id: string; title?: string }>;
      const done = files.map((f) => s.uploads.get(f.id));
      if (!files.length || done.some((u) => !u?.data)) return { ok: false, error: 'file_not_found' };
      for (const [i, u] of done.entries()) {
        Object.assign(u!, {
          ...(p.channel_id ? { channel: String(p.channel_id) } : {}),
          ...(p.thread_ts ? { thread_ts: String(p.thread_ts) } : {}),
          ...(p.initial_comment ? { initial_comment: String(p.initial_comment) } : {}),
          ...(files[i]!.title ? { title: files[i]!.title } : {}),
        });
      }
      return {
        ok: true,
        files: done.map((u) => ({ id: u!.id, name: u!.filename, title: u!.title ?? u!.filename })),
      };
    }
  }
  return { ok: false, error: 'unknown_method' };
}
