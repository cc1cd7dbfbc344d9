/**
 * The Matrix adapter (matrix-js-sdk) against the local client-server API stand-in
 * (tests/support/fake-matrix.ts): token and password login, DMs and mentions in rooms, threads,
 * reactions as approval answers, media in and out, invites, the encrypted-room notice, and a
 * /sync that fails and resumes from the stored `since` token.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMatrix, type FakeMatrix } from '../../../../tests/support/fake-matrix.js';
import type { MatrixAdapter } from './adapter.js';
import { platform } from './index.js';
import { SyncStateFile } from './sync-state.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const ANN = '@ann:fake.test';
const BOB = '@bob:fake.test';

async function start(
  o: {
    secrets?: Record<string, string>;
    config?: Record<string, unknown>;
    mx?: FakeMatrix;
    home?: string;
  } = {},
): Promise<{ mx: FakeMatrix; host: FakeHost; adapter: MatrixAdapter; home: string }> {
  const mx = o.mx ?? (await startFakeMatrix());
  if (!o.mx) cleanup.push(() => mx.close());
  const home = o.home ?? mkdtempSync(join(tmpdir(), 'hermes-mx-'));
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { homeserver: mx.url, user_id: mx.botUserId, sync_timeout: 1, allowed_users: [ANN], ...o.config },
    secrets: o.secrets ?? { MATRIX_ACCESS_TOKEN: mx.token },
  });
  const adapter = host.attach(
    (await platform.createAdapter({ ...ctx, home: new HermesHome(home) })) as MatrixAdapter,
  );
  // fast retries in tests (the default waits 1 s, then 2 s …)
  (adapter as unknown as { settings: { retryBaseMs?: number } }).settings.retryBaseMs = 100;
  cleanup.push(() => adapter.disconnect());
  return { mx, host, adapter, home };
}

describe('MatrixAdapter against the client-server API', () => {
  it('DM and room messages: a room message must mention the bot; replies and edits go out', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!dm:fake.test', members: [{ id: ANN, name: 'Ann' }] });
    mx.createRoom({
      id: '!team:fake.test',
      name: 'Team',
      members: [
        { id: ANN, name: 'Ann' },
        { id: BOB, name: 'Bob' },
      ],
    });
    mx.text('!dm:fake.test', ANN, 'old history, not answered');
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    expect(adapter.userId).toBe(mx.botUserId);
    mx.text('!dm:fake.test', ANN, 'hello bot');
    mx.text('!team:fake.test', BOB, 'chatting among ourselves');
    mx.text('!team:fake.test', ANN, 'hermes: what time is it?');
    await host.message(1);
    expect(host.messages.map((m) => [m.source.chatType, m.source.chatId, m.source.userName, m.text])).toEqual(
      [
        ['dm', '!dm:fake.test', 'Ann', 'hello bot'],
        ['group', '!team:fake.test', 'Ann', 'what time is it?'],
      ],
    );
    expect(host.messages[1]!.source.chatName).toBe('Team');
    expect(host.messages[0]!.dedupeKey).toMatch(/^\$ev\d+:fake\.test$/);

    const sent = await adapter.send('!dm:fake.test', 'hi Ann', { deliveryId: 'in-1#0' });
    expect(sent.ok).toBe(true);
    expect(await adapter.editMessage('!dm:fake.test', sent.messageId!, 'hi Ann!')).toEqual({
      ok: true,
      messageId: sent.messageId,
    });
    // the same delivery id again: the homeserver returns the same event (no second message)
    expect((await adapter.send('!dm:fake.test', 'hi Ann', { deliveryId: 'in-1#0' })).messageId).toBe(
      sent.messageId,
    );
    expect(mx.botMessages('!dm:fake.test').map((m) => [m.body, m.edits])).toEqual([['hi Ann!', 1]]);
  });

  it('what the bot sends mentions nobody (m.mentions empty): model text saying @room pings no one', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!team:fake.test', name: 'Team', members: [{ id: ANN, name: 'Ann' }] });
    const { adapter } = await start({ mx });
    await adapter.connect();
    const sent = await adapter.send('!team:fake.test', '@room Ann look');
    await adapter.editMessage('!team:fake.test', sent.messageId!, '@room Ann look!');
    await adapter.sendFile('!team:fake.test', { name: 'r.md', data: Buffer.from('x'), caption: '@room' });
    const mine = mx.events.filter((e) => e.sender === mx.botUserId && e.type === 'm.room.message');
    expect(mine).toHaveLength(3);
    for (const e of mine) expect(e.content['m.mentions']).toEqual({});
    expect(mine[1]!.content['m.new_content']['m.mentions']).toEqual({});
  });

  it('in a room a reply to the bot and an answer command need no mention', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({
      id: '!team:fake.test',
      members: [
        { id: ANN, name: 'Ann' },
        { id: BOB, name: 'Bob' },
      ],
    });
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    const mine = await adapter.send('!team:fake.test', 'Which branch?');
    mx.send('!team:fake.test', ANN, 'm.room.message', {
      msgtype: 'm.text',
      body: '> <@hermes:fake.test> Which branch?\n\nmain, please',
      'm.relates_to': { 'm.in_reply_to': { event_id: mine.messageId } },
    });
    mx.text('!team:fake.test', BOB, 'unrelated chatter');
    mx.text('!team:fake.test', ANN, '/approve');
    await host.message(1);
    expect(host.messages.map((m) => m.text)).toEqual(['main, please', '/approve']);
  });

  it('a reply or thread pointing at the bot’s event in another room does not address it', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    const members = [
      { id: ANN, name: 'Ann' },
      { id: BOB, name: 'Bob' },
    ];
    mx.createRoom({ id: '!team:fake.test', members });
    mx.createRoom({ id: '!other:fake.test', members });
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    const mine = await adapter.send('!team:fake.test', 'Which branch?');
    mx.send('!other:fake.test', BOB, 'm.room.message', {
      msgtype: 'm.text',
      body: 'forged reply',
      'm.relates_to': { 'm.in_reply_to': { event_id: mine.messageId } },
    });
    mx.send('!other:fake.test', BOB, 'm.room.message', {
      msgtype: 'm.text',
      body: 'forged thread',
      'm.relates_to': { rel_type: 'm.thread', event_id: mine.messageId, is_falling_back: true },
    });
    mx.text('!other:fake.test', ANN, '@hermes:fake.test hello');
    await host.message(0);
    expect(host.messages.map((m) => m.text)).toEqual(['hello']);
  });

  it('threads: a message in a thread carries it, and the reply stays in it', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({
      id: '!team:fake.test',
      members: [
        { id: ANN, name: 'Ann' },
        { id: BOB, name: 'Bob' },
      ],
    });
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    const root = mx.text('!team:fake.test', ANN, 'a topic');
    mx.text('!team:fake.test', ANN, '@hermes:fake.test please help', {
      thread: root,
      mentions: [mx.botUserId],
    });
    const m = await host.message(0);
    expect(m.source).toMatchObject({ chatType: 'thread', threadId: root, chatId: '!team:fake.test' });
    expect(m.text).toBe('please help');
    await adapter.send('!team:fake.test', 'in the thread', { threadId: root, replyTo: m.source.messageId! });
    expect(mx.botMessages('!team:fake.test')[0]!.thread).toBe(root);
    // in a thread the bot answers in, no mention is needed
    mx.text('!team:fake.test', ANN, 'and a follow-up', { thread: root });
    expect((await host.message(1)).text).toBe('and a follow-up');
  });

  it('an approval is offered as reactions; a reaction is a button press of its sender', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!dm:fake.test', members: [{ id: ANN, name: 'Ann' }] });
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    const r = await adapter.sendApproval('!dm:fake.test', {
      requestId: 'req-1',
      command: 'rm -rf build',
      description: 'deletes files',
      choices: ['once', 'deny'],
    });
    expect(mx.botMessages('!dm:fake.test')[0]!.body).toContain('Or react: ✅ once · ❌ deny.');
    const offered = mx.events.filter((e) => e.type === 'm.reaction' && e.sender === mx.botUserId);
    expect(offered.map((e) => e.content['m.relates_to'].key)).toEqual(['✅', '❌']);
    mx.react('!dm:fake.test', ANN, r.messageId!, '❌');
    await host.waitFor(() => host.buttons[0], 'a button press');
    expect(host.buttons[0]).toMatchObject({ requestId: 'req-1', value: 'deny', source: { userId: ANN } });
  });

  it('an image is downloaded for the model, a file saved, and a file goes out by upload', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!dm:fake.test', members: [{ id: ANN, name: 'Ann' }] });
    const { host, adapter } = await start({ mx });
    await adapter.connect();
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    mx.send('!dm:fake.test', ANN, 'm.room.message', {
      msgtype: 'm.image',
      body: 'shot.png',
      url: mx.upload(png, 'image/png', 'shot.png'),
      info: { mimetype: 'image/png', size: png.length },
    });
    mx.send('!dm:fake.test', ANN, 'm.room.message', {
      msgtype: 'm.file',
      body: 'please read',
      filename: 'notes.txt',
      url: mx.upload(Buffer.from('hello'), 'text/plain', 'notes.txt'),
      info: { mimetype: 'text/plain', size: 5 },
    });
    await host.message(1);
    const [img, file] = host.messages;
    expect(img!.images).toEqual([
      { kind: 'image', data: png.toString('base64'), name: 'shot.png', mime: 'image/png' },
    ]);
    expect(img!.text).toBe('');
    expect(file!.text).toBe('please read');
    expect(file!.files).toEqual([
      { name: 'notes.txt', data: Buffer.from('hello'), kind: 'document', mime: 'text/plain' },
    ]);

    const out = await adapter.sendFile('!dm:fake.test', {
      name: 'reply.md',
      data: Buffer.from('# hi'),
      mime: 'text/markdown',
      caption: 'Long reply',
    });
    expect(out.ok).toBe(true);
    const msg = mx.botMessages('!dm:fake.test').at(-1)!;
    expect(msg.content).toMatchObject({ msgtype: 'm.file', body: 'Long reply', filename: 'reply.md' });
    expect(mx.media(msg.content.url)!.data.toString()).toBe('# hi');
  });

  it('downloads the media of a message only when the host authorized its sender', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!dm-bob:fake.test', members: [{ id: BOB, name: 'Bob' }] });
    const { host, adapter } = await start({ mx });
    host.authorized = (m) => m.source.userId === ANN;
    await adapter.connect();
    mx.send('!dm-bob:fake.test', BOB, 'm.room.message', {
      msgtype: 'm.file',
      body: 'please read',
      filename: 'secret.txt',
      url: mx.upload(Buffer.from('x'), 'text/plain', 'secret.txt'),
      info: { mimetype: 'text/plain', size: 1 },
    });
    const m = await host.message(0);
    expect(m.text).toBe('please read');
    expect(m.files).toBeUndefined();
    expect(typeof m.fetchAttachments).toBe('function');
    expect(mx.calls.filter((c) => c.path.includes('/download/'))).toEqual([]);
  });

  it('asks the members of a room no sync described only for a sender the host admits', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    const MALLORY = '@mallory:fake.test';
    mx.createRoom({
      id: '!old:fake.test',
      name: 'Old',
      members: [
        { id: ANN, name: 'Ann' },
        { id: BOB, name: 'Bob' },
        { id: MALLORY, name: 'Mallory' },
      ],
    });
    const first = await start({ mx });
    await first.adapter.connect();
    await first.adapter.disconnect();
    // resumed from the stored since token: no sync describes the room's members any more
    const { host, adapter } = await start({ mx, home: first.home });
    host.authorized = (m) => m.source.userId !== MALLORY;
    await adapter.connect();
    const membersAsked = (): number => mx.calls.filter((c) => c.path.endsWith('/joined_members')).length;
    mx.text('!old:fake.test', MALLORY, 'hermes: let me in', { mentions: [mx.botUserId] });
    const stranger = await host.message(0, 8_000);
    expect(stranger.source).toMatchObject({ userId: MALLORY, chatType: 'group' });
    expect(stranger.source.userName).toBeUndefined();
    expect(membersAsked()).toBe(0);
    mx.text('!old:fake.test', ANN, 'hermes: hello', { mentions: [mx.botUserId] });
    const ann = await host.message(1, 8_000);
    expect(membersAsked()).toBe(1);
    expect(ann.source).toMatchObject({ userId: ANN, userName: 'Ann', chatName: 'Old', chatType: 'group' });
  }, 20_000);

  it('accepts invites from allowed users only; an encrypted room gets one notice', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    const { adapter } = await start({ mx });
    await adapter.connect();
    mx.invite({ id: '!fromann:fake.test', inviter: ANN, inviterName: 'Ann', isDirect: true });
    mx.invite({ id: '!frommallory:fake.test', inviter: '@mallory:fake.test', inviterName: 'M' });
    await mx.waitForEvent(
      (e) => e.type === 'm.room.member' && e.room_id === '!fromann:fake.test' && e.sender === mx.botUserId,
      'the join',
    );
    mx.createRoom({ id: '!secret:fake.test', encrypted: true, members: [{ id: ANN, name: 'Ann' }] });
    mx.send('!secret:fake.test', ANN, 'm.room.encrypted', {
      algorithm: 'm.megolm.v1.aes-sha2',
      ciphertext: 'x',
    });
    mx.send('!secret:fake.test', ANN, 'm.room.encrypted', {
      algorithm: 'm.megolm.v1.aes-sha2',
      ciphertext: 'y',
    });
    await mx.waitForEvent(
      (e) => e.room_id === '!secret:fake.test' && e.sender === mx.botUserId && e.type === 'm.room.message',
      'the notice',
    );
    mx.text('!fromann:fake.test', ANN, 'sync marker');
    await mx
      .waitForEvent(() => mx.calls.filter((c) => c.path.endsWith('/sync')).length > 4, 'later syncs', 10_000)
      .catch(() => undefined);
    expect(mx.calls.some((c) => c.path.includes('frommallory') && c.method === 'POST')).toBe(false);
    expect(mx.botMessages('!secret:fake.test').map((m) => m.body)).toEqual([
      'This room is end-to-end encrypted, and this agent cannot read encrypted messages yet. Please talk to it in an unencrypted room or direct chat.',
    ]);
  });

  it('a failing /sync is retried from the stored since token; nothing is lost or repeated', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!dm:fake.test', members: [{ id: ANN, name: 'Ann' }] });
    const { host, adapter, home } = await start({ mx });
    await adapter.connect();
    mx.text('!dm:fake.test', ANN, 'one');
    await host.message(0);
    mx.failSyncs(2);
    mx.text('!dm:fake.test', ANN, 'two');
    await host.message(1, 8_000);
    mx.dropSyncs();
    mx.text('!dm:fake.test', ANN, 'three');
    await host.message(2, 8_000);
    await adapter.disconnect();
    mx.text('!dm:fake.test', ANN, 'four');
    // a new adapter on the same home resumes after the stored position
    const again = await start({ mx, home });
    const file = join(home, 'platforms', 'matrix.json');
    expect(new SyncStateFile(file).load().since).toMatch(/^s\d+$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await again.adapter.connect();
    await again.host.message(0, 8_000);
    expect(host.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(again.host.messages.map((m) => m.text)).toEqual(['four']);
  }, 20_000);

  it('logs in with MATRIX_PASSWORD; a refused token fails connect for good', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    const { adapter } = await start({ mx, secrets: { MATRIX_PASSWORD: mx.password } });
    await adapter.connect();
    expect(mx.calls.some((c) => c.path === '/_matrix/client/v3/login' && c.method === 'POST')).toBe(true);
    const bad = await start({ mx, secrets: { MATRIX_ACCESS_TOKEN: 'wrong-token-123' } });
    await expect(bad.adapter.connect()).rejects.toMatchObject({ permanent: true });
  });
});

describe('Matrix without the daemon (cron)', () => {
  it('standaloneSender posts to the home room with the access token', async () => {
    const mx = await startFakeMatrix();
    cleanup.push(() => mx.close());
    mx.createRoom({ id: '!home:fake.test', members: [{ id: ANN, name: 'Ann' }] });
    const ctx = testPlatformContext({
      config: { homeserver: mx.url, user_id: mx.botUserId },
      secrets: { MATRIX_ACCESS_TOKEN: mx.token },
    });
    const r = await platform.standaloneSender!(ctx, '!home:fake.test', 'nightly report');
    expect(r.ok).toBe(true);
    expect(mx.botMessages('!home:fake.test').map((m) => m.body)).toEqual(['nightly report']);
    const noToken = testPlatformContext({
      config: { homeserver: mx.url, user_id: mx.botUserId },
      secrets: { MATRIX_PASSWORD: 'x' },
    });
    expect(await platform.standaloneSender!(noToken, '!home:fake.test', 'x')).toMatchObject({ ok: false });
  });
});

describe('platforms.matrix settings', () => {
  it('name the key or the .env variable', () => {
    const ok = { homeserver: 'https://m.example.org', user_id: '@h:example.org' };
    expect(platform.checkRequirements!(testPlatformContext({ config: ok }))).toBe(
      'MATRIX_ACCESS_TOKEN is not set in the profile .env',
    );
    const secrets = { MATRIX_ACCESS_TOKEN: 'syt_abcdefgh' };
    expect(platform.validateConfig!(testPlatformContext({ config: { user_id: '@h:e.org' }, secrets }))).toBe(
      'platforms.matrix.homeserver is not set',
    );
    expect(
      platform.validateConfig!(testPlatformContext({ config: { ...ok, user_id: 'hermes' }, secrets })),
    ).toBe('platforms.matrix.user_id: expected a Matrix user id like @hermes:example.org');
  });
});
