/**
 * The streaming model client: Chat Completions through the `openai`
 * package against any OpenAI-compatible base URL, with our own retry policy.
 *
 * Policy of one `stream()` call (after the original's `error_classifier.py`):
 * 1. The primary target (`model:` of config.yaml) is called with the pool's current key.
 * 2. A rate limit (429/402) or a refused key (401/403) benches that key (1 h / 5 min) and, when
 *    the pool has another key that is not cooling down, retries at once with it ("rotation";
 *    bounded by the pool size, not counted against the retry budget).
 * 3. Transient kinds (`rate_limit`, `server`, `timeout`, `network`) retry up to 3 times with
 *    exponential backoff and jitter, honouring `Retry-After` (capped at 60 s).
 * 4. When the retries are spent — or at once for `auth` — the next usable `fallback_providers`
 *    entry is tried, with its own model/base_url/keys and a fresh retry budget. Auth falls back
 *    too: a broken key on one provider should not stop the agent when another is configured.
 *    Entries that cannot be used (no key) are skipped.
 * 5. `context_overflow` and `bad_request` are thrown at once (the agent loop compresses on
 *    overflow), as is the last error when nothing is left to try.
 * 6. The request's AbortSignal stops the stream (or a backoff wait) at once: ModelError `aborted`
 *    carrying what was streamed so far.
 *
 * The SDK's own retries are off (`maxRetries: 0`). `config.model.timeout` (seconds) bounds both
 * the wait for the response headers and each gap between two chunks (an idle timeout: a long
 * answer that keeps streaming is never cut). Keys are never logged; error messages are scrubbed
 * of them. For `anthropic/*` models on OpenRouter the system prompt gets a cache breakpoint.
 *
 * A target whose `wire` is `anthropic-messages` is called through `@anthropic-ai/sdk`
 * (anthropic/attempt.ts, loaded on first use); everything above (keys, retries, fallback, abort)
 * is the same for both.
 * Reasoning effort (`ChatRequest.reasoningEffort`, else `model.reasoning_effort`) is mapped per API
 * (reasoning.ts); where it is not supported the request goes without it and `onNotice` is called
 * once per client and message.
 */
import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import { AnthropicStreamAssembler } from './anthropic/stream.js';
import type * as AnthropicWireModule from './anthropic/wire.js';
import { applyCacheBreakpoints } from './cache-control.js';
import { contextWindowFor } from './context-windows.js';
import { idleWatchdog } from './idle-watchdog.js';
import { CredentialPool, type PooledKey } from './credential-pool.js';
import { classifyError, ModelError, type ClassifyHints } from './errors.js';
import { resolveFallbacks, resolvePrimary, type ProviderTarget } from './providers.js';
import { openaiReasoningParams } from './reasoning.js';
import { abortableSleep, backoffDelay, MAX_RETRIES, type SleepFn } from './retry.js';
import { HandlerError, StreamAssembler } from './stream-assembler.js';
import { wellFormedDeep } from '../util/well-formed.js';
import type { ChatMessage, ChatRequest, ChatResult, ModelClient, StreamHandlers } from './types.js';

/** What `createModelClient` needs. Only `config` and `secrets` are required. */
export interface ModelClientOptions {
  config: HermesConfig;
  /** The home's secrets (`loadSecrets(home)`); looked up before `env`. */
  secrets: Secrets;
  /** Process environment for keys not in `secrets` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Model id replacing `config.model.default` (e.g. `hermes chat -m`). */
  modelOverride?: string;
  /** Path of the home's `.env`, named in auth messages (`home.envFile`). */
  envFile?: string;
  /** fetch used by the SDK (tests; proxies). */
  fetch?: typeof globalThis.fetch;
  /** Backoff sleep (tests make it instant); must resolve early when the signal fires. */
  sleep?: SleepFn;
  /** Clock for key cooldowns, ms. */
  now?: () => number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Retries per provider before falling back (default 3). */
  maxRetries?: number;
  /**
   * Credential pools by endpoint, shared between clients that should share cooldowns (e.g. every
   * session of one home in the daemon). Default: a map private to this client.
   */
  pools?: Map<string, CredentialPool>;
}

/** The model client with a few read-only facts for status displays. */
export interface HermesModelClient extends ModelClient {
  /** Provider of the primary target (`openrouter`, `openai`, `custom`), or `auto` when unresolved. */
  readonly provider: string;
  /** Base URL of the primary target, when resolved. */
  readonly baseURL: string | undefined;
  /** Context window of `model` (default: the default model) in tokens; see context-windows.ts. */
  contextWindow(model?: string): number;
  /**
   * Model ids the primary provider lists (`GET /models`); undefined when it cannot say (no
   * provider, an error, or `signal` aborted). Never throws.
   */
  listModels(signal?: AbortSignal): Promise<string[] | undefined>;
}

type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

type AnthropicWire = typeof AnthropicWireModule;
let anthropicWire: Promise<AnthropicWire> | undefined;
/** The SDK-loading half of the Anthropic path, imported once on first use. */
const loadAnthropicWire = (): Promise<AnthropicWire> => (anthropicWire ??= import('./anthropic/wire.js'));

/**
 * Drops fields a provider would reject: `reasoning` on assistant messages except for OpenRouter,
 * and Anthropic's `thinking_blocks` always.
 */
function toWire(messages: ChatMessage[], target: ProviderTarget, model: string): ChatBody['messages'] {
  const cached = applyCacheBreakpoints(messages, model, target.provider);
  const out = cached.map((m) => {
    if (m.role !== 'assistant') return m;
    const { thinking_blocks: _blocks, reasoning, ...rest } = m;
    return reasoning !== undefined && target.provider === 'openrouter' ? { ...rest, reasoning } : rest;
  });
  return out as ChatBody['messages'];
}

/**
 * Creates the client. Provider resolution happens now; when the configuration names no usable
 * provider, the client is still returned and every `stream()` rejects with that ModelError
 * (kind `auth`, naming the variables to set and the .env file), so frontends report it per turn.
 */
export function createModelClient(opts: ModelClientOptions): HermesModelClient {
  const { config } = opts;
  const ctx = { secrets: opts.secrets, env: opts.env, envFile: opts.envFile };
  const sleep = opts.sleep ?? abortableSleep;
  const random = opts.random ?? Math.random;
  const maxRetries = opts.maxRetries ?? MAX_RETRIES;
  const pools = opts.pools ?? new Map<string, CredentialPool>();
  const timeoutMs = Math.max(1, Math.ceil(config.model.timeout * 1000));

  let primary: ProviderTarget | undefined;
  let setupError: ModelError | undefined;
  try {
    primary = resolvePrimary(config, ctx, opts.modelOverride);
  } catch (err) {
    setupError = err instanceof ModelError ? err : classifyError(err, config.model.provider);
  }
  const defaultModel = primary?.model || opts.modelOverride || config.model.default;
  const fallbacks = resolveFallbacks(config.fallback_providers, '', ctx);
  const detectedModels = new Map<string, string>();
  const sdkClients = new Map<string, OpenAI>();
  const anthropicClients = new Map<string, Anthropic>();
  /** Notices already given by this client (each is shown once, not at every call). */
  const noticed = new Set<string>();
  const noticeOnce = (handlers: StreamHandlers, message: string): void => {
    if (noticed.has(message)) return;
    noticed.add(message);
    try {
      handlers.onNotice?.(message);
    } catch {
      /* a frontend's failure never breaks the call */
    }
  };

  const poolFor = (t: ProviderTarget): CredentialPool => {
    const id = `${t.provider}|${t.baseURL}|${t.keyVar ?? ''}|${t.keys.map((k) => k.label).join(',')}`;
    let pool = pools.get(id);
    if (!pool) {
      pool = new CredentialPool(t.provider, t.keys, { now: opts.now });
      pools.set(id, pool);
    }
    return pool;
  };

  const sdkFor = (t: ProviderTarget, key: PooledKey | undefined): OpenAI => {
    const id = `${t.baseURL}\0${key?.value ?? ''}`;
    let c = sdkClients.get(id);
    if (!c) {
      // the preset's own headers (OpenRouter's app name …)
      const headers: Record<string, string | null> = { ...t.headers };
      if (!key) headers.Authorization = null; // a keyless local server: send no Authorization at all
      c = new OpenAI({
        apiKey: key?.value ?? 'no-key',
        baseURL: t.baseURL,
        organization: null,
        project: null,
        adminAPIKey: null,
        maxRetries: 0,
        timeout: timeoutMs,
        logLevel: 'off',
        defaultHeaders: headers,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      });
      sdkClients.set(id, c);
    }
    return c;
  };

  const anthropicSdkFor = (w: AnthropicWire, t: ProviderTarget, key: PooledKey | undefined): Anthropic => {
    const id = `${t.baseURL}\0${key?.value ?? ''}`;
    let c = anthropicClients.get(id);
    if (!c) {
      c = w.createAnthropicSdk({
        baseURL: t.baseURL,
        key,
        timeoutMs,
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
      });
      anthropicClients.set(id, c);
    }
    return c;
  };

  /** The model of an attempt; a custom endpoint without one uses the server's only model. */
  const modelFor = async (t: ProviderTarget, req: ChatRequest, sdk: OpenAI | undefined): Promise<string> => {
    const named = t.role === 'primary' ? req.model || t.model : t.model || req.model || defaultModel;
    if (named) return named;
    if (t.provider === 'custom' && sdk) {
      const known = detectedModels.get(t.baseURL);
      if (known) return known;
      const list = await sdk.models.list({ signal: req.signal });
      const ids = list.data.map((m) => m.id);
      if (ids.length === 1) {
        detectedModels.set(t.baseURL, ids[0]!);
        return ids[0]!;
      }
      throw new ModelError(
        'bad_request',
        `No model is set and ${t.baseURL} offers ${ids.length === 0 ? 'none' : ids.join(', ')}: set model.default in config.yaml (or pass -m).`,
        { provider: t.provider },
      );
    }
    throw new ModelError('bad_request', 'No model is set: set model.default in config.yaml (or pass -m).', {
      provider: t.provider,
    });
  };

  /** One attempt: a single streamed request. Throws whatever the SDK throws, or a ModelError. */
  const attempt = async (
    t: ProviderTarget,
    key: PooledKey | undefined,
    req: ChatRequest,
    asm: StreamAssembler | AnthropicStreamAssembler,
    handlers: StreamHandlers,
    wire: AnthropicWire | undefined,
  ): Promise<ChatResult> => {
    const effort = req.reasoningEffort ?? config.model.reasoning_effort;
    if (asm instanceof AnthropicStreamAssembler) {
      const w = wire ?? (await loadAnthropicWire());
      const result = await w.runAnthropicAttempt({
        sdk: anthropicSdkFor(w, t, key),
        target: t,
        model: await modelFor(t, req, undefined),
        req,
        asm,
        effort,
        timeoutMs,
        timeoutS: config.model.timeout,
        onNotice: (m) => noticeOnce(handlers, m),
      });
      return { ...result, baseURL: t.baseURL };
    }
    const sdk = sdkFor(t, key);
    const model = await modelFor(t, req, sdk);
    const watch = idleWatchdog(req.signal, timeoutMs, () => new OpenAI.APIUserAbortError());
    try {
      if (req.signal?.aborted) throw new OpenAI.APIUserAbortError();
      const reasoning = openaiReasoningParams(effort, t, model);
      if (reasoning.notice) noticeOnce(handlers, reasoning.notice);
      const body: ChatBody = {
        model,
        messages: toWire(req.messages, t, model),
        stream: true,
        stream_options: { include_usage: true },
        ...(req.tools.length > 0 ? { tools: req.tools } : {}),
        ...reasoning.params,
      };
      // a lone surrogate anywhere (history, tool results, tool schemas) would fail the request
      const stream = await sdk.chat.completions.create(wellFormedDeep(body), { signal: watch.signal });
      watch.arm();
      for await (const chunk of stream) {
        watch.arm();
        asm.push(chunk);
      }
      // The SDK ends the iteration quietly when the request is aborted: find out why.
      watch.check({ provider: t.provider, model, timeoutS: config.model.timeout });
      return { ...asm.result(model, t.provider), baseURL: t.baseURL };
    } finally {
      watch.dispose();
    }
  };

  const hintsFor = (t: ProviderTarget, req: ChatRequest): ClassifyHints => ({
    keyVar: t.keyVar,
    envFile: opts.envFile,
    model: req.model || t.model || undefined,
    secrets: t.keys.map((k) => k.value),
    baseUrl: t.baseURL,
  });

  const aborted = (provider: string, asm: StreamAssembler | AnthropicStreamAssembler): ModelError =>
    new ModelError('aborted', `The model call to ${provider} was interrupted`, {
      provider,
      partial: asm.partial(),
    });

  async function stream(req: ChatRequest, handlers: StreamHandlers = {}): Promise<ChatResult> {
    if (!primary) throw setupError!;
    const targets: Array<ProviderTarget | ModelError> = [primary, ...fallbacks];
    let lastError: ModelError | undefined;
    let retryNo = 0;
    let lastAsm: StreamAssembler | AnthropicStreamAssembler = new StreamAssembler();
    const notify = (info: Omit<Parameters<NonNullable<StreamHandlers['onRetry']>>[0], 'attempt'>) =>
      handlers.onRetry?.({ attempt: ++retryNo, ...info });

    for (let i = 0; i < targets.length; i++) {
      const t = targets[i]!;
      if (t instanceof ModelError) continue; // an unusable fallback (no key…): skip it
      const pool = poolFor(t);
      let retries = 0;
      for (;;) {
        if (req.signal?.aborted) throw aborted(t.provider, lastAsm);
        const key = pool.current();
        const wire = t.wire === 'anthropic-messages' ? await loadAnthropicWire() : undefined;
        const asm = wire ? new AnthropicStreamAssembler(handlers) : new StreamAssembler(handlers);
        lastAsm = asm;
        let err: ModelError;
        try {
          return await attempt(t, key, req, asm, handlers, wire);
        } catch (e) {
          if (e instanceof HandlerError) throw e.original;
          if (req.signal?.aborted) throw aborted(t.provider, asm);
          err = wire
            ? wire.classifyAnthropicError(e, t.provider, hintsFor(t, req))
            : classifyError(e, t.provider, hintsFor(t, req));
          if (err.kind === 'aborted') throw aborted(t.provider, asm);
          if (asm.emitted) err.partial = asm.partial();
          lastError = err;
        }
        const restart = asm.emitted;
        if (key && (err.kind === 'rate_limit' || err.kind === 'auth') && pool.size > 1) {
          const next = pool.markExhausted(key, err.kind);
          if (next) {
            notify({
              delayMs: 0,
              kind: err.kind,
              provider: t.provider,
              model: t.model,
              restart,
              message: `${err.message} — trying key ${next.label}`,
            });
            continue;
          }
        }
        if (err.retryable && retries < maxRetries) {
          retries++;
          const delayMs = backoffDelay(retries, err.retryAfterMs, random);
          notify({
            delayMs,
            kind: err.kind,
            provider: t.provider,
            model: t.model,
            restart,
            message: `${err.message} — retry ${retries}/${maxRetries} in ${delayMs} ms`,
          });
          await sleep(delayMs, req.signal);
          continue;
        }
        break;
      }
      if (!lastError || !(lastError.retryable || lastError.kind === 'auth')) break;
      const next = targets.slice(i + 1).find((x): x is ProviderTarget => !(x instanceof ModelError));
      if (next) {
        const nextModel = next.model || req.model || defaultModel;
        notify({
          delayMs: 0,
          kind: lastError.kind,
          provider: next.provider,
          model: nextModel,
          restart: lastAsm.emitted,
          message: `${lastError.message} — falling back to ${next.provider} (${nextModel})`,
        });
      }
    }
    throw (
      lastError ??
      setupError ??
      new ModelError('server', 'No model provider could be tried', { provider: 'auto' })
    );
  }

  return {
    stream,
    defaultModel,
    provider: primary?.provider ?? config.model.provider,
    baseURL: primary?.baseURL,
    contextWindow: (model?: string) => contextWindowFor(model ?? defaultModel, config),
    listModels: async (signal?: AbortSignal) => {
      if (!primary) return undefined;
      try {
        if (primary.wire === 'anthropic-messages') {
          const w = await loadAnthropicWire();
          const page = await anthropicSdkFor(w, primary, poolFor(primary).current()).models.list(
            {},
            { signal },
          );
          return page.data.map((m) => m.id);
        }
        const list = await sdkFor(primary, poolFor(primary).current()).models.list({ signal });
        return list.data.map((m) => m.id);
      } catch {
        return undefined;
      }
    },
  };
}
