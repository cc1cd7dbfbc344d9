/**
 * The OpenAI-compatible API server: `POST /v1/chat/completions` (streaming and not),
 * `GET /v1/models`, `GET /v1/models/{id}` and `GET /v1/capabilities`, on loopback only, every
 * request but the liveness probe `GET /health` (also `/v1/health`) authenticated with
 * `Authorization: Bearer <API_SERVER_KEY>` (constant-time compare), so other tools can use the
 * agent as a model. docs/api-server.md is the user's guide.
 *
 * - Stateless by default: the request's `messages` are the conversation (chat-request.ts); each
 *   request is a one-off conversation whose live session is unloaded once answered and (unless
 *   `platforms.api_server.store: true`) its stored transcript deleted (tui-gateway's
 *   wire-platform.ts).
 * - The `X-Hermes-Session-Id` header (or the older `X-Hermes-Conversation`) names a stored
 *   conversation instead: its session keeps the history, so only the last user message is the
 *   new turn; the header is echoed on the answer. Requests of one conversation run one after
 *   another. `user` is only the end user's label, as in OpenAI's API.
 * - The answer is the turn's final reply; with `stream: true` the turn's text deltas are sent as
 *   they arrive, consecutive assistant messages separated by a blank line, tool progress as named
 *   `hermes.tool.progress` events, and with `stream_options.include_usage` a last chunk with the
 *   usage. Token counts are the model's, summed over the turn's model calls; the usage object
 *   adds OpenRouter's `cost` (USD) when every call had a known price, and
 *   `prompt_tokens_details.cached_tokens` when the provider reported cached tokens.
 * - Errors are OpenAI-shaped with real statuses (http.ts): a failed turn is a 500 (429 when the
 *   model refused for rate limits), a stopping daemon 503; in a stream already started, an
 *   `{error}` data event, which the `openai` client raises as an APIError.
 * - A client that disconnects before its answer is complete stops its turn: the adapter sends
 *   the conversation's `/stop` (again once if the turn only started after the first one).
 * - Approvals and clarify questions cannot be asked over this API: an approval is denied at once
 *   as `no_approver` (the model is told no one could approve it here, the caller's answer says
 *   so), a question is answered "no answer", unless a terminal attached to the session answers first.
 *
 * How an answer is written (streamed chunks, the final answer or error): answer.ts.
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
  PlatformAdapter,
  type SendOptions,
  type SendResult,
  type SeedMessage,
} from '@hermes/core';
import { finishAnswer, keepInterruptedResponse, writeText, writeTurnEvent } from './answer.js';
import { capabilities } from './catalog.js';
import { newPending, type Pending } from './pending.js';
import { checkAnswer, repairText } from './structured.js';
import type { ImageAttachmentInput } from '@hermes/core/protocol';
import { readChatRequest } from './chat-request.js';
import { MAX_NAME_CHARS } from './responses.js';
import { ResponseBuilder, readResponsesRequest } from './responses.js';
import { MemoryResponseStore, RESPONSE_TTL_MS, type ResponseStore } from './response-store.js';
import { ApiError, Cors, readJsonBody, sendError, sendJson, SSE_HEADERS, type ExtraHeaders } from './http.js';
import { chunk, sse, type AnswerMeta } from './openai-wire.js';

export { MAX_BODY_BYTES } from './http.js';

/** The text the pipeline sends for a failed turn starts with this (core pipeline-turn.ts). */
const TURN_FAILED_PREFIX = 'Sorry, something went wrong: ';
/** The notice the pipeline sends for a message that arrives while the daemon stops. */
const SHUTTING_DOWN = 'the daemon is shutting down';

/** Settings of the server. */
export interface ApiServerSettings {
  host: string;
  /** 0: any free port (read `port` after connect). */
  port: number;
  /** The bearer key clients must send. */
  key: string;
  /** Model id the API reports. */
  modelName: string;
  /** Browser origins allowed by CORS (exact, e.g. `http://localhost:3000`); default none. */
  corsOrigins?: readonly string[];
  /** Chat requests answered at once; more get 429 (default 10). */
  maxConcurrent?: number;
  /**
   * A stream gets an SSE comment (`: keepalive`, which clients skip) this often, so proxies and
   * clients with an idle timeout do not drop it while a tool runs quietly; ms, default 15 000.
   */
  keepaliveMs?: number;
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
  private readonly cors: Cors;
  /** Chat requests being answered or waiting for their conversation. */
  private active = 0;
  private readonly responses: ResponseStore;
  /** The port listened on (after connect). */
  port = 0;
  /** When the server was made, epoch seconds (the model's `created`). */
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(
    private readonly settings: ApiServerSettings,
    opts: { log?: (line: string) => void; responses?: ResponseStore } = {},
  ) {
    super('api_server', { maxMessageLength: 0, ...(opts.log ? { log: opts.log } : {}) });
    this.responses = opts.responses ?? new MemoryResponseStore();
    this.keyDigest = digest(settings.key);
    this.cors = new Cors(settings.corsOrigins ?? []);
  }

  async connect(): Promise<void> {
    this.responses.prune?.(Date.now() - RESPONSE_TTL_MS);
    const server = createServer((req, res) => {
      this.route(req, res).catch((err: Error) => {
        const e =
          err instanceof ApiError
            ? err
            : new ApiError(500, `internal error: ${err.message}`, null, 'internal_error', false);
        if (!(err instanceof ApiError)) this.log(`request failed: ${err.message}`);
        sendError(res, e, this.cors.headers(req));
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
    for (const p of this.pending.values())
      this.finish(p, { message: 'the server is shutting down', status: 503 });
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections?.();
    });
  }

  private authorized(req: IncomingMessage): boolean {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return !!m && timingSafeEqual(digest(m[1]!.trim()), this.keyDigest);
  }

  private model(id = this.settings.modelName): object {
    return { id, object: 'model', created: this.created, owned_by: 'hermes', root: id, parent: null };
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (req.method === 'OPTIONS') {
      this.cors.preflight(req, res);
      return;
    }
    const cors = this.cors.headers(req);
    if (req.method === 'GET' && (path === '/health' || path === '/v1/health')) {
      // a liveness probe for monitors and frontends: no key, nothing about the agent
      sendJson(res, 200, { status: 'ok', platform: 'hermes-agent' }, cors);
      return;
    }
    if (!this.authorized(req)) throw new ApiError(401, 'invalid or missing API key', null, 'invalid_api_key');
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: [this.model()] }, cors);
      return;
    }
    const model = /^\/v1\/models\/(.+)$/.exec(path);
    if (req.method === 'GET' && model) {
      const id = decodeURIComponent(model[1]!);
      if (id !== this.settings.modelName)
        throw new ApiError(404, `the model '${id}' does not exist`, 'model', 'model_not_found');
      sendJson(res, 200, this.model(), cors);
      return;
    }
    if (req.method === 'GET' && path === '/v1/capabilities') {
      sendJson(res, 200, capabilities(this.settings), cors);
      return;
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      await this.limited(() => this.chatTurn(req, res, cors));
      return;
    }
    if (req.method === 'POST' && path === '/v1/responses') {
      await this.limited(() => this.createResponse(req, res, cors));
      return;
    }
    const stored = /^\/v1\/responses\/([^/]+)$/.exec(path);
    if (stored && (req.method === 'GET' || req.method === 'DELETE')) {
      this.storedResponse(req.method, decodeURIComponent(stored[1]!), res, cors);
      return;
    }
    throw new ApiError(404, `no route ${req.method ?? ''} ${path}`, null, 'not_found');
  }

  /** Runs `turn` within the cap of concurrent requests (429 above it). */
  private async limited(turn: () => Promise<void>): Promise<void> {
    const max = this.settings.maxConcurrent ?? 10;
    if (this.active >= max)
      throw new ApiError(
        429,
        `too many requests at once (at most ${max})`,
        null,
        'rate_limit_exceeded',
        true,
      );
    this.active++;
    try {
      await turn();
    } finally {
      this.active--;
    }
  }

  private async chatTurn(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    const request = readChatRequest(await readJsonBody(req));
    const header = req.headers['x-hermes-session-id'] ?? req.headers['x-hermes-conversation'];
    const named = typeof header === 'string' ? header.trim() : '';
    // a longer name cut short could merge two clients' conversations
    if (named.length > MAX_NAME_CHARS)
      throw new ApiError(
        400,
        `X-Hermes-Session-Id is longer than ${MAX_NAME_CHARS} characters`,
        'X-Hermes-Session-Id',
      );
    const meta: AnswerMeta = {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      model: request.model ?? this.settings.modelName,
      created: Math.floor(Date.now() / 1000),
    };
    const p = newPending(res, meta, request.stream, request.includeUsage);
    p.extra = { ...cors, ...(named ? { 'x-hermes-session-id': named } : {}) };
    if (request.format) p.format = request.format;
    await this.runTurn(p, {
      conversation: named || `once-${randomUUID()}`,
      text: request.lastUser,
      history: request.history,
      images: request.images,
      instructions: request.instructions,
      ephemeral: !named,
      open: () => p.res.write(sse(chunk(meta, { role: 'assistant', content: '' }))),
    });
  }

  /**
   * Runs one turn of `conversation` for the request `p` (after the conversation's earlier
   * requests) and answers it. `open` writes the first stream event once the headers are sent.
   */
  private async runTurn(
    p: Pending,
    t: {
      conversation: string;
      text: string;
      /** Earlier turns for the session the conversation's first message creates. */
      history: SeedMessage[];
      /** Images of the turn's user message (not of a repair turn). */
      images: ImageAttachmentInput[];
      instructions: string;
      ephemeral: boolean;
      open: () => void;
    },
  ): Promise<void> {
    const { conversation } = t;
    // one request at a time per conversation
    const previous = this.chains.get(conversation) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chain = previous.then(() => mine);
    this.chains.set(conversation, chain);
    await previous;
    let keepalive: NodeJS.Timeout | undefined;
    try {
      if (p.res.destroyed) return;
      this.pending.set(conversation, p);
      p.res.on('close', () => {
        if (p.done) return;
        p.done = true;
        p.abandoned = true;
        keepInterruptedResponse(p, this.responses);
        this.stopTurn(conversation);
      });
      if (p.stream) {
        p.res.writeHead(200, { ...SSE_HEADERS, ...p.extra });
        t.open();
        keepalive = setInterval(() => {
          if (!p.done && !p.res.destroyed) p.res.write(': keepalive\n\n');
        }, this.settings.keepaliveMs ?? 15_000);
      }
      const ask = (text: string, images: ImageAttachmentInput[] = []): Promise<void> =>
        this.emitMessage({
          source: { platform: 'api_server', chatType: 'dm', chatId: conversation, userId: conversation },
          text,
          ...(images.length ? { images } : {}),
          ...(t.instructions ? { instructions: t.instructions } : {}),
          ...(t.history.length ? { history: t.history } : {}),
          ...(t.ephemeral ? { ephemeral: true } : {}),
        });
      await ask(t.text, t.images);
      if (p.format && !p.error && !p.done) {
        // a JSON answer is checked; one repair turn (a one-off starts afresh with the answer as data)
        const first = p.texts.join('\n\n');
        let check = checkAnswer(p.format, first);
        if (!check.ok) {
          p.texts = [];
          await ask(repairText(t.text, p.format, first, check.error));
          if (!p.error) check = checkAnswer(p.format, p.texts.join('\n\n'));
        }
        if (check.ok) p.texts = [check.text];
        else if (!p.error)
          p.error = {
            message: `the answer did not match response_format after one repair attempt: ${check.error}`,
            status: 500,
            kind: 'invalid_structured_output',
          };
      }
      this.finish(p, p.error);
    } finally {
      clearInterval(keepalive);
      if (this.pending.get(conversation) === p) this.pending.delete(conversation);
      release();
      if (this.chains.get(conversation) === chain) this.chains.delete(conversation);
    }
  }

  /** `POST /v1/responses`: a turn of a new, continued (`previous_response_id`) or named conversation. */
  private async createResponse(req: IncomingMessage, res: ServerResponse, cors: ExtraHeaders): Promise<void> {
    const request = readResponsesRequest(await readJsonBody(req));
    let conversation: string;
    let continued = false;
    if (request.previousId) {
      const prev = this.responses.get(request.previousId);
      if (!prev)
        throw new ApiError(
          404,
          `no stored response '${request.previousId}'`,
          'previous_response_id',
          'not_found',
        );
      conversation = prev.chat_id;
      continued = true;
    } else if (request.conversation) {
      const latest = this.responses.latest(request.conversation);
      conversation = latest?.chat_id ?? `conv-${request.conversation}`;
      continued = !!latest;
    } else {
      conversation = `resp-${randomUUID()}`;
    }
    const model = request.model ?? this.settings.modelName;
    const meta: AnswerMeta = { id: '', model, created: Math.floor(Date.now() / 1000) };
    const p = newPending(res, meta, request.stream, false);
    p.extra = cors;
    const builder = new ResponseBuilder(
      model,
      {
        previous_response_id: request.previousId ?? null,
        conversation: request.conversation ?? null,
        instructions: request.instructions ? request.instructions : null,
      },
      request.stream ? (chunk) => void (p.res.destroyed || p.res.write(chunk)) : undefined,
    );
    if (request.format) p.format = request.format;
    p.response = {
      builder,
      store: request.store,
      conversation,
      name: request.conversation ?? null,
      previous: request.previousId ?? null,
    };
    await this.runTurn(p, {
      conversation,
      // a continued conversation's session has its history; a new one is created with these turns
      text: request.lastUser,
      history: continued ? [] : request.history,
      images: request.images,
      instructions: request.instructions,
      // an unstored response that names nothing is a one-off
      ephemeral: !request.store && !request.previousId && !request.conversation,
      open: () => builder.start(),
    });
  }

  /** `GET` / `DELETE /v1/responses/{id}`. */
  private storedResponse(method: string, id: string, res: ServerResponse, cors: ExtraHeaders): void {
    const row = this.responses.get(id);
    if (!row) throw new ApiError(404, `no stored response '${id}'`, null, 'not_found');
    if (method === 'DELETE') {
      this.responses.delete(id);
      sendJson(res, 200, { id, object: 'response', deleted: true }, cors);
    } else sendJson(res, 200, JSON.parse(row.body) as object, cors);
  }

  /** Stops the conversation's running turn as a chat's `/stop` does. */
  private stopTurn(conversation: string): void {
    this.stopping.add(conversation);
    void this.emitMessage({
      source: { platform: 'api_server', chatType: 'dm', chatId: conversation, userId: conversation },
      text: '/stop',
    }).finally(() => this.stopping.delete(conversation));
  }

  private finish(p: Pending, error?: Pending['error']): void {
    finishAnswer(p, error, this.responses);
  }

  override onTurnEvent(chatId: string, event: TurnEvent): void {
    const p = this.pending.get(chatId);
    if (p?.abandoned && !p.restopped) {
      // the turn started after the first /stop found nothing running
      p.restopped = true;
      this.stopTurn(chatId);
      return;
    }
    if (!p || p.done) return;
    writeTurnEvent(p, event);
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    const p = this.pending.get(chatId);
    if (p?.abandoned || (!p && this.stopping.has(chatId))) return { ok: true }; // the client is gone
    if (!p || p.done) return { ok: false, error: 'no request is waiting for this conversation' };
    // the pipeline's notices of a failed turn or a stopping daemon become an error status
    if (text.startsWith(TURN_FAILED_PREFIX)) {
      p.error ??= { message: text.slice(TURN_FAILED_PREFIX.length) };
      return { ok: true };
    }
    if (text === SHUTTING_DOWN) {
      p.error = { message: text, status: 503 };
      return { ok: true };
    }
    writeText(p, text, opts);
    return { ok: true };
  }

  /** Nobody can answer an approval over HTTP: the pipeline denies each one as `no_approver`. */
  override get canAskApprovals(): boolean {
    return false;
  }

  /** Tells the caller that a command was denied because no one can approve it over this API. */
  override async sendApproval(chatId: string, prompt: ApprovalPrompt): Promise<SendResult> {
    await this.send(
      chatId,
      `[The command "${prompt.command}" needs approval, and no one can approve it through this API: denied. ` +
        'To allow it, run the request in an interactive session (hermes chat, hermes tui) and approve it there.]',
    );
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
