/**
 * The gateway half of the local Discord stand-in (tests/support/fake-discord.ts): a WebSocket
 * server speaking Discord's gateway protocol v10 with JSON encoding and no compression — HELLO
 * (`heartbeat_interval`), IDENTIFY → READY (`session_id`, `resume_gateway_url`, the bot user and
 * application) followed by GUILD_CREATE, heartbeats answered with HEARTBEAT_ACK, dispatches with
 * increasing sequence numbers, and RESUME → the missed dispatches replayed → RESUMED. Every
 * dispatch is kept in the session's log, so events sent while the connection is down reach the
 * bot when it resumes, as on Discord. A test can drop the connection (`drop`).
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

/** Gateway opcodes used here. */
const OP = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
} as const;

/** One recorded gateway payload the bot sent (op and data). */
export interface GatewayFrame {
  op: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  d: any;
  at: number;
}

/** What the gateway needs from the stand-in. */
export interface GatewayOptions {
  server: Server;
  /** Path of the gateway (`/gateway`). */
  path: string;
  /** Full URL of the gateway, for `resume_gateway_url`. */
  url: () => string;
  token: string;
  /** The READY payload's `user` and `application`, and the guilds' GUILD_CREATE payloads. */
  ready: () => { user: object; application: object; guilds: object[] };
  heartbeatIntervalMs: number;
}

interface Session {
  id: string;
  seq: number;
  /** Every dispatch of the session: `[s, t, d]`. */
  log: Array<{ s: number; t: string; d: unknown }>;
  socket: WebSocket | undefined;
}

/** The gateway stand-in. */
export class FakeGateway {
  /** Every payload the bot sent, in order. */
  readonly received: GatewayFrame[] = [];
  /** A close code given to every IDENTIFY instead of READY (4014: disallowed intents). */
  identifyClose: number | undefined;
  /** While true, the token is refused (4004), as after it was reset in the developer portal. */
  revoked = false;
  /** While true, new connections are cut at once (a gateway that is down). */
  refuse = false;
  /** Counts of IDENTIFY and RESUME. */
  identifies = 0;
  resumes = 0;
  private session: Session | undefined;
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly opts: GatewayOptions) {
    this.wss = new WebSocketServer({ server: opts.server, path: opts.path });
    this.wss.on('connection', (ws) => this.onConnection(ws));
  }

  /** True while a session's socket is open. */
  get connected(): boolean {
    return this.session?.socket?.readyState === 1;
  }

  /** The sequence number of the last dispatch. */
  get seq(): number {
    return this.session?.seq ?? 0;
  }

  private onConnection(ws: WebSocket): void {
    if (this.refuse) {
      ws.terminate();
      return;
    }
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      if (this.session?.socket === ws) this.session.socket = undefined;
      this.wake();
    });
    ws.on('message', (raw) => this.onFrame(ws, raw.toString('utf8')));
    this.sendRaw(ws, {
      op: OP.hello,
      d: { heartbeat_interval: this.opts.heartbeatIntervalMs },
      s: null,
      t: null,
    });
  }

  private sendRaw(ws: WebSocket, payload: object): void {
    if (ws.readyState === 1) ws.send(JSON.stringify(payload));
  }

  private onFrame(ws: WebSocket, text: string): void {
    let p: { op: number; d: unknown };
    try {
      p = JSON.parse(text) as typeof p;
    } catch {
      ws.close(4002, 'Error while decoding payload.');
      return;
    }
    this.received.push({ op: p.op, d: p.d, at: Date.now() });
    this.wake();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const d = p.d as any;
    switch (p.op) {
      case OP.heartbeat:
        return this.sendRaw(ws, { op: OP.heartbeatAck, d: null, s: null, t: null });
      case OP.identify: {
        if (d?.token !== this.opts.token || this.revoked) return ws.close(4004, 'Authentication failed.');
        if (this.identifyClose) return ws.close(this.identifyClose, 'Disallowed intent(s).');
        this.identifies++;
        this.session?.socket?.close(4009, 'Session timed out.');
        this.session = { id: randomBytes(16).toString('hex'), seq: 0, log: [], socket: ws };
        const { user, application, guilds } = this.opts.ready();
        this.dispatch('READY', {
          v: 10,
          user,
          application,
          guilds: guilds.map((g) => ({ id: (g as { id: string }).id, unavailable: true })),
          session_id: this.session.id,
          resume_gateway_url: this.opts.url(),
          shard: [0, 1],
          private_channels: [],
          relationships: [],
          user_settings: {},
          guild_join_requests: [],
          presences: [],
          geo_ordered_rtc_regions: [],
        });
        for (const g of guilds) this.dispatch('GUILD_CREATE', g);
        return;
      }
      case OP.resume: {
        const s = this.session;
        if (d?.token !== this.opts.token || this.revoked) return ws.close(4004, 'Authentication failed.');
        if (!s || d?.session_id !== s.id) {
          this.sendRaw(ws, { op: OP.invalidSession, d: false, s: null, t: null });
          return;
        }
        this.resumes++;
        s.socket = ws;
        for (const e of s.log) if (e.s > Number(d.seq ?? 0)) this.sendRaw(ws, { op: OP.dispatch, ...e });
        this.dispatch('RESUMED', {});
        return;
      }
      default:
        return;
    }
  }

  /**
   * Sends a dispatch (`op: 0`) with the next sequence number; kept in the session's log, so a bot
   * whose connection is down gets it when it resumes. Without a session it is dropped.
   */
  dispatch(t: string, d: unknown): void {
    const s = this.session;
    if (!s) return;
    const e = { s: ++s.seq, t, d };
    s.log.push(e);
    if (s.socket) this.sendRaw(s.socket, { op: OP.dispatch, ...e });
  }

  /**
   * Drops the bot's connection: the TCP connection is cut (`terminate`, the client sees 1006), or
   * closed with `code` (4000: unknown error, resumable; 4004: authentication failed, final).
   */
  drop(code?: number): void {
    const ws = this.session?.socket;
    if (!ws) return;
    this.session!.socket = undefined;
    if (code) ws.close(code, 'closed by the test');
    else ws.terminate();
  }

  /** Resolves once `probe` is true (checked on every frame and close), or throws after `timeoutMs`. */
  async waitFor(probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((r) => {
        const t = setTimeout(done, 100);
        const self = this.waiters;
        function done(): void {
          clearTimeout(t);
          self.delete(done);
          r();
        }
        self.add(done);
      });
    }
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Closes every socket and the WebSocket server (the HTTP server is closed by its owner). */
  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
  }
}
