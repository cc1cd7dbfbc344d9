/**
 * A small IRC client on `node:net` / `node:tls` (no other dependency): registration (PASS, NICK,
 * USER, nick-in-use fallback, then regaining the configured nick: nick-regain.ts), PING/PONG, JOIN
 * with confirmation, topics, and a throttled send queue so the server's flood protection never
 * disconnects the bot. A refusal that retrying cannot fix (464 wrong password, 465 banned) is
 * thrown with `permanent: true`.
 */
import { EventEmitter, once } from 'node:events';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import {
  chunkText,
  ircLower,
  isChannel,
  nickOf,
  parseLine,
  sanitizeParam,
  type IrcMessage,
} from './protocol.js';
import { NickKeeper, type NickTimers } from './nick-regain.js';

/** Options of the client. */
export interface IrcClientOptions {
  host: string;
  port: number;
  tls?: boolean;
  /** Verify the server certificate (default true). */
  tlsVerify?: boolean;
  nick: string;
  username?: string;
  realname?: string;
  /** Server password (PASS). */
  password?: string;
  /** Sent to NickServ after registration (`IDENTIFY <password>`). */
  nickservPassword?: string;
  /**
   * IRCv3 capabilities the connection needs (e.g. `account-tag`), negotiated with `CAP LS 302` /
   * `CAP REQ` before registration ends; a server that does not offer or refuses one fails
   * `connect` for good (`permanent`).
   */
  capabilities?: readonly string[];
  channels?: readonly string[];
  /** Registration + joins must finish within this, ms (default 20,000). */
  connectTimeoutMs?: number;
  /** Lines sent at once before throttling (default 5). */
  burst?: number;
  /** Gap between throttled lines, ms (default 400). */
  sendIntervalMs?: number;
  /** Gap between checks whether the configured nick is free again, ms (default 60,000). */
  nickRegainMs?: number;
  /** Timers of the nick checks (default: the real ones). */
  nickTimers?: NickTimers;
  log?: (line: string) => void;
}

/** A PRIVMSG or NOTICE received. */
export interface IrcPrivmsg {
  nick: string;
  prefix: string;
  /** Our nick (a direct message) or a channel. */
  target: string;
  text: string;
  tags: Record<string, string>;
  notice: boolean;
}

/**
 * One connection. Events: `privmsg` (IrcPrivmsg), `close` (an Error when it was not asked for),
 * `message` (every parsed IrcMessage).
 */
export class IrcClient extends EventEmitter {
  nick: string;
  private socket: Socket | undefined;
  private buffer = '';
  /** Lines waiting for the throttle; `done` is told when the line was written (or lost). */
  private readonly queue: Array<{ line: string; done?: (err?: Error) => void }> = [];
  private tokens: number;
  private pump: NodeJS.Timeout | undefined;
  private closing = false;
  private registered = false;
  private readonly topics = new Map<string, string>();
  private readonly joined = new Set<string>();
  private readonly keeper: NickKeeper;

  constructor(private readonly opts: IrcClientOptions) {
    super();
    this.nick = opts.nick;
    this.tokens = opts.burst ?? 5;
    this.keeper = new NickKeeper({
      wanted: opts.nick,
      current: () => this.nick,
      send: (line) => this.raw(line, true),
      ...(opts.nickRegainMs !== undefined ? { intervalMs: opts.nickRegainMs } : {}),
      ...(opts.nickTimers ? { timers: opts.nickTimers } : {}),
      log: (l) => this.log(l),
    });
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }

  /** True after registration until the connection closes. */
  get isRegistered(): boolean {
    return this.registered;
  }

  /** Channels joined (lower-cased). */
  get channels(): string[] {
    return [...this.joined];
  }

  /** The topic of a joined channel, when the server sent one. */
  topic(channel: string): string | undefined {
    return this.topics.get(ircLower(channel));
  }

  /**
   * Connects, registers and joins the configured channels.
   * @throws Error when the server refuses (bad password, banned), closes, or the timeout passes.
   */
  async connect(): Promise<void> {
    const { host, port } = this.opts;
    const socket = this.opts.tls
      ? tlsConnect({ host, port, servername: host, rejectUnauthorized: this.opts.tlsVerify !== false })
      : netConnect({ host, port });
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.setKeepAlive(true, 60_000);
    socket.on('data', (d: string) => this.onData(d));
    socket.on('error', (err) => this.log(`socket error: ${err.message}`));
    socket.on('close', () => this.onClose());

    const timeoutMs = this.opts.connectTimeoutMs ?? 20_000;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    try {
      await new Promise<void>((resolve, reject) => {
        const event = this.opts.tls ? 'secureConnect' : 'connect';
        const cleanup = (): void => {
          socket.off(event, ok);
          socket.off('error', bad);
          ac.signal.removeEventListener('abort', onAbort);
        };
        const ok = (): void => {
          cleanup();
          resolve();
        };
        const bad = (e: Error): void => {
          cleanup();
          reject(e);
        };
        const onAbort = (): void => bad(new Error('aborted'));
        socket.once(event, ok);
        socket.once('error', bad);
        ac.signal.addEventListener('abort', onAbort, { once: true });
      });
      const caps = this.opts.capabilities ?? [];
      if (caps.length) this.raw('CAP LS 302', true);
      if (this.opts.password) this.raw(`PASS ${sanitizeParam(this.opts.password)}`, true);
      this.raw(`NICK ${this.nick}`, true);
      this.raw(
        `USER ${this.opts.username ?? this.opts.nick} 0 * :${sanitizeParam(this.opts.realname ?? 'Hermes agent')}`,
        true,
      );
      if (caps.length) await this.negotiate(caps, ac.signal);
      await this.waitFor((m) => m.command === '001', ac.signal);
      this.registered = true;
      this.keeper.start();
      if (this.opts.nickservPassword)
        this.privmsgLine('NickServ', `IDENTIFY ${sanitizeParam(this.opts.nickservPassword)}`);
      for (const ch of this.opts.channels ?? []) this.raw(`JOIN ${sanitizeParam(ch)}`);
      for (const ch of this.opts.channels ?? []) {
        await this.waitFor(
          (m) =>
            m.command === 'JOIN' &&
            nickOf(m.prefix) === this.nick &&
            ircLower(m.params[0] ?? '') === ircLower(ch),
          ac.signal,
        );
      }
    } catch (err) {
      const reason = ac.signal.aborted
        ? new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`)
        : err;
      this.destroy();
      throw reason instanceof Error ? reason : new Error(String(reason));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Requests `caps` after `CAP LS 302` was sent, then ends negotiation (`CAP END`).
   * @throws Error (`permanent`) when the server offers no capabilities, lacks one, or refuses one.
   */
  private async negotiate(caps: readonly string[], signal: AbortSignal): Promise<void> {
    const offered = new Set<string>();
    let requested = false;
    let failure: string | undefined;
    // one predicate sees every line in order (several may arrive in one read)
    await this.waitFor((m) => {
      const sub = (m.params[1] ?? '').toUpperCase();
      if (!requested) {
        // a server without IRCv3 answers 421 (unknown command) or registers at once (001)
        if (m.command === '421' || m.command === '001') {
          failure = `the server offers no IRCv3 capabilities (${caps.join(', ')} needed)`;
          return true;
        }
        if (m.command !== 'CAP' || sub !== 'LS') return false;
        for (const c of (m.params.at(-1) ?? '').split(' '))
          if (c) offered.add(c.split('=')[0]!.toLowerCase());
        if (m.params[2] === '*') return false; // more LS lines follow
        const absent = caps.filter((c) => !offered.has(c.toLowerCase()));
        if (absent.length) {
          failure = `the server does not offer the IRCv3 capability ${absent.join(', ')}`;
          return true;
        }
        this.raw(`CAP REQ :${caps.join(' ')}`, true);
        requested = true;
        return false;
      }
      if (m.command !== 'CAP' || (sub !== 'ACK' && sub !== 'NAK')) return false;
      if (sub === 'NAK') failure = `the server refused the IRCv3 capability ${caps.join(', ')}`;
      return true;
    }, signal);
    if (failure) throw Object.assign(new Error(failure), { permanent: true });
    this.raw('CAP END', true);
  }

  /** Resolves with the first message matching `pred`; rejects on close, ERROR or abort. */
  private waitFor(pred: (m: IrcMessage) => boolean, signal: AbortSignal): Promise<IrcMessage> {
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        this.off('message', onMsg);
        this.off('close', onClose);
        signal.removeEventListener('abort', onAbort);
      };
      const onMsg = (m: IrcMessage): void => {
        if (m.command === 'ERROR') {
          cleanup();
          reject(new Error(`server error: ${m.params.at(-1) ?? ''}`));
        } else if (/^(464|465|471|473|474|475)$/.test(m.command)) {
          cleanup();
          const err = new Error(`refused (${m.command}): ${m.params.at(-1) ?? ''}`);
          // a wrong password or a server ban stays so on every retry
          if (m.command === '464' || m.command === '465') Object.assign(err, { permanent: true });
          reject(err);
        } else if (pred(m)) {
          cleanup();
          resolve(m);
        }
      };
      const onClose = (): void => {
        cleanup();
        reject(new Error('connection closed'));
      };
      const onAbort = (): void => {
        cleanup();
        reject(new Error('aborted'));
      };
      this.on('message', onMsg);
      this.on('close', onClose);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private onData(data: string): void {
    this.buffer += data;
    if (this.buffer.length > 64 * 1024 && !this.buffer.includes('\n')) this.buffer = ''; // garbage
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const m = parseLine(line);
      if (m) this.handle(m);
    }
  }

  private handle(m: IrcMessage): void {
    switch (m.command) {
      case 'PING':
        this.raw(`PONG :${sanitizeParam(m.params.at(-1) ?? '')}`, true);
        break;
      case '433': // nick in use
      case '432': // erroneous nick
        if (!this.registered) {
          this.nick = `${this.nick.slice(0, 14)}_`;
          this.raw(`NICK ${this.nick}`, true);
        }
        break;
      case '001':
        if (m.params[0]) this.nick = m.params[0];
        break;
      case 'NICK':
        if (ircLower(nickOf(m.prefix)) === ircLower(this.nick) && m.params[0]) {
          this.nick = m.params[0];
          if (!this.keeper.needed) {
            this.log(`took back the nick ${this.nick}`);
            if (this.opts.nickservPassword)
              this.privmsgLine('NickServ', `IDENTIFY ${sanitizeParam(this.opts.nickservPassword)}`);
          }
        }
        break;
      case 'JOIN':
        if (nickOf(m.prefix) === this.nick && m.params[0]) this.joined.add(ircLower(m.params[0]));
        break;
      case 'PART':
      case 'KICK': {
        const who = m.command === 'KICK' ? m.params[1] : nickOf(m.prefix);
        if (who === this.nick && m.params[0]) this.joined.delete(ircLower(m.params[0]));
        break;
      }
      case '332': // RPL_TOPIC: me channel :topic
        if (m.params[1]) this.topics.set(ircLower(m.params[1]), m.params[2] ?? '');
        break;
      case 'TOPIC':
        if (m.params[0]) this.topics.set(ircLower(m.params[0]), m.params[1] ?? '');
        break;
      case 'PRIVMSG':
      case 'NOTICE': {
        const [target, text] = m.params;
        if (target === undefined || text === undefined || !m.prefix.includes('!')) break;
        this.emit('privmsg', {
          nick: nickOf(m.prefix),
          prefix: m.prefix,
          target,
          text,
          tags: m.tags,
          notice: m.command === 'NOTICE',
        } satisfies IrcPrivmsg);
        break;
      }
    }
    if (this.registered) this.keeper.onMessage(m);
    this.emit('message', m);
  }

  private onClose(): void {
    const wasRegistered = this.registered;
    this.registered = false;
    this.keeper.stop();
    clearTimeout(this.pump);
    this.pump = undefined;
    const lost = this.queue.splice(0);
    for (const q of lost) q.done?.(new Error('the connection closed before the line was sent'));
    this.emit(
      'close',
      this.closing ? undefined : new Error(wasRegistered ? 'connection lost' : 'connection closed'),
    );
  }

  /**
   * Queues a raw line (`now`: bypass the throttle, for registration and PONG).
   * @param done told once the line was handed to the operating system, or with the error that lost it.
   */
  raw(line: string, now = false, done?: (err?: Error) => void): void {
    const l = line.replace(/[\r\n]+/g, ' ');
    if (now) {
      this.socket?.write(`${l}\r\n`);
      return;
    }
    this.queue.push({ line: l, ...(done ? { done } : {}) });
    this.drain();
  }

  private drain(): void {
    while (this.queue.length > 0 && this.tokens > 0) {
      this.tokens--;
      const { line, done } = this.queue.shift()!;
      const socket = this.socket;
      if (!socket || socket.destroyed) done?.(new Error('not connected'));
      else socket.write(`${line}\r\n`, (err) => done?.(err ?? undefined));
    }
    if (this.pump || (this.queue.length === 0 && this.tokens >= (this.opts.burst ?? 5))) return;
    this.pump = setTimeout(() => {
      this.pump = undefined;
      this.tokens = Math.min(this.opts.burst ?? 5, this.tokens + 1);
      this.drain();
    }, this.opts.sendIntervalMs ?? 400);
    this.pump.unref?.();
  }

  private privmsgLine(target: string, line: string, done?: (err?: Error) => void): void {
    this.raw(`PRIVMSG ${sanitizeParam(target).split(' ')[0]} :${line}`, false, done);
  }

  /** Sends text to a nick or channel, one PRIVMSG per line (split to the byte limit). */
  say(target: string, text: string): number {
    const lines = chunkText(text);
    for (const line of lines) this.privmsgLine(target, line);
    return lines.length;
  }

  /**
   * Like `say`, and resolves once every line was written to the socket (IRC has no receipts:
   * that is as far as delivery can be confirmed).
   * @returns the number of lines; rejects when the connection closed before all were written.
   */
  sayConfirmed(target: string, text: string): Promise<number> {
    const lines = chunkText(text);
    return Promise.all(
      lines.map(
        (line) =>
          new Promise<void>((resolve, reject) =>
            this.privmsgLine(target, line, (err) => (err ? reject(err) : resolve())),
          ),
      ),
    ).then(() => lines.length);
  }

  /** Joins a channel (for targets the bot is not in yet). */
  join(channel: string): void {
    if (isChannel(channel) && !this.joined.has(ircLower(channel))) this.raw(`JOIN ${sanitizeParam(channel)}`);
  }

  /** Sends the queued lines, then QUIT, and closes (at most `graceMs`). */
  async quit(message = 'bye', graceMs = 2_000): Promise<void> {
    this.closing = true;
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    const deadline = Date.now() + graceMs;
    while (this.queue.length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    socket.write(`QUIT :${sanitizeParam(message)}\r\n`);
    socket.end();
    await Promise.race([
      once(socket, 'close'),
      new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()))),
    ]);
    this.destroy();
  }

  /** Closes the socket at once. */
  destroy(): void {
    this.closing = true;
    this.keeper.stop();
    clearTimeout(this.pump);
    this.socket?.destroy();
  }
}
