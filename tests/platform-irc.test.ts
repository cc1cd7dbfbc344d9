/**
 * The IRC platform end to end: a real IRC server (Debian's ngircd) on
 * loopback, the real daemon (`hermes gateway start`) with `platforms.irc` enabled, the scripted
 * model, and raw-socket IRC users in a channel and in private messages.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';
import { IrcTestUser } from './support/irc-test-client.js';
import { describeIrc, NGIRCD, startNgircd, type Ngircd } from './support/ngircd.js';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let irc: Ngircd;
let root: string;
const users: IrcTestUser[] = [];

async function user(nick: string): Promise<IrcTestUser> {
  const u = await new IrcTestUser(nick, irc.port).connect();
  users.push(u);
  return u;
}

beforeAll(async () => {
  if (!NGIRCD) return; // the suite is skipped, named (describeIrc)
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
  irc = await startNgircd();
  root = makeTestHome({
    modelUrl: model.url,
    config: [
      'platforms:',
      '  irc:',
      '    enabled: true',
      '    server: 127.0.0.1',
      `    port: ${irc.port}`,
      '    nick: hermes',
      '    channels: ["#hermes"]',
      '    allowed_users: [alice, bob]',
      '    reset: { mode: none }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'irc');
}, 60_000);

afterAll(async () => {
  for (const u of users) u.close();
  await stopDaemon(root);
  await irc?.stop();
  await model?.close();
});

describeIrc('IRC platform', () => {
  it('hermes gateway status shows the platform', async () => {
    const r = await runHermes(root, ['gateway', 'status']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/platforms\n\s+irc: connected/);
  });

  it('answers in a channel when addressed, and in a private message', async () => {
    const alice = await user('alice');
    await alice.join('#hermes');
    await alice.waitForMember('#hermes', 'hermes');
    alice.say('#hermes', 'just chatting, not for the bot');
    alice.say('#hermes', 'hermes: hello from the channel');
    const inChannel = await alice.expectMessage(
      (m) => m.from === 'hermes' && m.target === '#hermes',
      'a channel reply',
    );
    expect(inChannel.text).toBe('alice: echo: hello from the channel');

    alice.say('hermes', 'hello in private');
    const dm = await alice.expectMessage(
      (m) => m.from === 'hermes' && m.target === 'alice',
      'a private reply',
    );
    expect(dm.text).toBe('echo: hello in private');
    // the unaddressed line never reached the model
    const texts = model.requests.flatMap((r) =>
      (r.body.messages as Array<{ content: unknown }>).map((m) => m.content),
    );
    expect(texts).not.toContain('just chatting, not for the bot');
  });

  it('two users in one channel get separate sessions', async () => {
    const bob = await user('bob');
    await bob.join('#hermes');
    const before = model.requests.length;
    bob.say('#hermes', 'hermes: bob here');
    const reply = await bob.expectMessage(
      (m) => m.from === 'hermes' && m.text.startsWith('bob: '),
      'bob’s reply',
    );
    expect(reply.text).toBe('bob: echo: bob here');
    const bobsCall = model.requests[before]!.body.messages as Array<{ role: string; content: string }>;
    expect(bobsCall.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['bob here']);

    const c = await connect({ root }, { name: 'test', capabilities: { approvals: false } });
    try {
      const { sessions } = await c.request('session.list', { source: 'irc' });
      const titles = sessions.map((s) => s.title).sort();
      expect(titles).toEqual(['irc · #hermes · alice', 'irc · #hermes · bob', 'irc · alice']);
    } finally {
      await c.close();
    }
  });

  it('an unpaired user gets a pairing code and is answered after `hermes pairing approve`', async () => {
    const mallory = await user('mallory');
    mallory.say('hermes', 'let me in');
    const offer = await mallory.expectMessage((m) => m.from === 'hermes', 'a pairing code');
    const code = /pairing code is ([A-Z2-9]{8})/.exec(offer.text)?.[1];
    expect(code, offer.text).toBeDefined();
    expect(offer.text).toContain(`hermes pairing approve ${code}`);

    const listed = await runHermes(root, ['pairing', 'list']);
    expect(listed.stdout).toMatch(/irc\s+mallory/);
    expect(listed.stdout).not.toContain(code);

    const wrong = await runHermes(root, ['pairing', 'approve', 'AAAAAAAA']);
    expect(wrong.code).toBe(1);
    const approved = await runHermes(root, ['pairing', 'approve', code!]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('Approved mallory on irc');

    const seen = mallory.received.length;
    mallory.say('hermes', 'now?');
    const answer = await mallory.expectMessage((m) => m.from === 'hermes', 'an answer', seen);
    expect(answer.text).toBe('echo: now?');
    const log = await import('node:fs').then((fs) => fs.readFileSync(`${root}/logs/tui-gateway.log`, 'utf8'));
    expect(log).not.toContain(code);
  });
});
