/**
 * A raw-socket IRC user for tests: registers a nick, joins channels, sends PRIVMSGs and waits for
 * messages addressed to it or to a channel it is in.
 */
import { connect, type Socket } from 'node:net';

/** A PRIVMSG or NOTICE the test user received. */
export interface Received {
  from: string;
  target: string;
  text: string;
  command: 'PRIVMSG' | 'NOTICE';
}

/** One IRC user. */
export class IrcTestUser {
  readonly received: Received[] = [];
  private socket!: Socket;
  private buffer = '';
  private lines: string[] = [];
  private waiters: Array<() => void> = [];

  constructor(
    readonly nick: string,
    private readonly port: number,
  ) {}

  private onLine(line: string): void {
    this.lines.push(line);
    const m = /^:([^!\s]+)!\S+ (PRIVMSG|NOTICE) (\S+) :(.*)$/.exec(line);
    if (m)
      this.received.push({ from: m[1]!, command: m[2] as Received['command'], target: m[3]!, text: m[4]! });
    if (line.startsWith('PING')) this.raw(`PONG ${line.slice(5)}`);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when `pred` holds (checked on every line), else rejects after `timeoutMs`. */
  async until<T>(pred: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(
          `${this.nick}: timed out waiting for ${what}; last lines:\n${this.lines.slice(-15).join('\n')}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(r, 100);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** Connects and registers. */
  async connect(): Promise<this> {
    this.socket = connect({ host: '127.0.0.1', port: this.port });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => {
      this.buffer += d;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.onLine(this.buffer.slice(0, nl).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(nl + 1);
      }
    });
    this.raw(`NICK ${this.nick}`);
    this.raw(`USER ${this.nick} 0 * :${this.nick}`);
    await this.until(() => this.lines.some((l) => / 001 /.test(l)), 'registration');
    return this;
  }

  /** True when a line received so far matches `re`. */
  sawLine(re: RegExp): boolean {
    return this.lines.some((l) => re.test(l));
  }

  raw(line: string): void {
    this.socket.write(`${line}\r\n`);
  }

  /** Joins a channel and waits for the join. */
  async join(channel: string): Promise<void> {
    this.raw(`JOIN ${channel}`);
    await this.until(
      () =>
        this.lines.some((l) => l.startsWith(`:${this.nick}!`) && / JOIN :?#/.test(l) && l.includes(channel)),
      `joining ${channel}`,
    );
  }

  /** True once `nick` is in `channel` (NAMES). */
  async waitForMember(channel: string, nick: string): Promise<void> {
    await this.until(() => {
      this.raw(`NAMES ${channel}`);
      return this.lines.some(
        (l) => / 353 /.test(l) && l.includes(channel) && new RegExp(`[ :@+]${nick}( |$)`).test(l),
      );
    }, `${nick} in ${channel}`);
  }

  say(target: string, text: string): void {
    this.raw(`PRIVMSG ${target} :${text}`);
  }

  /** The first received message after index `from` matching `pred`. */
  async expectMessage(
    pred: (r: Received) => boolean,
    what: string,
    from = 0,
    timeoutMs = 20_000,
  ): Promise<Received> {
    return this.until(() => this.received.slice(from).find(pred), what, timeoutMs);
  }

  close(): void {
    try {
      this.raw('QUIT :bye');
    } catch {
      /* already closed */
    }
    this.socket?.destroy();
  }
}
