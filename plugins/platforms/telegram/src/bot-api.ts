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
export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  text?: string;
  caption?: string;
  message_thread_id?: number;
  is_topic_message?: boolean;
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
    let res: Response;
    try {
      res = await fetch(`${this.base}/bot${this.opts.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
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
}
