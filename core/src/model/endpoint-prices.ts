/**
 * Prices a provider's models endpoint reports: OpenRouter's `GET /models` lists, per model,
 * `pricing.prompt`, `pricing.completion`, `pricing.input_cache_read` and
 * `pricing.input_cache_write` as USD per token in strings. They are fetched at most once a day
 * per profile and endpoint, kept in `<home>/model-prices.json` (a small JSON file: per endpoint
 * the time of the last attempt and USD per million tokens per model id), and never waited for:
 * `lookup` answers from what is known now and starts a refresh in the background when the known
 * prices are missing or a day old, so a turn priced before the fetch finishes uses the bundled
 * table. A failed fetch is not retried before the day is over either. Nothing here throws.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { dirname } from 'node:path';
import type { ModelPrice, PricedCall } from './pricing.js';

/** Providers whose models endpoint reports prices. */
export const ENDPOINT_PRICED_PROVIDERS: ReadonlySet<string> = new Set(['openrouter']);

/** How long fetched prices are used before they are fetched again, ms. */
export const ENDPOINT_PRICES_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** How long one fetch of a models endpoint may take, ms. */
const FETCH_TIMEOUT_MS = 15_000;

/** The prices of one endpoint as stored. */
interface EndpointBook {
  /** Epoch ms of the last attempt (successful or not). */
  fetched_at: number;
  /** Model id (lower case) → USD per million tokens. */
  models: Record<string, ModelPrice>;
}

/** The file's shape: endpoint key (`provider|baseURL`) → its prices. */
interface PriceFile {
  version: 1;
  endpoints: Record<string, EndpointBook>;
}

/** Options of `EndpointPrices` (tests). */
export interface EndpointPricesOptions {
  /** GETs a URL's JSON (default `getJsonUnref`). */
  fetchJson?: (url: string) => Promise<unknown>;
  now?: () => number;
  maxAgeMs?: number;
}

/** Largest models listing read, bytes (OpenRouter's is about 1 MB). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * GETs `url` and parses its JSON body, without keeping the process alive: its socket and timer
 * are unref'd, so a one-shot `hermes chat` exits when its turn is done even while prices load.
 * @throws Error for a non-2xx status, a body over 16 MiB, bad JSON or `FETCH_TIMEOUT_MS`.
 */
export function getJsonUnref(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const req = get(url, { headers: { accept: 'application/json' } }, (res) => {
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
        res.resume();
        reject(new Error(`HTTP ${res.statusCode}`));
        return;
      }
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        size += d.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error('models listing too large'));
        else parts.push(d);
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(parts).toString('utf8')));
        } catch (err) {
          reject(err as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('socket', (s) => s.unref());
    req.on('error', reject);
    const timer = setTimeout(() => req.destroy(new Error('timed out')), FETCH_TIMEOUT_MS);
    timer.unref();
    req.on('close', () => clearTimeout(timer));
  });
}

/** USD per token as a string → USD per million tokens (6 decimals), or undefined when not a price. */
function perMillion(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  if (!Number.isFinite(n) || n < 0) return undefined;
  return Math.round(n * 1e12) / 1e6;
}

/**
 * The prices of a `/models` answer: models whose `pricing.prompt` and `pricing.completion` are
 * prices (OpenRouter marks a router's variable price with `-1`: left out).
 */
export function parseModelsPricing(body: unknown): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return out;
  for (const m of data as Array<{ id?: unknown; pricing?: Record<string, unknown> }>) {
    if (typeof m?.id !== 'string' || !m.pricing || typeof m.pricing !== 'object') continue;
    const input = perMillion(m.pricing.prompt);
    const output = perMillion(m.pricing.completion);
    if (input === undefined || output === undefined) continue;
    const read = perMillion(m.pricing.input_cache_read);
    const write = perMillion(m.pricing.input_cache_write);
    out[m.id.toLowerCase()] = {
      input,
      output,
      ...(read !== undefined ? { cache_read: read } : {}),
      ...(write !== undefined ? { cache_write: write } : {}),
    };
  }
  return out;
}

/** The endpoint prices of one profile (one file). */
export class EndpointPrices {
  private file: PriceFile | undefined;
  private readonly running = new Map<string, Promise<void>>();
  private readonly fetchJson: (url: string) => Promise<unknown>;
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  /** @param path the cache file (`<home>/model-prices.json`). */
  constructor(
    readonly path: string,
    opts: EndpointPricesOptions = {},
  ) {
    this.fetchJson = opts.fetchJson ?? getJsonUnref;
    this.now = opts.now ?? Date.now;
    this.maxAgeMs = opts.maxAgeMs ?? ENDPOINT_PRICES_MAX_AGE_MS;
  }

  private load(): PriceFile {
    if (this.file) return this.file;
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as PriceFile;
      if (parsed?.version === 1 && parsed.endpoints && typeof parsed.endpoints === 'object') {
        this.file = parsed;
        return parsed;
      }
    } catch {
      // missing or unreadable: start empty (rewritten at the next fetch)
    }
    this.file = { version: 1, endpoints: {} };
    return this.file;
  }

  /**
   * The endpoint price of a call's model, when its provider reports prices and they are known
   * now; starts a background refresh when they are missing or older than a day. Never waits.
   */
  lookup(call: PricedCall): ModelPrice | undefined {
    if (!ENDPOINT_PRICED_PROVIDERS.has(call.provider) || !call.baseURL) return undefined;
    const key = `${call.provider}|${call.baseURL.replace(/\/+$/, '')}`;
    const book = this.load().endpoints[key];
    if (!book || this.now() - book.fetched_at >= this.maxAgeMs)
      void this.refresh(call.provider, call.baseURL);
    return book?.models[call.model.trim().toLowerCase()];
  }

  /** Starts (or joins) the refresh of an endpoint when its prices are missing or a day old. */
  warm(provider: string, baseURL: string | undefined): Promise<void> {
    if (!ENDPOINT_PRICED_PROVIDERS.has(provider) || !baseURL) return Promise.resolve();
    const key = `${provider}|${baseURL.replace(/\/+$/, '')}`;
    const book = this.load().endpoints[key];
    if (book && this.now() - book.fetched_at < this.maxAgeMs) return Promise.resolve();
    return this.refresh(provider, baseURL);
  }

  /** Fetches `<baseURL>/models` once (concurrent callers share it) and stores the prices. */
  private refresh(provider: string, baseURL: string): Promise<void> {
    const base = baseURL.replace(/\/+$/, '');
    const key = `${provider}|${base}`;
    const running = this.running.get(key);
    if (running) return running;
    const job = (async () => {
      let models: Record<string, ModelPrice> | undefined;
      try {
        models = parseModelsPricing(await this.fetchJson(`${base}/models`));
      } catch {
        // offline or refused: the table prices stand until the next day
      }
      const file = this.reread();
      const old = file.endpoints[key];
      file.endpoints[key] = {
        fetched_at: this.now(),
        models: models && Object.keys(models).length > 0 ? models : (old?.models ?? {}),
      };
      this.save(file);
    })().finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }

  /** The file as on disk now (another process may have written it), for a merge before saving. */
  private reread(): PriceFile {
    this.file = undefined;
    return this.load();
  }

  private save(file: PriceFile): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(file), { mode: 0o600 });
      renameSync(tmp, this.path);
    } catch {
      // a read-only home: the prices stay in memory for this process
    }
    this.file = file;
  }
}

const byFile = new Map<string, EndpointPrices>();

/** The shared `EndpointPrices` of a cache file (one per profile home and process). */
export function endpointPricesAt(path: string): EndpointPrices {
  let p = byFile.get(path);
  if (!p) {
    p = new EndpointPrices(path);
    byFile.set(path, p);
  }
  return p;
}
