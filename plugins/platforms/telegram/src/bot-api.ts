/**
 * A minimal Telegram Bot API client over `fetch` (HTTPS; the base URL is configurable so tests and
 * self-hosted Bot API servers work). Error messages never contain the URL: it holds the token.
 */

/** Options of the client. */
export interface BotApiOptions {
  /** e.g. `https://api.telegram.org` (no trailing slash needed). */
  baseUrl: string;
  token: string;
  /** Per-request timeout beyond a long poll's own timeout, ms (default 15,000). */
  timeoutMs?: number;
}

/** A failed call: `code` is Telegram's `error_code` (401, 409, 429 …) or 0 for network errors. */
export class BotApiError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    description: string,
    /** Seconds to wait (429). */
    readonly retryAfter?: number,
  ) {
    super(`Telegram ${method} failed${code ? ` (${code})` : ''}: ${description}`);
    this.name = 'BotApiError';
  }
}

/** Subset of Telegram types used here. */
export interface TgUser {
  id: number;
  is_bot?: boolean;
  first_name?: string;
  last_name?: string;
  username?: string;
}
export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
}
/** One size of a photo (`message.photo` lists several, smallest first). */
export interface TgPhotoSize {
  file_id: string;
  file_unique_id?: string;
  width: number;
  height: number;
  /** Bytes, when known. */
  file_size?: number;
}
/** A document, voice note, audio or video attached to a message. */
export interface TgFileRef {
  file_id: string;
  file_unique_id?: string;
  file_name?: string;
  mime_type?: string;
  /** Bytes, when known. */
  file_size?: number;
  /** Seconds (voice, audio, video). */
  duration?: number;
  title?: string;
}
/** `getFile`'s answer: where the bytes are (`/file/bot<token>/<file_path>`). */
export interface TgFile {
  file_id: string;
  file_size?: number;
  file_path?: string;
}
export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  text?: string;
  caption?: string;
  message_thread_id?: number;
  is_topic_message?: boolean;
  photo?: TgPhotoSize[];
  document?: TgFileRef;
  voice?: TgFileRef;
  audio?: TgFileRef;
  video?: TgFileRef;
  video_note?: TgFileRef;
}
export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  message?: TgMessage;
  data?: string;
}
export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  callback_query?: TgCallbackQuery;
}

/** Calls Bot API methods. */
export class BotApi {
  private readonly base: string;

  constructor(private readonly opts: BotApiOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
  }

  /**
   * Calls `method` with a JSON body.
   * @param signal aborts the request (long polling at shutdown).
   * @param extraMs added to the timeout (long polls wait on the server).
   * @throws BotApiError
   */
  async call<T>(method: string, params: object = {}, signal?: AbortSignal, extraMs = 0): Promise<T> {
    const timeout = AbortSignal.timeout((this.opts.timeoutMs ?? 15_000) + extraMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    return this.request<T>(
      method,
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) },
      combined,
      signal,
      timeout,
    );
  }

  /** POSTs one method call and unwraps Telegram's `{ok, result}` envelope. */
  private async request<T>(
    method: string,
    init: { headers?: Record<string, string>; body: string | FormData },
    combined: AbortSignal,
    signal?: AbortSignal,
    timeout: AbortSignal = combined,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/bot${this.opts.token}/${method}`, {
        method: 'POST',
        ...init,
        signal: combined,
      });
    } catch (err) {
      const e = err as Error;
      const why = signal?.aborted
        ? 'aborted'
        : timeout.aborted
          ? 'timed out'
          : (e.cause as Error)?.message || e.message;
      throw new BotApiError(method, 0, why.replaceAll(this.opts.token, '<token>'));
    }
    let body: {
      ok?: boolean;
      result?: T;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new BotApiError(method, res.status, `HTTP ${res.status} without a JSON body`);
    }
    if (!body.ok)
      throw new BotApiError(
        method,
        body.error_code ?? res.status,
        String(body.description ?? 'unknown error').replaceAll(this.opts.token, '<token>'),
        body.parameters?.retry_after,
      );
    return body.result as T;
  }

  /**
   * Calls an upload method (`sendDocument` …) as `multipart/form-data`: `fields` as text parts,
   * `file` as the part named `file.field`.
   * @throws BotApiError
   */
  async upload<T>(
    method: string,
    fields: Record<string, string | number | undefined>,
    file: { field: string; name: string; data: Buffer; mime?: string },
  ): Promise<T> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, String(v));
    form.append(
      file.field,
      new Blob([new Uint8Array(file.data)], { type: file.mime ?? 'application/octet-stream' }),
      file.name,
    );
    return this.request<T>(method, { body: form }, AbortSignal.timeout((this.opts.timeoutMs ?? 15_000) * 4));
  }

  /**
   * Downloads a file `getFile` located (`/file/bot<token>/<file_path>`).
   * @param maxBytes a larger file is refused before (Content-Length) or while it is read.
   * @throws BotApiError (code 413 when over `maxBytes`)
   */
  async download(filePath: string, maxBytes: number): Promise<Buffer> {
    const what = 'file download';
    let res: Response;
    try {
      res = await fetch(`${this.base}/file/bot${this.opts.token}/${filePath.replace(/^\/+/, '')}`, {
        signal: AbortSignal.timeout((this.opts.timeoutMs ?? 15_000) * 4),
      });
    } catch (err) {
      const e = err as Error;
      throw new BotApiError(
        what,
        0,
        ((e.cause as Error)?.message || e.message).replaceAll(this.opts.token, '<token>'),
      );
    }
    if (!res.ok) throw new BotApiError(what, res.status, `HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new BotApiError(what, 413, `${declared} bytes is over the limit`);
    }
    const parts: Buffer[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      size += chunk.value.length;
      if (size > maxBytes) {
        await reader?.cancel();
        throw new BotApiError(what, 413, `more than ${maxBytes} bytes`);
      }
      parts.push(Buffer.from(chunk.value));
    }
    return Buffer.concat(parts);
  }
}
