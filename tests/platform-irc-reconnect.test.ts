/**
 * IRC reconnects, end to end: the real daemon (`hermes gateway start`) is started while the IRC
 * server (Debian's ngircd) is down. `hermes gateway status --json` says `backing_off` (attempt,
 * next time, last error) until ngircd starts 5–10 s later, then `connected` within the backoff
 * cap (60 s). A user holding the bot's nick makes it register as `hermes_`; once that user quits,
 * the bot takes `hermes` back. Then ngircd is stopped: the status says so at once (not
 * `connected`), and the bot comes back when ngircd does. Skipped (counted, with a notice) when
 * ngircd is not installed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { IrcTestUser } from './support/irc-test-client.js';
import { freePort, describeIrc, NGIRCD, startNgircd, type Ngircd } from './support/ngircd.js';
import { gatewayStatus, stopDaemon } from './support/platform-daemon.js';

if (!NGIRCD)
  process.stderr.write(
    'platform-irc-reconnect: ngircd is not installed (apt-get install -y ngircd): 3 tests skipped\n',
  );

/** The longest wait of the reconnect schedule (1 s doubling to 60 s), ms. */
const BACKOFF_CAP_MS = 60_000;

interface IrcStatus {
  state: string;
  attempt?: number;
  retry_at?: string;
  last_error?: string;
  error?: string;
}

let model: FakeModelServer;
let irc: Ngircd | undefined;
let port: number;
let root: string;
const users: IrcTestUser[] = [];

/** The irc entry of `hermes gateway status --json`. */
async function cliStatus(): Promise<IrcStatus | undefined> {
  const r = await runHermes(root, ['gateway', 'status', '--json']);
  if (r.code !== 0) return undefined;
  const s = JSON.parse(r.stdout) as { platforms?: Array<IrcStatus & { platform: string }> };
  return s.platforms?.find((p) => p.platform === 'irc');
}

/** The irc entry of `gateway.status` (over the daemon's socket: cheap enough to poll). */
async function rpcStatus(): Promise<IrcStatus | undefined> {
  return (await gatewayStatus(root)).platforms?.find((p) => p.platform === 'irc');
}

async function user(nick: string): Promise<IrcTestUser> {
  const u = await new IrcTestUser(nick, port).connect();
  users.push(u);
  return u;
}

beforeAll(async () => {
  if (!NGIRCD) return;
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  port = await freePort(); // nothing listens there yet
  root = makeTestHome({
    modelUrl: model.url,
    config: [
      'platforms:',
      '  irc:',
      '    enabled: true',
      '    server: 127.0.0.1',
      `    port: ${port}`,
      '    nick: hermes',
      '    channels: ["#hermes"]',
      '    allowed_users: [alice]',
      '    reset: { mode: none }',
    ].join('\n'),
  });
}, 60_000);

afterAll(async () => {
  for (const u of users) u.close();
  await stopDaemon(root);
  await irc?.stop();
  await model?.close();
});

describeIrc('IRC reconnects', () => {
  it('backs off while the server is down, then connects within the backoff cap', async () => {
    const startedAt = Date.now();
    const started = await runHermes(root, ['gateway', 'start']);
    expect(started.code, started.stderr).toBe(0);

    // honest in between: backing off, with the attempt, when, and why
    const waiting = await waitFor(
      async () => {
        const s = await cliStatus();
        return s?.state === 'backing_off' && (s.attempt ?? 0) >= 2 ? s : undefined;
      },
      'irc to back off',
      20_000,
    );
    expect(waiting.last_error).toMatch(/^connect: .*ECONNREFUSED/);
    expect(Date.parse(waiting.retry_at!)).toBeGreaterThan(startedAt);
    const text = await runHermes(root, ['gateway', 'status']);
    expect(text.stdout).toMatch(
      /irc: (backing off until \d\d:\d\d:\d\dZ \(attempt \d+, last error: connect: .*ECONNREFUSED.*\)|connecting \(attempt \d+)/,
    );

    // start ngircd 5–10 s after the daemon, at least 2 s before the bot's next attempt
    const before = await waitFor(
      async () => {
        const s = await rpcStatus();
        const left = s?.retry_at ? Date.parse(s.retry_at) - Date.now() : 0;
        return Date.now() - startedAt >= 5_000 && s?.state === 'backing_off' && left >= 2_000 ? s : undefined;
      },
      'a backoff wait of 2 s or more, 5 s after the start',
      30_000,
    );
    irc = await startNgircd(15_000, port);
    const ircUp = Date.now();
    expect(ircUp - startedAt).toBeLessThan(20_000);
    // the configured nick is taken before the bot comes
    const squatter = await user('hermes');
    expect(Date.now()).toBeLessThan(Date.parse(before.retry_at!));

    const connected = await waitFor(
      async () => ((await rpcStatus())?.state === 'connected' ? true : undefined),
      'irc to connect',
      BACKOFF_CAP_MS + 15_000,
    );
    expect(connected).toBe(true);
    expect(Date.now() - ircUp).toBeLessThan(BACKOFF_CAP_MS + 5_000);
    const after = await cliStatus();
    expect(after).toMatchObject({ state: 'connected' });
    expect(after?.last_error).toBeUndefined();
    expect(after?.retry_at).toBeUndefined();
    await squatter.join('#hermes');
  });

  it('takes its configured nick back once its holder quits', async () => {
    const alice = await user('alice');
    await alice.join('#hermes');
    await alice.waitForMember('#hermes', 'hermes_'); // registered under the fallback
    const squatter = users.find((u) => u.nick === 'hermes')!;
    squatter.close(); // QUIT, seen by the bot in #hermes
    await alice.until(() => alice.sawLine(/^:hermes_!\S+ NICK :?hermes$/), 'the bot to take its nick back');
    const seen = alice.received.length;
    alice.say('#hermes', 'hermes: are you back?');
    const reply = await alice.expectMessage(
      (m) => m.from === 'hermes' && m.target === '#hermes',
      'a reply from hermes',
      seen,
    );
    expect(reply.text).toBe('alice: echo: are you back?');
  });

  it('an outage shows as backing off, and the bot comes back with the server', async () => {
    await irc!.stop();
    const down = await waitFor(
      async () => {
        const s = await cliStatus();
        return s && s.state !== 'connected' ? s : undefined;
      },
      'the status to leave connected',
      15_000,
    );
    expect(['backing_off', 'connecting']).toContain(down.state);
    expect(down.last_error).toMatch(/^(lost: connection lost|connect: .*ECONNREFUSED)/);
    irc = await startNgircd(15_000, port);
    const ircUp = Date.now();
    await waitFor(
      async () => ((await rpcStatus())?.state === 'connected' ? true : undefined),
      'irc to reconnect',
      BACKOFF_CAP_MS + 15_000,
    );
    expect(Date.now() - ircUp).toBeLessThan(BACKOFF_CAP_MS + 5_000);
    const alice = await user('alice2');
    await alice.join('#hermes');
    await alice.waitForMember('#hermes', 'hermes');
  });
});
