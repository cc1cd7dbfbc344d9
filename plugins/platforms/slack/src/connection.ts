/**
 * The Slack connection: a Bolt `App` on a Socket Mode receiver, with every HTTP call (the bot's
 * Web API calls and `apps.connections.open`) sent to the configured API base — Bolt's
 * `clientOptions.slackApiUrl` and the receiver's `installerOptions.clientOptions` — so a local
 * stand-in works with the SDK unchanged.
 *
 * Opening: `auth.test` with the bot token (who the bot is), then the socket (`apps.connections.open`
 * with the app token, the WebSocket, Slack's `hello`). A refused token (`invalid_auth`,
 * `not_authed`, `account_inactive`, `token_revoked`, a bot token where the app token belongs …)
 * is marked `permanent`: retrying cannot help, and `hermes gateway status` shows it as failed.
 *
 * Socket drops: Slack closes Socket Mode connections routinely (a `disconnect` envelope with
 * `refresh_requested` or `warning`, or a plain close). The SDK's own reconnect loop is switched
 * off — it waits 5 s per attempt and its failures end as unhandled rejections with no status — and
 * the socket is opened again here at once (three tries, 0.5 s apart). Only when that fails is the
 * loss reported (`onLost`), and the daemon's host reconnects with its backoff and status.
 * Events API envelopes (messages, mentions) are acknowledged only once the app's listeners are done
 * — for a message, once the pipeline has recorded it (its receipt) — so a daemon killed in between
 * leaves the envelope unacknowledged and Slack delivers it again (`deferEventAcks`). One whose ack
 * did not reach Slack comes again (`retry_attempt`), and the adapter's dedupe key drops the copy.
 * Interactive and slash-command envelopes keep Bolt's own acknowledgement (listeners ack them).
 */
import { App, LogLevel, SocketModeReceiver, webApi, type Logger } from '@slack/bolt';

/** Token errors that do not go away by retrying. */
const PERMANENT_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
  'user_removed_from_team',
  'team_disabled',
  'missing_scope',
]);

/** Options of the connection. */
export interface ConnectionOptions {
  /** Web API base URL, ending in `/` (e.g. `https://slack.com/api/`). */
  apiBase: string;
  botToken: string;
  appToken: string;
  /** How long to wait for a pong to the client's ping, ms (the SDK's `clientPingTimeout`). */
  pingTimeoutMs: number;
  /** Timeout of one Web API call, ms. */
  callTimeoutMs?: number;
  log: (line: string) => void;
}

/** Who the bot is (from `auth.test`). */
export interface BotIdentity {
  userId: string;
  botId?: string;
  teamId?: string;
  team?: string;
}

/** The error's Slack `error` code, when it is a Web API error. */
export function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** Marks `err` permanent when its Slack error code is one retrying cannot fix. */
function markPermanent(err: unknown, what: string): Error {
  const code = slackErrorCode(err);
  const e = new Error(`${what}: ${code ?? (err as Error)?.message ?? 'the socket closed before hello'}`);
  if (code && PERMANENT_ERRORS.has(code)) Object.assign(e, { permanent: true });
  return e;
}

/** Bolt's logger interface writing warnings and errors to the adapter's log (never tokens). */
export function boltLogger(log: (line: string) => void): Logger {
  let level = LogLevel.WARN;
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...m: unknown[]) => log(`${m.map(String).join(' ')}`),
    error: (...m: unknown[]) => log(`${m.map(String).join(' ')}`),
    setLevel: (l: LogLevel) => void (level = l),
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** One Socket Mode session of the bot (not reusable once closed). */
export class SlackConnection {
  /** The bot's Web API client (bot token, the configured base URL). */
  readonly web: webApi.WebClient;
  private app: App | undefined;
  private receiver: SocketModeReceiver | undefined;
  private closing = false;
  /** The socket said hello once: later closes are drops to recover from. */
  private up = false;
  private reopening: Promise<void> | undefined;

  constructor(private readonly opts: ConnectionOptions) {
    this.web = new webApi.WebClient(opts.botToken, this.clientOptions(2));
  }

  private clientOptions(retries: number): webApi.WebClientOptions {
    return {
      slackApiUrl: this.opts.apiBase,
      logger: boltLogger(this.opts.log),
      timeout: this.opts.callTimeoutMs ?? 15_000,
      retryConfig: { retries, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    };
  }

  /**
   * Checks the bot token, opens the socket and resolves once Slack said hello.
   * @param register adds the app's listeners (before any envelope can arrive).
   * @param onLost called when the socket dropped and could not be opened again.
   * @throws Error (`permanent: true` for refused tokens).
   */
  async open(
    register: (app: App, me: BotIdentity) => void,
    onLost: (err: Error) => void,
  ): Promise<BotIdentity> {
    let auth: webApi.AuthTestResponse;
    try {
      auth = await this.web.auth.test();
    } catch (err) {
      throw markPermanent(err, 'the bot token (SLACK_BOT_TOKEN) was refused');
    }
    const me: BotIdentity = {
      userId: String(auth.user_id ?? ''),
      ...(auth.bot_id ? { botId: String(auth.bot_id) } : {}),
      ...(auth.team_id ? { teamId: String(auth.team_id) } : {}),
      ...(auth.team ? { team: String(auth.team) } : {}),
    };
    const logger = boltLogger(this.opts.log);
    this.receiver = new SocketModeReceiver({
      appToken: this.opts.appToken,
      logger,
      autoReconnectEnabled: false,
      clientPingTimeout: this.opts.pingTimeoutMs,
      // apps.connections.open goes to the same base; its failures come straight back here
      installerOptions: { clientOptions: this.clientOptions(0) },
    });
    this.app = new App({
      token: this.opts.botToken,
      receiver: this.receiver,
      botUserId: me.userId,
      ...(me.botId ? { botId: me.botId } : {}),
      tokenVerificationEnabled: false,
      clientOptions: this.clientOptions(2),
      logger,
      convoStore: false,
    });
    this.app.error(async (err) => this.opts.log(`a listener failed: ${err.message}`));
    register(this.app, me);
    const socket = this.receiver.client;
    deferEventAcks(socket);
    socket.on('disconnected', () => {
      if (!this.closing && this.up) this.reopen(onLost);
    });
    await this.startSocket('the app token (SLACK_APP_TOKEN) was refused');
    this.up = true;
    return me;
  }

  private async startSocket(what: string): Promise<void> {
    try {
      await this.receiver!.client.start();
    } catch (err) {
      throw markPermanent(err, what);
    }
  }

  /** Opens the socket again after a drop; reports the loss when that fails. */
  private reopen(onLost: (err: Error) => void): void {
    if (this.reopening) return;
    this.opts.log('the socket closed; reconnecting');
    this.reopening = (async () => {
      let last: Error | undefined;
      for (let attempt = 1; attempt <= 3 && !this.closing; attempt++) {
        try {
          await this.startSocket('reconnecting failed');
          // closed while this attempt ran: the socket it opened must not live on
          if (this.closing) await this.receiver?.client.disconnect().catch(() => undefined);
          else this.opts.log('reconnected');
          return;
        } catch (err) {
          last = err as Error;
          if ((last as { permanent?: boolean }).permanent) break;
          await new Promise((r) => setTimeout(r, 500 * attempt));
        }
      }
      if (!this.closing) onLost(last ?? new Error('the socket closed'));
    })().finally(() => {
      this.reopening = undefined;
    });
  }

  /** Closes the socket (at most ~3 s); idempotent, never throws. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const socket = this.receiver?.client;
    if (!socket) return;
    await Promise.race([
      socket.disconnect().catch(() => undefined),
      new Promise((r) => setTimeout(r, 3_000).unref()),
    ]);
    socket.removeAllListeners();
  }
}

/** What the Socket Mode client emits as `slack_event` (the fields used here). */
interface SlackEventArgs {
  type: string;
  ack: (response?: Record<string, unknown>) => Promise<void>;
  [field: string]: unknown;
}

/** The part of a Socket Mode client `deferEventAcks` needs (an EventEmitter). */
interface SlackEventEmitter {
  listeners(event: 'slack_event'): Array<(...args: unknown[]) => void>;
  removeListener(event: 'slack_event', listener: (...args: unknown[]) => void): unknown;
  on(event: 'slack_event', listener: (args: SlackEventArgs) => void): unknown;
}

/**
 * Makes the receiver acknowledge an `events_api` envelope only after the app has processed it:
 * Bolt acknowledges Events API envelopes before its listeners run, so an envelope whose message
 * the daemon had not yet recorded would be lost to a crash right after. The receiver's
 * `slack_event` listener is wrapped: for `events_api` it is given an `ack` that does nothing,
 * and the real ack is sent when processing finished (whatever its outcome — a listener that
 * failed is logged, and retrying the same envelope would fail the same way). Other envelope types
 * pass through unchanged.
 */
export function deferEventAcks(client: SlackEventEmitter): void {
  for (const original of client.listeners('slack_event')) {
    const handler = original as unknown as (args: SlackEventArgs) => Promise<void>;
    client.removeListener('slack_event', original);
    client.on('slack_event', (args) => {
      if (args.type !== 'events_api') return void handler(args);
      void handler({ ...args, ack: async () => undefined })
        .catch(() => undefined)
        .then(() => args.ack())
        .catch(() => undefined); // the socket closed meanwhile: Slack delivers it again
    });
  }
}
