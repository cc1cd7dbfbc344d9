/**
 * The IRC adapter against a tiny IRC server on a loopback socket that speaks the real protocol
 * (registration 001, JOIN echo, PRIVMSG, 464, a dropped connection).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrcAdapter } from './adapter.js';
import { platform } from './index.js';

/** One-connection-at-a-time IRC server: records the lines it got, can send and drop. */
class FakeIrcServer {
  readonly lines: string[] = [];
  private readonly server: Server;
  private client: Socket | undefined;
  private readonly waiters = new Set<() => void>();
  port = 0;

  /**
   * `caps`: the IRCv3 capabilities offered to `CAP LS` (split over two LS lines; registration then
   * waits for `CAP END`); absent: `CAP` is an unknown command (421), as on a server without IRCv3.
   */
  constructor(private readonly opts: { password?: string; caps?: string[] } = {}) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  private accept(socket: Socket): void {
    this.client = socket;
    socket.setEncoding('utf8');
    let buf = '';
    let nick = '';
    let pass: string | undefined;
    let negotiating = false;
    let registered = false;
    const welcome = (): void => {
      if (registered) return;
      registered = true;
      if (this.opts.password !== undefined && pass !== this.opts.password)
        this.send(`:irc.test 464 ${nick} :Password incorrect`);
      else this.send(`:irc.test 001 ${nick} :Welcome to the test network ${nick}`);
    };
    socket.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl).replace(/\r$/, '');
        buf = buf.slice(nl + 1);
        this.lines.push(line);
        const [cmd, ...rest] = line.split(' ');
        if (cmd === 'PASS') pass = rest[0];
        if (cmd === 'NICK') nick = rest[0]!;
        if (cmd === 'CAP') {
          const caps = this.opts.caps;
          const sub = rest[0];
          if (!caps) this.send(`:irc.test 421 * CAP :Unknown command`);
          else if (sub === 'LS') {
            negotiating = true;
            // two lines, the first marked `*` (more follow), in one write
            this.client?.write(
              `:irc.test CAP * LS * :multi-prefix\r\n:irc.test CAP * LS :${caps.join(' ')}\r\n`,
            );
          } else if (sub === 'REQ') {
            const wanted = rest.slice(1).join(' ').replace(/^:/, '').split(' ');
            const ok = wanted.every((c) => caps.includes(c));
            this.send(`:irc.test CAP * ${ok ? 'ACK' : 'NAK'} :${wanted.join(' ')}`);
          } else if (sub === 'END') welcome();
        }
        if (cmd === 'USER' && !negotiating) welcome();
        if (cmd === 'JOIN') this.send(`:${nick}!bot@127.0.0.1 JOIN ${rest[0]}`);
        for (const w of [...this.waiters]) w();
      }
    });
    socket.on('error', () => undefined);
  }

  /** Sends a raw line to the connected client. */
  send(line: string): void {
    this.client?.write(`${line}\r\n`);
  }

  /** Drops the connection without QUIT (a network failure). */
  drop(): void {
    this.client?.destroy();
  }

  /** Resolves with the first received line matching `re`. */
  waitForLine(re: RegExp, timeoutMs = 1_500): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = this.lines.find((l) => re.test(l));
        if (!hit) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no line matching ${re}; got: ${this.lines.join(' | ')}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.client?.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(
  opts: { password?: string; caps?: string[]; secrets?: Record<string, string>; identity?: string } = {},
) {
  const server = await new FakeIrcServer(opts).listen();
  cleanup.push(() => server.close());
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: {
      server: '127.0.0.1',
      port: server.port,
      nick: 'hermes',
      channels: ['#test'],
      ...(opts.identity ? { identity: opts.identity } : {}),
    },
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as IrcAdapter);
  cleanup.push(() => adapter.disconnect());
  return { server, host, adapter };
}

describe('IrcAdapter against an IRC server', () => {
  it('registers, joins, hands an addressed channel message to the host and sends the reply', async () => {
    const { server, host, adapter } = await start();
    await adapter.connect();
    expect(server.lines).toEqual(expect.arrayContaining(['NICK hermes', 'JOIN #test']));

    server.send(':alice!a@127.0.0.1 PRIVMSG #test :not for the bot');
    server.send(':alice!a@127.0.0.1 PRIVMSG #test :hermes: what time is it?');
    server.send(':bob!b@127.0.0.1 PRIVMSG hermes :a direct one');
    await host.message(1);
    expect(host.messages.map((m) => [m.source.chatType, m.source.chatId, m.source.userId, m.text])).toEqual([
      ['channel', '#test', 'alice', 'what time is it?'],
      ['dm', 'bob', 'bob', 'a direct one'],
    ]);

    const sent = await adapter.send('#test', 'noon', { replyTo: host.messages[0]!.source.messageId! });
    expect(sent).toEqual({ ok: true });
    await server.waitForLine(/^PRIVMSG #test :alice: noon$/);
    await adapter.send('bob', 'hi bob');
    await server.waitForLine(/^PRIVMSG bob :hi bob$/);
  });

  it('reports a lost connection to the host, once', async () => {
    const { server, host, adapter } = await start();
    await adapter.connect();
    server.drop();
    const [err] = await host.waitFor(() => host.fatal.length > 0 && host.fatal, 'a fatal error');
    expect(err!.message).toBe('connection lost');
    expect(await adapter.send('#test', 'anyone?')).toMatchObject({ ok: false });
  });

  it('a refused server password fails connect for good (permanent)', async () => {
    const { adapter, server } = await start({ password: 'right', secrets: { IRC_PASSWORD: 'wrong' } });
    await expect(adapter.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/refused \(464\)/),
      permanent: true,
    });
    expect(server.lines[0]).toBe('PASS wrong');
  });
});

describe('identity: account (IRCv3 account-tag)', () => {
  it('a sender is the services account the server vouches for; no account, no user id', async () => {
    const { server, host, adapter } = await start({ caps: ['account-tag', 'sasl'], identity: 'account' });
    await adapter.connect();
    expect(server.lines).toEqual(expect.arrayContaining(['CAP LS 302', 'CAP REQ :account-tag', 'CAP END']));
    server.send('@account=alice :alice!a@127.0.0.1 PRIVMSG hermes :it is me');
    // the nick alice, but logged in to no account, or to bob's: not alice
    server.send(':alice!x@10.0.0.9 PRIVMSG hermes :me too');
    server.send('@account=bob :alice!y@10.0.0.9 PRIVMSG #test :hermes: and me');
    await host.message(2);
    expect(host.messages.map((m) => [m.source.chatId, m.source.userId, m.source.userName])).toEqual([
      ['alice', 'alice', 'alice'],
      ['alice', undefined, 'alice'],
      ['#test', 'bob', 'alice'],
    ]);
  });

  it('identity: nick keeps the nick as the user id and negotiates nothing', async () => {
    const { server, host, adapter } = await start({ caps: ['account-tag'] });
    await adapter.connect();
    expect(server.lines.some((l) => l.startsWith('CAP'))).toBe(false);
    server.send('@account=bob :alice!a@127.0.0.1 PRIVMSG hermes :hi');
    await host.message(0);
    expect(host.messages[0]!.source.userId).toBe('alice');
  });

  it('a server without account-tag, or without IRCv3 at all, fails connect for good, naming it', async () => {
    const noTag = await start({ caps: ['multi-prefix'], identity: 'account' });
    await expect(noTag.adapter.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/does not offer the IRCv3 capability account-tag/),
      permanent: true,
    });
    const old = await start({ identity: 'account' });
    await expect(old.adapter.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/offers no IRCv3 capabilities/),
      permanent: true,
    });
  });
});

describe('platforms.irc settings', () => {
  const check = (config: Record<string, unknown>): unknown =>
    platform.validateConfig!(testPlatformContext({ config }));

  it('name the key and the problem', () => {
    expect(check({})).toBe('platforms.irc.server is not set');
    expect(check({ server: 'irc.example', port: '6667' })).toBe('platforms.irc.port: expected a number');
    expect(check({ server: 'irc.example', nick: '9lives' })).toBe(
      'platforms.irc.nick: "9lives" is not a valid nick',
    );
    expect(check({ server: 'irc.example', channels: ['#ok', 'no hash'] })).toBe(
      'platforms.irc.channels[1]: expected a channel name like "#hermes"',
    );
    expect(check({ server: 'irc.example', flood_burst: 0 })).toBe(
      'platforms.irc.flood_burst: must be at least 1',
    );
  });

  it('fill the defaults (port by tls)', () => {
    const parsed = (config: Record<string, unknown>) => {
      const r = platform.parse(testPlatformContext({ config }));
      if (!r.ok) throw new Error(r.error);
      return r.setup.settings;
    };
    expect(parsed({ server: 'irc.example' })).toMatchObject({
      port: 6667,
      tls: false,
      nick: 'hermes',
      channels: [],
      require_mention: true,
      flood_burst: 5,
      flood_interval_ms: 400,
    });
    expect(parsed({ server: 'irc.example', tls: true }).port).toBe(6697);
  });
});
