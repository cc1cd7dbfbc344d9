/**
 * Small pieces around matrix-js-sdk: a quiet logger for it, the /sync answer as read here, and
 * media downloads through the authenticated media API.
 */
import type { ICreateClientOpts, MatrixClient } from 'matrix-js-sdk';
import type { MatrixEvent } from './events.js';

type Logger = NonNullable<ICreateClientOpts['logger']>;
/** Options of the SDK's `authedRequest`. */
export type RequestOpts = NonNullable<Parameters<MatrixClient['http']['authedRequest']>[4]>;

/** A logger for the SDK that keeps its chatter out of the daemon's log (warnings pass). */
export function sdkLogger(log: (line: string) => void): Logger {
  const quiet = (): void => undefined;
  const l: Logger = {
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: (...m: unknown[]) => log(`matrix sdk: ${m.map(String).join(' ').slice(0, 300)}`),
    error: (...m: unknown[]) => log(`matrix sdk: ${m.map(String).join(' ').slice(0, 300)}`),
    getChild: () => l,
  };
  return l;
}

/** The parts of a /sync answer read here. */
export interface SyncResponse {
  next_batch: string;
  rooms?: {
    join?: Record<
      string,
      {
        state?: { events?: MatrixEvent[] };
        timeline?: { events?: MatrixEvent[] };
        summary?: Record<string, unknown>;
      }
    >;
    invite?: Record<string, { invite_state?: { events?: MatrixEvent[] } }>;
  };
}

/**
 * Downloads media through the authenticated media API (`/_matrix/client/v1/media/download/…`).
 * @throws Error over `max` bytes (checked before and while reading: the sender's `info.size` and
 *   a missing Content-Length are no bound) or on an HTTP failure.
 */
export async function downloadMedia(client: MatrixClient, mxc: string, max: number): Promise<Buffer> {
  const url = client.mxcUrlToHttp(mxc, undefined, undefined, undefined, false, true, true);
  if (!url) throw new Error('not an mxc:// URI');
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${client.getAccessToken() ?? ''}` },
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > max) {
    await res.body?.cancel();
    throw new Error(
      `it is over the ${max} bytes limit (platforms.matrix.max_file_bytes or images.max_bytes)`,
    );
  }
  // read with the cap: a body without a length (chunked) stops at `max`, never held whole
  const parts: Buffer[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    size += chunk.value.length;
    if (size > max) {
      await reader?.cancel();
      throw new Error(`it is over the ${max} bytes limit`);
    }
    parts.push(Buffer.from(chunk.value));
  }
  return Buffer.concat(parts);
}
