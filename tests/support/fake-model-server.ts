/**
 * A scripted OpenAI-compatible Chat Completions server on plain `node:http`, for every test that
 * needs "the model". It binds 127.0.0.1 on a free port and answers
 * `POST /v1/chat/completions` with the next step of a script, speaking exactly the streaming wire
 * format the `openai` SDK needs (see `fake-model-wire.ts` and docs/toolchain.md).
 *
 * In process:
 * ```ts
 * const server = await startFakeModelServer({ script: [{ text: 'Hello!' }] });
 * // point the client at server.url (…/v1); later:
 * await server.waitForRequests(1, 5_000);
 * expect(server.requests[0].body.messages).toEqual(…);
 * await server.close();
 * ```
 *
 * As a process (cross-process tests; see `fake-model-remote.ts` for a typed wrapper):
 * `node --import tsx tests/support/fake-model-server.ts [--script steps.json] [--port N]`
 * prints one JSON line `{"url":"http://127.0.0.1:N/v1","port":N,"pid":P}` on stdout and serves
 * until SIGTERM/SIGINT. The script file holds a JSON array of steps, or
 * `{"steps":[…],"whenEmpty":step,"models":["id",…],"pricing":{"id":{…}}}`.
 *
 * Routes:
 * - `POST /v1/chat/completions` — consumes one step (streaming when the body has `stream: true`,
 *   else a `chat.completion` JSON).
 * - `POST /v1/messages` — the Anthropic Messages dialect of the same steps (fake-model-anthropic.ts):
 *   Anthropic's named SSE events, error bodies and `x-api-key` check, and the API's 400 for a
 *   request it refuses (fake-model-anthropic-check.ts); point an Anthropic client
 *   at the server's root (`url` without `/v1`, or `url`: Hermes strips a trailing `/v1`).
 * - `GET /v1/models` — `{object:"list", data:[{id, object:"model", …}]}`; a model with an entry
 *   in `pricing` also carries OpenRouter's `pricing` object (USD per token as strings).
 * - `POST /__script` — body: one step or an array of steps (JSON forms only), appended to the queue.
 * - `GET /__requests` — the recorded requests as a JSON array.
 * - `POST /__reset` — empties the queue and the recorded requests.
 * - `GET /__health` — `{ok:true, pending}`.
 *
 * Every request to a `/v1/…` path is recorded in `requests` (control routes are not).
 * When the queue is empty the server answers with `whenEmpty` (default: the text `"OK"`), so an
 * unexpected extra model call shows up as an assertion on text rather than as retry storms.
 */
import { once, EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_EMPTY_STEP,
  completionObject,
  errorBody,
  reasoningChunks,
  resolveEcho,
  roleChunk,
  settleToolCalls,
  sse,
  textChunks,
  toolCallChunks,
  usageChunk,
  usageFor,
  chunk,
  type AnswerMeta,
  type RecordedRequest,
  type ScriptStep,
  type StaticStep,
} from './fake-model-wire.js';
import { answerAnthropic, anthropicErrorBody } from './fake-model-anthropic.js';
import { anthropicRequestProblem } from './fake-model-anthropic-check.js';

/** In JSON text: the escape of a high surrogate not followed by a low one, or of a low one alone. */
const LONE_SURROGATE =
  /(?<=(?:^|[^\\])(?:\\\\)*)(?:\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2})/i;

export * from './fake-model-wire.js';

/** Options of `startFakeModelServer`. */
export interface FakeModelServerOptions {
  /** Initial queue of steps; more can be pushed later. */
  script?: ScriptStep[];
  /** Step answered when the queue is empty; default `{text: 'OK'}`. */
  whenEmpty?: ScriptStep;
  /** Model ids listed by `GET /v1/models`; default `['fake-model']`. */
  models?: string[];
  /**
   * OpenRouter-style prices per model id, listed by `GET /v1/models` as each model's `pricing`
   * (`prompt`, `completion`, `input_cache_read`, `input_cache_write`: USD per token, strings).
   * A priced id missing from `models` is listed too.
   */
  pricing?: Record<string, FakeModelPricing>;
  /** Port to bind on 127.0.0.1; default 0 (a free port). */
  port?: number;
  /**
   * The API key `/v1/…` requests must carry (`Authorization: Bearer KEY`); others get HTTP 401,
   * as a hosted or secured server answers. Default: no key checked.
   */
  apiKey?: string;
}

/** OpenRouter's `pricing` object of one model: USD per token, as strings. */
export interface FakeModelPricing {
  prompt: string;
  completion: string;
  input_cache_read?: string;
  input_cache_write?: string;
}

/** A running fake model server. */
export interface FakeModelServer {
  /** Base URL for an OpenAI client, ending in `/v1` (e.g. `http://127.0.0.1:40123/v1`). */
  readonly url: string;
  readonly port: number;
  /** Every `/v1/…` request received so far, in arrival order (a live array). */
  readonly requests: RecordedRequest[];
  /** Appends steps to the script queue. */
  push(...steps: ScriptStep[]): void;
  /** Number of steps still queued. */
  pending(): number;
  /**
   * Resolves with `requests` once at least `n` requests were recorded.
   * @throws Error after `timeoutMs` (default 5000) naming how many arrived.
   */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Stops listening and destroys open connections (hanging streams included). */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** Starts a fake model server on 127.0.0.1. */
export async function startFakeModelServer(opts: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const queue: ScriptStep[] = [...(opts.script ?? [])];
  const requests: RecordedRequest[] = [];
  const events = new EventEmitter();
  const models = opts.models ?? ['fake-model'];
  let callCounter = 0;
  let answerCounter = 0;
  let signatureCounter = 0;
  const nextCallId = () => `call_${++callCounter}`;

  async function answerChat(rec: RecordedRequest, res: ServerResponse): Promise<void> {
    const raw = queue.shift() ?? opts.whenEmpty ?? DEFAULT_EMPTY_STEP;
    let step: StaticStep = typeof raw === 'function' ? await raw(rec) : raw;
    if ('echo' in step) step = resolveEcho(step, rec);
    const meta: AnswerMeta = {
      id: `chatcmpl-fake-${++answerCounter}`,
      model: typeof rec.body?.model === 'string' ? rec.body.model : (models[0] ?? 'fake-model'),
      created: Math.floor(Date.now() / 1000),
    };
    const streaming = rec.body?.stream === true;
    const closed = () => res.destroyed || res.writableEnded;

    if ('error' in step) {
      const { status, body, message, retryAfter } = step.error;
      const headers: Record<string, string> =
        retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {};
      sendJson(res, status, body ?? errorBody(status, message), headers);
      return;
    }
    if ('hang' in step && step.text === undefined) return; // never answer, not even headers

    if (!streaming) {
      if ('hang' in step) return;
      if ('streamError' in step) {
        sendJson(res, 500, errorBody(500, step.streamError.message));
        return;
      }
      if ('disconnect' in step) {
        res.socket?.destroy();
        return;
      }
      const calls = 'toolCalls' in step ? settleToolCalls(step.toolCalls, nextCallId) : [];
      const text = step.text ?? null;
      const usage = usageFor(rec, (text ?? '') + calls.map((c) => c.arguments).join(''), step.usage);
      const finishReason = step.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
      sendJson(
        res,
        200,
        completionObject(meta, { text, reasoning: step.reasoning, toolCalls: calls, finishReason }, usage),
      );
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const delay = 'delayMs' in step ? (step.delayMs ?? 0) : 0;
    const write = async (data: object | '[DONE]', pause = true) => {
      if (closed()) return false;
      if (pause && delay > 0) await sleep(delay);
      if (closed()) return false;
      res.write(sse(data));
      return true;
    };

    await write(roleChunk(meta), false);
    if ('streamError' in step) {
      for (const c of textChunks(meta, step.text ?? '', step.chunkSize)) await write(c);
      const { type, message } = step.streamError;
      await write({ error: { message: message ?? 'The server had an error', type, code: null } }, false);
      if (!closed()) res.end();
      return;
    }
    if ('hang' in step || 'disconnect' in step) {
      for (const c of textChunks(meta, step.text ?? '', step.chunkSize)) await write(c);
      if ('disconnect' in step) setImmediate(() => res.socket?.destroy());
      return; // a hang keeps the response open until the client or close() ends it
    }

    const calls = 'toolCalls' in step ? settleToolCalls(step.toolCalls, nextCallId) : [];
    const body: object[] = [
      ...reasoningChunks(meta, step.reasoning ?? '', step.reasoningField, step.chunkSize),
      ...textChunks(meta, step.text ?? '', step.chunkSize),
      ...toolCallChunks(meta, calls, step.chunkSize),
    ];
    for (const c of body) if (!(await write(c))) return;
    const finishReason = step.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
    if (!(await write(chunk(meta, {}, finishReason)))) return;
    if (rec.body?.stream_options?.include_usage === true) {
      const answerChars = (step.reasoning ?? '') + (step.text ?? '') + calls.map((c) => c.arguments).join('');
      await write(usageChunk(meta, usageFor(rec, answerChars, step.usage)), false);
    }
    await write('[DONE]', false);
    if (!closed()) res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }

    if (path.startsWith('/__')) {
      if (method === 'POST' && path === '/__script') {
        const steps = (Array.isArray(body) ? body : [body]) as StaticStep[];
        queue.push(...steps.filter((s) => s !== undefined && s !== null));
        return sendJson(res, 200, { queued: queue.length });
      }
      if (method === 'GET' && path === '/__requests') return sendJson(res, 200, requests);
      if (method === 'POST' && path === '/__reset') {
        queue.length = 0;
        requests.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      if (method === 'GET' && path === '/__health')
        return sendJson(res, 200, { ok: true, pending: queue.length });
      return sendJson(res, 404, errorBody(404, `No control route ${method} ${path}`));
    }

    const rec: RecordedRequest = { method, path, headers: { ...req.headers }, body, at: Date.now() };
    requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) rec.clientClosedAt = Date.now();
    });
    res.on('finish', () => (rec.finishedAt = Date.now()));
    events.emit('request');

    // an Anthropic client (it always sends `anthropic-version`) authenticates with `x-api-key`
    const anthropicClient = req.headers['anthropic-version'] !== undefined || path === '/v1/messages';
    // the real APIs' strict JSON parsers refuse half a surrogate pair (`"\ud83d"` alone)
    if (LONE_SURROGATE.test(text)) {
      const message =
        'We could not parse the JSON body of your request: it is not valid UTF-8 (a lone surrogate).';
      return anthropicClient
        ? sendJson(res, 400, anthropicErrorBody(400, message))
        : sendJson(res, 400, errorBody(400, message));
    }
    if (anthropicClient && opts.apiKey !== undefined && req.headers['x-api-key'] !== opts.apiKey) {
      return sendJson(res, 401, anthropicErrorBody(401));
    }
    if (method === 'POST' && path === '/v1/messages') {
      // a request the real API refuses is refused the same way, before any scripted step is used
      const problem = anthropicRequestProblem(body);
      if (problem) return sendJson(res, 400, anthropicErrorBody(400, problem));
      const raw = queue.shift() ?? opts.whenEmpty ?? DEFAULT_EMPTY_STEP;
      const step = typeof raw === 'function' ? await raw(rec) : raw;
      return answerAnthropic(rec, res, step, {
        id: `msg_fake_${++answerCounter}`,
        nextCallId,
        nextSignature: () => `sig-${++signatureCounter}`,
        sleep,
      });
    }
    if (
      !anthropicClient &&
      opts.apiKey !== undefined &&
      req.headers.authorization !== `Bearer ${opts.apiKey}`
    ) {
      return sendJson(res, 401, errorBody(401, 'Incorrect API key provided'));
    }
    if (method === 'POST' && path === '/v1/chat/completions') return answerChat(rec, res);
    if (method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: [...new Set([...models, ...Object.keys(opts.pricing ?? {})])].map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'fake',
          ...(opts.pricing?.[id] ? { pricing: opts.pricing[id] } : {}),
        })),
      });
    }
    return sendJson(res, 404, errorBody(404, `Unknown route ${method} ${path}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `fake model server: ${String(err)}`));
      else res.destroy();
    });
  });
  server.listen(opts.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    push: (...steps) => void queue.push(...steps),
    pending: () => queue.length,
    waitForRequests(n, timeoutMs = 5000) {
      if (requests.length >= n) return Promise.resolve(requests);
      return new Promise((resolveWait, reject) => {
        const onRequest = () => {
          if (requests.length < n) return;
          clearTimeout(timer);
          events.off('request', onRequest);
          resolveWait(requests);
        };
        const timer = setTimeout(() => {
          events.off('request', onRequest);
          reject(
            new Error(`fake model server: waited ${timeoutMs} ms for ${n} requests, got ${requests.length}`),
          );
        }, timeoutMs);
        events.on('request', onRequest);
      });
    },
    async close() {
      const closing = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closing;
    },
  };
}

/** Reads a script file: a JSON array of steps, or `{steps, whenEmpty?, models?}`. */
export function readScriptFile(
  file: string,
): Pick<FakeModelServerOptions, 'script' | 'whenEmpty' | 'models' | 'pricing'> {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (Array.isArray(parsed)) return { script: parsed as StaticStep[] };
  const obj = parsed as {
    steps?: StaticStep[];
    whenEmpty?: StaticStep;
    models?: string[];
    pricing?: Record<string, FakeModelPricing>;
  };
  return { script: obj.steps ?? [], whenEmpty: obj.whenEmpty, models: obj.models, pricing: obj.pricing };
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const scriptFile = arg('--script');
  const port = arg('--port');
  const server = await startFakeModelServer({
    ...(scriptFile ? readScriptFile(scriptFile) : {}),
    port: port ? Number(port) : 0,
  });
  process.stdout.write(JSON.stringify({ url: server.url, port: server.port, pid: process.pid }) + '\n');
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`fake model server: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
