/**
 * One guarded HTTP GET for `web_extract`: node:http/https with the SSRF guard of
 * `url-safety.ts` on every hop, redirects followed by hand (each target re-checked), one deadline
 * for the whole fetch, and a byte cap on the (decompressed) body.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { BlockList } from 'node:net';
import { checkUrl, guardedLookup } from './url-safety.js';

/** Limits and policy of one fetch. */
export interface FetchLimits {
  /** Deadline for the whole fetch, redirects and body included, ms. */
  timeoutMs: number;
  /** Body bytes kept (after decompression); the rest is dropped and `truncated` set. */
  maxBytes: number;
  /** Redirects followed; one more is an error. */
  maxRedirects: number;
  /** `web.allow_private_urls`. */
  allowPrivate: boolean;
  /** The compiled `web.fake_ip_ranges` (fake-ip-ranges.ts), if any. */
  fakeIps?: BlockList;
  /** Interrupt of the turn. */
  signal?: AbortSignal;
}

/** A fetched response (any status; the caller decides what a 404 means). */
export interface FetchedPage {
  /** The URL asked for. */
  requestedUrl: string;
  /** The URL of the last hop (after redirects). */
  finalUrl: string;
  status: number;
  statusText: string;
  /** The `content-type` header, lower-cased ('' when absent). */
  contentType: string;
  body: Buffer;
  /** True when the body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
  /** Redirects followed. */
  redirects: number;
}

/** A fetch that did not produce a response (timeout, DNS, refused address, too many redirects). */
export class FetchError extends Error {
  override name = 'FetchError';
}

/** The User-Agent sent with page fetches. */
export const USER_AGENT =
  'Mozilla/5.0 (compatible; HermesAgent/0.1; +https://github.com/NousResearch/hermes-agent)';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function once(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        signal,
        lookup: guardedLookup(limits.allowPrivate, limits.fakeIps),
        headers: {
          'user-agent': USER_AGENT,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en;q=0.9, *;q=0.5',
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').toLowerCase().trim()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(createGunzip());
    case 'deflate':
      return res.pipe(createInflate());
    case 'br':
      return res.pipe(createBrotliDecompress());
    default:
      return res;
  }
}

async function readCapped(
  res: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (truncated) {
      res.destroy();
      if (stream !== res) stream.destroy();
    }
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

function describe(err: unknown, url: URL, timedOut: boolean, interrupted: boolean): FetchError | Error {
  if (interrupted) return new FetchError('interrupted');
  if (timedOut) return new FetchError(`timed out (web.extract_timeout)`);
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'UrlBlockedError') return e;
  const code = e?.code ? ` (${e.code})` : '';
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN')
    return new FetchError(`could not resolve host ${url.hostname}${code}`);
  return new FetchError(`${e?.message ?? String(err)}${e?.message?.includes(e?.code ?? '\0') ? '' : code}`);
}

/**
 * Fetches `rawUrl` under `limits`.
 * @throws UrlBlockedError for a URL or address the SSRF guard refuses (first hop or a redirect);
 *   FetchError for a timeout, interrupt, DNS/connection failure or too many redirects.
 */
export async function fetchPage(rawUrl: string, limits: FetchLimits): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, deadline]) : deadline;
  let url = checkUrl(rawUrl, limits.allowPrivate, limits.fakeIps);
  for (let redirects = 0; ; redirects++) {
    let res: IncomingMessage;
    try {
      res = await once(url, limits, signal);
    } catch (err) {
      throw describe(err, url, deadline.aborted, limits.signal?.aborted ?? false);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.resume();
      if (redirects >= limits.maxRedirects)
        throw new FetchError(`too many redirects (more than ${limits.maxRedirects}, web.max_redirects)`);
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw new FetchError(`redirect to an invalid URL: ${location.slice(0, 200)}`);
      }
      url = checkUrl(next, limits.allowPrivate, limits.fakeIps);
      continue;
    }
    try {
      const { body, truncated } = await readCapped(res, limits.maxBytes);
      return {
        requestedUrl: rawUrl,
        finalUrl: url.href,
        status,
        statusText: res.statusMessage ?? '',
        contentType: String(res.headers['content-type'] ?? '').toLowerCase(),
        body,
        truncated,
        redirects,
      };
    } catch (err) {
      throw describe(err, url, deadline.aborted, limits.signal?.aborted ?? false);
    }
  }
}
