/**
 * Finding OpenAI-compatible model servers on this machine for the first-run model setup: the usual
 * local servers on loopback are asked `GET <base_url>/models` with a short timeout, and those that
 * answer are offered with their models. Plain `fetch` in the TUI process: nothing is sent anywhere
 * but 127.0.0.1 unless the user types another URL.
 */

/** A local server the setup knows by its usual port. */
export interface KnownServer {
  name: string;
  baseUrl: string;
}

/** The usual local servers (their default ports, OpenAI-compatible path `/v1`). */
export const LOCAL_SERVERS: readonly KnownServer[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1' },
  { name: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
];

/** A server that answered, with the model ids it lists. */
export interface FoundServer extends KnownServer {
  models: string[];
}

/** Default time a probe may take, ms. */
export const PROBE_TIMEOUT_MS = 700;

/** Normalises a typed base URL: trimmed, no trailing slash, `http://` added when no scheme. */
export function normalizeBaseUrl(url: string): string {
  let u = url.trim().replace(/\/+$/, '');
  if (u && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) u = `http://${u}`;
  return u;
}

/** Model ids of an OpenAI `GET /models` body (`{data:[{id}]}`; also Ollama's `{models:[{name}]}`). */
export function modelIds(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as { data?: unknown; models?: unknown };
  const list = Array.isArray(b.data) ? b.data : Array.isArray(b.models) ? b.models : [];
  const ids = list.flatMap((m: unknown) => {
    if (typeof m !== 'object' || m === null) return [];
    const r = m as { id?: unknown; name?: unknown };
    const id = typeof r.id === 'string' ? r.id : typeof r.name === 'string' ? r.name : '';
    return id ? [id] : [];
  });
  return [...new Set(ids)];
}

/**
 * Asks `GET <baseUrl>/models`, with `key` as a bearer token when given.
 * @returns the model ids (possibly empty) when the server answered 2xx with JSON, else an Error
 *   saying why (timeout, refused, HTTP status) — never throws.
 */
export async function probeServer(
  baseUrl: string,
  timeoutMs = PROBE_TIMEOUT_MS,
  key?: string,
): Promise<string[] | Error> {
  const url = `${normalizeBaseUrl(baseUrl)}/models`;
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    });
    if (!res.ok) {
      await res.body?.cancel();
      return new Error(`${url} answered HTTP ${res.status}`);
    }
    return modelIds(await res.json());
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const why =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.message);
    return new Error(`${url}: ${why}`);
  }
}

/** Probes every known local server at once; resolves with those that answered, in list order. */
export async function probeLocalServers(
  servers: readonly KnownServer[] = LOCAL_SERVERS,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<FoundServer[]> {
  const results = await Promise.all(servers.map((s) => probeServer(s.baseUrl, timeoutMs)));
  return servers.flatMap((s, i) => {
    const r = results[i];
    return Array.isArray(r) ? [{ ...s, models: r }] : [];
  });
}
