/**
 * Search backends of `web_search` and how one is chosen (`web.search_provider` in config.yaml).
 *
 * - `tavily`: POST `<web.tavily_url>/search`, JSON `{query, max_results}`, key TAVILY_API_KEY as
 *   `Authorization: Bearer`; answer `{results: [{title, url, content}]}` (docs.tavily.com).
 * - `brave`: GET `<web.brave_url>/res/v1/web/search?q=&count=`, key BRAVE_API_KEY as
 *   `X-Subscription-Token`; answer `{web: {results: [{title, url, description}]}}` (snippets may
 *   carry `<strong>` tags, removed here) (api-dashboard.search.brave.com).
 * - `searxng`: GET `<web.searxng_url>/search?q=&format=json`, no key; answer
 *   `{results: [{title, url, content}]}` (the instance must enable the json format).
 * Keys come from the profile's `.env`, then the process environment (`lookupSecret`).
 * Provider URLs are the user's own configuration, so the SSRF guard of `web_extract` does not
 * apply to them (a SearXNG instance is often on localhost).
 */
import type { HermesConfig } from '../../config/schema.js';
import { lookupSecret, type Secrets } from '../../config/secrets.js';

/** Names of the supported search backends. */
export type SearchProviderName = 'tavily' | 'brave' | 'searxng';

/** One search hit. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** A usable provider: its name, endpoint base and key (none for searxng). */
export interface ResolvedProvider {
  name: SearchProviderName;
  baseUrl: string;
  apiKey?: string;
}

/** A provider that answered with an error or an unreadable body. */
export class SearchError extends Error {
  override name = 'SearchError';
}

const KEY_OF = { tavily: 'TAVILY_API_KEY', brave: 'BRAVE_API_KEY' } as const;

/**
 * Picks the search provider of a profile, or null when none is usable (then `web_search` is not
 * offered). `auto` tries tavily, brave, searxng in that order; a named provider is used only when
 * it has what it needs (its key, or `web.searxng_url`); `none` is always null.
 */
export function resolveSearchProvider(
  config: HermesConfig,
  secrets: Secrets,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedProvider | null {
  const web = config.web;
  const make = (name: SearchProviderName): ResolvedProvider | null => {
    if (name === 'searxng') return web.searxng_url ? { name, baseUrl: web.searxng_url } : null;
    const apiKey = lookupSecret(secrets, KEY_OF[name], env);
    if (!apiKey) return null;
    return { name, baseUrl: name === 'tavily' ? web.tavily_url : web.brave_url, apiKey };
  };
  switch (web.search_provider) {
    case 'none':
      return null;
    case 'auto':
      return make('tavily') ?? make('brave') ?? make('searxng');
    default:
      return make(web.search_provider);
  }
}

const join = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

async function call(
  provider: ResolvedProvider,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError')
      throw new SearchError(`${provider.name} did not answer in time (web.search_timeout)`);
    if (e.name === 'AbortError') throw new SearchError('interrupted');
    throw new SearchError(`${provider.name} request failed: ${e.cause?.message ?? e.message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    const hint =
      res.status === 401 || res.status === 403
        ? provider.name === 'searxng'
          ? ' (is the json format enabled in the instance settings?)'
          : ` (check ${KEY_OF[provider.name as 'tavily' | 'brave']})`
        : '';
    throw new SearchError(`${provider.name} answered HTTP ${res.status}${hint}: ${text.slice(0, 200)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SearchError(`${provider.name} answered with something that is not JSON: ${text.slice(0, 120)}`);
  }
}

function hits(list: unknown, snippetKey: string, provider: string): SearchHit[] {
  if (!Array.isArray(list)) throw new SearchError(`${provider} answer has no results list`);
  return list
    .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object')
    .map((r) => ({
      title: stripTags(String(r.title ?? '')),
      url: String(r.url ?? ''),
      snippet: stripTags(String(r[snippetKey] ?? '')),
    }))
    .filter((h) => h.url !== '');
}

/**
 * Runs one search.
 * @param limit results wanted (1..20); providers may return fewer.
 * @param timeoutMs deadline of the request, ms.
 * @throws SearchError for a transport error, an HTTP error (status and start of the body), a
 *   timeout, an interrupt, or an answer without a results list.
 */
export async function searchWeb(
  provider: ResolvedProvider,
  query: string,
  limit: number,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<SearchHit[]> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const headers = { accept: 'application/json', 'user-agent': 'HermesAgent/0.1' };
  switch (provider.name) {
    case 'tavily': {
      const body = await call(
        provider,
        join(provider.baseUrl, '/search'),
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            authorization: `Bearer ${provider.apiKey}`,
          },
          body: JSON.stringify({ query, max_results: limit, search_depth: 'basic' }),
        },
        signal,
      );
      return hits((body as { results?: unknown })?.results, 'content', 'tavily').slice(0, limit);
    }
    case 'brave': {
      const url = `${join(provider.baseUrl, '/res/v1/web/search')}?${new URLSearchParams({ q: query, count: String(limit) })}`;
      const body = await call(
        provider,
        url,
        { headers: { ...headers, 'x-subscription-token': provider.apiKey ?? '' } },
        signal,
      );
      const web = (body as { web?: { results?: unknown } })?.web;
      return web === undefined ? [] : hits(web.results, 'description', 'brave').slice(0, limit);
    }
    case 'searxng': {
      const url = `${join(provider.baseUrl, '/search')}?${new URLSearchParams({ q: query, format: 'json' })}`;
      const body = await call(provider, url, { headers }, signal);
      return hits((body as { results?: unknown })?.results, 'content', 'searxng').slice(0, limit);
    }
  }
}
