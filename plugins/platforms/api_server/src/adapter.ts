/**
 * The OpenAI-compatible API server: `POST /v1/chat/completions` (streaming and not) and
 * `GET /v1/models`, on loopback only, every request authenticated with `Authorization: Bearer
 * <API_SERVER_KEY>` (constant-time compare), so other tools can use the agent as a model.
 *
 * - Conversation: the `X-Hermes-Conversation` header, else the body's `user`, names the chat; each
 *   maps to its own agent session (the session keeps the history, so only the last `user`
 *   message of `messages` is taken as the new turn). Without either, every request is a fresh
 *   one-off conversation. Requests of one conversation run one after another.
 * - The answer is what the pipeline sends to the chat during the request; with `stream: true` the
 *   turn's text deltas are sent as they arrive (`onTurnEvent`) and the final reply is not
 *   repeated.
 * - A request without a conversation is ephemeral: once answered, its live session is unloaded and
 *   (unless `platforms.api_server.store: true`) its stored transcript deleted (adapter-host.ts).
 * - A client that disconnects before its answer is complete stops its turn: the adapter sends
 *   the conversation's `/stop` (again once if the turn only started after the first one).
 * - Approvals and clarify questions cannot be asked over this API: they are answered at once
 *   (deny / "no answer"), unless a terminal attached to the session answers first.
 */
import { randomBytes, randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ApprovalPrompt,
  type ChatInfo,
  type ClarifyPrompt,
  type TurnEvent,
  listenOn,
  mayBecomeSilence,
  PlatformAdapter,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { chunk, completion, contentText, errorBody, sse, type AnswerMeta } from './openai-wire.js';

/** Largest request body accepted, bytes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Settings of the server. */
export interface ApiServerSettings {
  host: string;
  /** 0: any free port (read `port` after connect). */
  port: number;
  /** The bearer key clients must send. */
  key: string;
  /** Model id the API reports. */
  modelName: string;
}

interface Pending {
  meta: AnswerMeta;
  res: ServerResponse;
  stream: boolean;
  texts: string[];
  streamed: string;
  /** Streamed text not sent yet: the reply so far could still be a silence marker. */
  held: string;
  done: boolean;
  /** The client went away before the answer was complete. */
  abandoned?: boolean;
  /** `/stop` was sent a second time (the turn started after the first). */
  restopped?: boolean;
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** The API server adapter. */
export class ApiServerAdapter extends PlatformAdapter {
  private server: Server | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly chains = new Map<string, Promise<void>>();
  /** Conversations whose `/stop` was sent for a client that went away: its reply goes nowhere. */
  private readonly stopping = new Set<string>();
  private readonly keyDigest: Buffer;
  /** The port listened on (after connect). */
  port = 0;

  constructor(
    private readonly settings: ApiServerSettings,
    opts: { log?: (line: string) => void } = {},
  ) {
    super('api_server', { maxMessageLength: 0, ...(opts.log ? { log: opts.log } : {}) });
    this.keyDigest = digest(settings.key);
  }

  async connect(): Promise<void> {
    const server = createServer((req, res) => {
      this.route(req, res).catch((err: Error) => {
        this.log(`request failed: ${err.message}`);
        sendJson(res, 500, errorBody('internal error', 'server_error'));
      });
    });
    this.server = server;
    await listenOn(server, this.settings.port, this.settings.host);
    this.port = (server.address() as AddressInfo).port;
    this.log(`listening on http://${this.settings.host}:${this.port}/v1`);
  }

  async disconnect(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    for (const p of this.pending.values()) this.finish(p, 'the server is shutting down');
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections?.();
    });
  }

  private authorized(req: IncomingMessage): boolean {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return !!m && timingSafeEqual(digest(m[1]!.trim()), this.keyDigest);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (!this.authorized(req)) {
      sendJson(res, 401, errorBody('invalid or missing API key', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: this.settings.modelName, object: 'model', created: 0, owned_by: 'hermes' }],
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      await this.chat(req, res);
      return;
    }
    sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, 'invalid_request_error', 'not_found'));
  }

  private async readBody(req: IncomingMessage): Promise<unknown> {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const p of req) {
      size += (p as Buffer).length;
      if (size > MAX_BODY_BYTES) throw Object.assign(new Error('body too large'), { status: 413 });
      parts.push(p as Buffer);
    }
    try {
      return JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      throw Object.assign(new Error('the body is not JSON'), { status: 400 });
    }
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: { messages?: unknown; stream?: unknown; user?: unknown; model?: unknown };
    try {
      body = (await this.readBody(req)) as typeof body;
    } catch (err) {
      const e = err as Error & { status?: number };
      sendJson(res, e.status ?? 400, errorBody(e.message, 'invalid_request_error'));
      return;
    }
    const messages = Array.isArray(body?.messages)
      ? (body.messages as Array<{ role?: unknown; content?: unknown }>)
      : [];
    const last = [...messages].reverse().find((m) => m?.role === 'user');
    const text = last ? contentText(last.content).trim() : '';
    if (!text) {
      sendJson(
        res,
        400,
        errorBody('messages must contain a user message with text', 'invalid_request_error'),
      );
      return;
    }
    const header = req.headers['x-hermes-conversation'];
    const named =
      (typeof header === 'string' && header.trim()) || (typeof body.user === 'string' && body.user.trim());
    const conversation = (named || `once-${randomUUID()}`).slice(0, 200);
    const stream = body.stream === true;
    const meta: AnswerMeta = {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      model: typeof body.model === 'string' && body.model ? body.model : this.settings.modelName,
      created: Math.floor(Date.now() / 1000),
    };
    // one request at a time per conversation
    const previous = this.chains.get(conversation) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chain = previous.then(() => mine);
    this.chains.set(conversation, chain);
    await previous;
    const p: Pending = { meta, res, stream, texts: [], streamed: '', held: '', done: false };
    try {
      if (res.destroyed) return;
      this.pending.set(conversation, p);
      res.on('close', () => {
        if (p.done) return;
        p.done = true;
        p.abandoned = true;
        this.stopTurn(conversation);
      });
      if (stream) {
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
        });
        res.write(sse(chunk(meta, { role: 'assistant', content: '' })));
      }
      await this.emitMessage({
        source: { platform: 'api_server', chatType: 'dm', chatId: conversation, userId: conversation },
        text,
        ...(named ? {} : { ephemeral: true }),
      });
      this.finish(p);
    } finally {
      if (this.pending.get(conversation) === p) this.pending.delete(conversation);
      release();
      if (this.chains.get(conversation) === chain) this.chains.delete(conversation);
    }
  }

  /** Stops the conversation's running turn as a chat's `/stop` does. */
  private stopTurn(conversation: string): void {
    this.stopping.add(conversation);
    void this.emitMessage({
      source: { platform: 'api_server', chatType: 'dm', chatId: conversation, userId: conversation },
      text: '/stop',
    }).finally(() => this.stopping.delete(conversation));
  }

  private finish(p: Pending, error?: string): void {
    if (p.done) return;
    p.done = true;
    if (p.res.destroyed) return;
    if (p.stream) {
      if (error) p.res.write(sse(chunk(p.meta, { content: `\n[${error}]` })));
      p.res.write(sse(chunk(p.meta, {}, 'stop')));
      p.res.write(sse('[DONE]'));
      p.res.end();
    } else if (error) {
      sendJson(p.res, 503, errorBody(error, 'server_error'));
    } else {
      sendJson(p.res, 200, completion(p.meta, p.texts.join('\n\n')));
    }
  }

  override onTurnEvent(chatId: string, event: TurnEvent): void {
    const p = this.pending.get(chatId);
    if (p?.abandoned && !p.restopped) {
      // the turn started after the first /stop found nothing running
      p.restopped = true;
      this.stopTurn(chatId);
      return;
    }
    if (!p?.stream || p.done || p.res.destroyed) return;
    if (event.type === 'message.delta' && typeof event.payload.text === 'string' && event.payload.text) {
      p.held += event.payload.text;
      // held back while the reply so far could still be a silence marker (never sent, then withdrawn)
      if (mayBecomeSilence(p.streamed + p.held)) return;
      p.streamed += p.held;
      p.res.write(sse(chunk(p.meta, { content: p.held })));
      p.held = '';
    }
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    const p = this.pending.get(chatId);
    if (p?.abandoned || (!p && this.stopping.has(chatId))) return { ok: true }; // the client is gone
    if (!p || p.done) return { ok: false, error: 'no request is waiting for this conversation' };
    if (!p.stream) {
      p.texts.push(text);
      return { ok: true };
    }
    let out = text;
    if (opts?.kind === 'reply' && p.streamed) {
      // the reply was streamed already: send only what was not (a footer), else nothing
      out = text.startsWith(p.streamed.trimEnd()) ? text.slice(p.streamed.trimEnd().length) : '';
    } else if (p.streamed || p.texts.length > 0) {
      out = `\n\n${text}`;
    }
    p.texts.push(text);
    if (out && !p.res.destroyed) p.res.write(sse(chunk(p.meta, { content: out })));
    return { ok: true };
  }

  override async sendApproval(chatId: string, prompt: ApprovalPrompt): Promise<SendResult> {
    await this.send(
      chatId,
      `[The command "${prompt.command}" needs approval, which this API cannot ask for: denied.]`,
    );
    void this.emitButton({
      source: { platform: 'api_server', chatType: 'dm', chatId, userId: chatId },
      requestId: prompt.requestId,
      value: 'deny',
    });
    return { ok: true };
  }

  override async sendClarify(chatId: string, prompt: ClarifyPrompt): Promise<SendResult> {
    void this.emitButton({
      source: { platform: 'api_server', chatType: 'dm', chatId, userId: chatId },
      requestId: prompt.requestId,
      value: 'The user cannot answer questions through this API; continue with your best judgement.',
    });
    return { ok: true };
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return { name: chatId, type: 'dm' };
  }
}
