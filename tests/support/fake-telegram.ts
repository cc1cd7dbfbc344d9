/**
 * A local Telegram Bot API server for tests (`node:http`, 127.0.0.1, free port). It implements
 * the methods the adapter uses — getMe, deleteWebhook, getUpdates (long polling), sendMessage,
 * editMessageText, sendChatAction, answerCallbackQuery, getChat, getFile and sendDocument
 * (multipart/form-data) — with Telegram's envelope `{ok, result}` / `{ok: false, error_code,
 * description}`, and the file download path `GET /file/bot<token>/<file_path>`. A test plays
 * users: post a message (with a photo, document, voice note or audio), press an inline button,
 * and wait for what the bot called.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded Bot API call. */
export interface BotCall {
  method: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  params: any;
  at: number;
}

/** A message the bot holds (for edits). */
export interface BotMessage {
  message_id: number;
  chat_id: string;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  reply_markup?: any;
  edits: number;
  /** A document the bot uploaded (`sendDocument`); `text` is then its caption. */
  document?: { name: string; mime: string; data: Buffer };
}

/** Media a test user attaches to a message. */
export interface UserMedia {
  /** A photo, served in the given sizes (smallest first, like Telegram); `data` per size. */
  photo?: Array<{ width: number; height: number; data: Buffer }>;
  document?: { name: string; mime: string; data: Buffer };
  voice?: { data: Buffer; duration?: number };
  audio?: { name: string; mime: string; data: Buffer };
}

/** A running fake. */
export interface FakeTelegram {
  /** Base URL for `api_base`, e.g. `http://127.0.0.1:40001`. */
  url: string;
  token: string;
  calls: BotCall[];
  /** Messages the bot sent, by id. */
  sent: Map<number, BotMessage>;
  /** The text of each message the bot sent to chat `chatId`, in order (edits included as they stand). */
  textsTo(chatId: number): string[];
  /** Queues an incoming text message from a user. */
  userMessage(m: {
    chatId: number;
    userId: number;
    name: string;
    /** The text, or the caption of `media`. */
    text: string;
    chatType?: 'private' | 'group' | 'supergroup';
    title?: string;
    threadId?: number;
    media?: UserMedia;
  }): void;
  /**
   * Delivers the last user message again as a new update (the same message: chat, message id,
   * media), as the bot gets it after a crash before its poll offset was committed.
   */
  redeliverLast(): void;
  /** Files served by `getFile` + download, by file id (`downloads` counts the GETs). */
  files: Map<string, { path: string; data: Buffer; downloads: number }>;
  /**
   * While true, a file download sends its headers and half of its bytes, then stalls (a slow
   * network: the connection stays open until the client goes away or the fake closes).
   */
  stallDownloads: boolean;
  /** While true, every Bot API call is answered 502 (Telegram unreachable: the bot cannot connect). */
  unavailable: boolean;
  /** Queues a press of an inline button (`data` is the button's callback_data). */
  pressButton(m: {
    chatId: number;
    userId: number;
    name: string;
    messageId: number;
    data: string;
    chatType?: 'private' | 'group' | 'supergroup';
  }): void;
  /** Resolves with the first call (past or future) matching `pred`. */
  waitForCall(pred: (c: BotCall) => boolean, what: string, timeoutMs?: number): Promise<BotCall>;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port. */
export async function startFakeTelegram(token = '123456:TEST-token-abcdefghijklmnop'): Promise<FakeTelegram> {
  const calls: BotCall[] = [];
  const sent = new Map<number, BotMessage>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const updates: Array<{ update_id: number; [k: string]: any }> = [];
  let updateId = 100;
  let messageId = 1000;
  let callbackId = 1;
  const files = new Map<string, { path: string; data: Buffer; downloads: number }>();
  let fileSeq = 1;
  /** Registers bytes to serve; returns Telegram's file fields. */
  const serve = (data: Buffer, folder: string, ext: string) => {
    const id = `file-${fileSeq++}`;
    files.set(id, { path: `${folder}/file_${fileSeq}.${ext}`, data, downloads: 0 });
    return { file_id: id, file_unique_id: `u${id}`, file_size: data.length };
  };
  const pollers = new Set<() => void>();
  const callWaiters = new Set<() => void>();
  const me = { id: 4242, is_bot: true, first_name: 'Hermes', username: 'hermes_test_bot' };

  const wake = (): void => {
    for (const w of [...pollers]) w();
    for (const w of [...callWaiters]) w();
  };
  const chat = (id: number, type: string, title?: string) =>
    type === 'private' ? { id, type, first_name: 'user' } : { id, type, title: title ?? 'Group' };

  const ok = (res: ServerResponse, result: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, result }));
  };
  const fail = (res: ServerResponse, code: number, description: string): void => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: false, error_code: code, description }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const dl = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.url ?? '');
    if (dl && req.method === 'GET') {
      if (dl[1] !== token) return fail(res, 401, 'Unauthorized');
      const f = [...files.values()].find((x) => x.path === dl[2]);
      if (!f) return fail(res, 404, 'Not Found');
      f.downloads++;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': f.data.length });
      if (fake.stallDownloads) return void res.write(f.data.subarray(0, f.data.length >> 1));
      return void res.end(f.data);
    }
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!m) return fail(res, 404, 'Not Found');
    if (fake.unavailable) return fail(res, 502, 'Bad Gateway');
    if (m[1] !== token) return fail(res, 401, 'Unauthorized');
    const method = m[2]!;
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const body = Buffer.concat(parts);
    const type = String(req.headers['content-type'] ?? '');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let params: any = {};
    if (type.startsWith('multipart/form-data')) {
      // the multipart body as Telegram reads it: text fields, and the file part as {name, mime, data}
      const form = await new Response(body, { headers: { 'content-type': type } }).formData();
      const fields: Array<[string, FormDataEntryValue]> = [];
      form.forEach((v, k) => void fields.push([k, v]));
      for (const [k, v] of fields)
        params[k] =
          typeof v === 'string'
            ? v
            : { name: v.name, mime: v.type, data: Buffer.from(await v.arrayBuffer()) };
    } else if (body.length) params = JSON.parse(body.toString('utf8'));
    calls.push({ method, params, at: Date.now() });
    wake();
    switch (method) {
      case 'getMe':
        return ok(res, me);
      case 'deleteWebhook':
      case 'sendChatAction':
      case 'answerCallbackQuery':
        return ok(res, true);
      case 'getChat':
        return ok(res, chat(Number(params.chat_id), Number(params.chat_id) > 0 ? 'private' : 'supergroup'));
      case 'getUpdates': {
        const offset = Number(params.offset ?? 0);
        const deadline = Date.now() + Math.min(Number(params.timeout ?? 0), 30) * 1000;
        for (;;) {
          const ready = updates.filter((u) => u.update_id >= offset);
          if (ready.length > 0 || Date.now() >= deadline || res.destroyed) return ok(res, ready);
          await new Promise<void>((r) => {
            const t = setTimeout(done, Math.max(0, deadline - Date.now()));
            function done(): void {
              clearTimeout(t);
              pollers.delete(done);
              r();
            }
            pollers.add(done);
            res.once('close', done);
          });
        }
      }
      case 'sendMessage': {
        if (typeof params.text !== 'string' || !params.text)
          return fail(res, 400, 'Bad Request: message text is empty');
        if (params.text.length > 4096) return fail(res, 400, 'Bad Request: message is too long');
        const msg: BotMessage = {
          message_id: ++messageId,
          chat_id: String(params.chat_id),
          text: params.text,
          reply_markup: params.reply_markup,
          edits: 0,
        };
        sent.set(msg.message_id, msg);
        return ok(res, {
          message_id: msg.message_id,
          date: 0,
          chat: chat(Number(params.chat_id), 'private'),
          text: msg.text,
        });
      }
      case 'getFile': {
        const f = files.get(String(params.file_id));
        if (!f) return fail(res, 400, 'Bad Request: invalid file_id');
        return ok(res, { file_id: params.file_id, file_size: f.data.length, file_path: f.path });
      }
      case 'sendDocument': {
        const doc = params.document;
        if (!doc || typeof doc !== 'object')
          return fail(res, 400, 'Bad Request: there is no document in the request');
        if (params.caption && String(params.caption).length > 1024)
          return fail(res, 400, 'Bad Request: message caption is too long');
        const msg: BotMessage = {
          message_id: ++messageId,
          chat_id: String(params.chat_id),
          text: String(params.caption ?? ''),
          edits: 0,
          document: doc,
        };
        sent.set(msg.message_id, msg);
        return ok(res, {
          message_id: msg.message_id,
          date: 0,
          chat: chat(Number(params.chat_id), 'private'),
          document: { file_id: 'up', file_name: doc.name, mime_type: doc.mime, file_size: doc.data.length },
          ...(msg.text ? { caption: msg.text } : {}),
        });
      }
      case 'editMessageText': {
        const msg = sent.get(Number(params.message_id));
        if (!msg || msg.chat_id !== String(params.chat_id))
          return fail(res, 400, 'Bad Request: message to edit not found');
        if (msg.text === params.text) return fail(res, 400, 'Bad Request: message is not modified');
        msg.text = params.text;
        msg.edits++;
        return ok(res, {
          message_id: msg.message_id,
          date: 0,
          chat: chat(Number(params.chat_id), 'private'),
          text: msg.text,
        });
      }
      default:
        return fail(res, 404, 'Not Found: method not found');
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => fail(res, 500, err.message));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  const fake: FakeTelegram = {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    sent,
    files,
    stallDownloads: false,
    unavailable: false,
    userMessage: ({ chatId, userId, name, text, chatType = 'private', title, threadId, media }) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const attached: Record<string, any> = {};
      if (media?.photo)
        attached.photo = media.photo.map((p) => ({
          ...serve(p.data, 'photos', 'jpg'),
          width: p.width,
          height: p.height,
        }));
      if (media?.document)
        attached.document = {
          ...serve(media.document.data, 'documents', 'bin'),
          file_name: media.document.name,
          mime_type: media.document.mime,
        };
      if (media?.voice)
        attached.voice = {
          ...serve(media.voice.data, 'voice', 'oga'),
          duration: media.voice.duration ?? 1,
          mime_type: 'audio/ogg',
        };
      if (media?.audio)
        attached.audio = {
          ...serve(media.audio.data, 'music', 'mp3'),
          file_name: media.audio.name,
          mime_type: media.audio.mime,
        };
      updates.push({
        update_id: ++updateId,
        message: {
          message_id: ++messageId,
          from: { id: userId, is_bot: false, first_name: name },
          chat: chat(chatId, chatType, title),
          date: Math.floor(Date.now() / 1000),
          ...(media ? (text ? { caption: text } : {}) : { text }),
          ...attached,
          ...(threadId ? { message_thread_id: threadId, is_topic_message: true } : {}),
        },
      });
      wake();
    },
    textsTo: (chatId) => [...sent.values()].filter((m) => m.chat_id === String(chatId)).map((m) => m.text),
    redeliverLast: () => {
      const last = updates.filter((u) => u.message).at(-1);
      if (!last) throw new Error('no user message to deliver again');
      updates.push({ update_id: ++updateId, message: last.message });
      wake();
    },
    pressButton: ({ chatId, userId, name, messageId: mid, data, chatType = 'private' }) => {
      updates.push({
        update_id: ++updateId,
        callback_query: {
          id: String(callbackId++),
          from: { id: userId, is_bot: false, first_name: name },
          message: {
            message_id: mid,
            chat: chat(chatId, chatType),
            date: 0,
            text: sent.get(mid)?.text ?? '',
          },
          data,
        },
      });
      wake();
    },
    waitForCall: async (pred, what, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.find(pred);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; calls: ${calls.map((c) => c.method).join(', ')}`);
        await new Promise<void>((r) => {
          const t = setTimeout(done, 200);
          function done(): void {
            clearTimeout(t);
            callWaiters.delete(done);
            r();
          }
          callWaiters.add(done);
        });
      }
    },
    close: async () => {
      for (const w of [...pollers]) w();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return fake;
}

/**
 * The first lines of a test config.yaml enabling Telegram against `tg`: `platforms.telegram` with
 * its Bot API base, a 2 s long poll and user 111 allowed. More `platforms.telegram` settings
 * (indented by four spaces) and other sections may follow in the same array.
 */
export function telegramConfigLines(tg: Pick<FakeTelegram, 'url'>): string[] {
  return [
    'platforms:',
    '  telegram:',
    '    enabled: true',
    `    api_base: ${tg.url}`,
    '    poll_timeout: 2',
    '    allowed_users: [111]',
  ];
}
