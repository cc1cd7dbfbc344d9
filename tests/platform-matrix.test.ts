/**
 * Matrix end to end: the real daemon with `platforms.matrix` pointed at the local client-server
 * API stand-in (tests/support/fake-matrix.ts; matrix-js-sdk unchanged) and the scripted model.
 * A DM streamed by `m.replace` edits; a room message answered only when it mentions the bot; a
 * thread kept as its own session; an approval answered by the owner's reaction and refused for
 * another user; an image reaching the model as an image part; a long reply sent as a file; /sync
 * dropped (server restart, failing syncs, a daemon restart) without a lost or doubled reply; a
 * stranger who causes no request for a room's members after a restart; and 20 messages in one
 * second from 4 users, each answered once.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMatrix, type FakeMatrix } from './support/fake-matrix.js';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { waitFor } from './support/gateway-process.js';
import { makeTestHome } from './support/hermes-cli.js';
import { outcomeLines, startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';

let model: FakeModelServer;
let mx: FakeMatrix;
let root: string;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-mx-scratch-'));
const USERS = ['@ann:fake.test', '@bob:fake.test', '@cat:fake.test', '@dan:fake.test'];
const [ANN, BOB] = USERS as [string, string];
const DM = '!dm-ann:fake.test';
const TEAM = '!team:fake.test';
/** A DM of a user not in allowed_users. */
const EVE = '@eve:fake.test';
const EVE_DM = '!dm-eve:fake.test';
/** A room of Ann's that Eve is in too. */
const CLUB = '!club:fake.test';

// a 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const bodies = (room: string): string[] => mx.botMessages(room).map((m) => m.body);
/** Model requests whose messages mention `marker`. */
const requestsWith = (marker: string) =>
  model.requests.filter((r) => JSON.stringify(r.body.messages).includes(marker));

beforeAll(async () => {
  model = await startFakeModelServer();
  mx = await startFakeMatrix();
  mx.createRoom({ id: DM, members: [{ id: ANN, name: 'Ann' }] });
  mx.createRoom({ id: EVE_DM, members: [{ id: EVE, name: 'Eve' }] });
  mx.createRoom({
    id: TEAM,
    name: 'Team',
    members: [
      { id: ANN, name: 'Ann' },
      { id: BOB, name: 'Bob' },
    ],
  });
  mx.createRoom({
    id: CLUB,
    name: 'Club',
    members: [
      { id: ANN, name: 'Ann' },
      { id: EVE, name: 'Eve' },
    ],
  });
  for (const [i, u] of USERS.entries())
    mx.createRoom({ id: `!load${i}:fake.test`, members: [{ id: u, name: `User ${i}` }] });
  root = makeTestHome({
    modelUrl: model.url,
    env: `MATRIX_ACCESS_TOKEN=${mx.token}\n`,
    config: [
      'platforms:',
      '  matrix:',
      '    enabled: true',
      `    homeserver: ${mx.url}`,
      `    user_id: "${mx.botUserId}"`,
      '    sync_timeout: 2',
      `    allowed_users: [${USERS.map((u) => `"${u}"`).join(', ')}]`,
      '    edit_interval_ms: 150',
      '    long_reply_as_file_above: 400',
      '    reset: { mode: none }',
      'gateway:',
      '  drain_timeout: 2',
      'terminal:',
      '  sandbox: { platforms: off }',
    ].join('\n'),
  });
  const cfg = join(root, 'config.yaml');
  writeFileSync(
    cfg,
    readFileSync(cfg, 'utf8').replace('  default: fake-model\n', '  default: fake-model\n  vision: true\n'),
  );
  await startDaemonWithPlatform(root, 'matrix');
}, 60_000);

afterAll(async () => {
  await stopDaemon(root);
  await mx?.close();
  await model?.close();
});

describe('Matrix platform', () => {
  it('a DM reply is streamed by m.replace edits of one message', async () => {
    const reply = 'Matrix rooms are replicated across homeservers, and each event is signed. '
      .repeat(2)
      .trim();
    model.push({ text: reply, chunkSize: 6, delayMs: 15 });
    mx.text(DM, ANN, 'tell me about matrix');
    await waitFor(() => bodies(DM).includes(reply), 'the final reply');
    const msg = mx.botMessages(DM).find((m) => m.body === reply)!;
    expect(msg.edits).toBeGreaterThanOrEqual(2);
    const edits = mx.events.filter((e) => e.content['m.relates_to']?.rel_type === 'm.replace');
    expect(edits.every((e) => e.content['m.relates_to'].event_id === msg.event_id)).toBe(true);
    expect(edits.slice(0, -1).every((e) => String(e.content['m.new_content'].body).endsWith(' …'))).toBe(
      true,
    );
    expect(bodies(DM)).toEqual([reply]);
    expect(mx.calls.some((c) => c.method === 'PUT' && c.path.includes('/typing/'))).toBe(true);
  });

  it('in a room only a message that mentions the bot is answered', async () => {
    model.push({ text: 'Here I am.' });
    mx.text(TEAM, BOB, 'just talking to Ann');
    mx.text(TEAM, BOB, 'hermes: are you there?');
    await waitFor(() => bodies(TEAM).includes('Here I am.'), 'the reply');
    expect(requestsWith('just talking to Ann')).toHaveLength(0);
    expect(bodies(TEAM)).toEqual(['Here I am.']);
  });

  it('a thread is its own session and the replies stay in it', async () => {
    const root0 = mx.text(TEAM, ANN, 'release planning');
    model.push({ text: 'First in thread.' }, { text: 'Second in thread.' });
    mx.text(TEAM, ANN, 'hermes: start the checklist', { thread: root0, mentions: [mx.botUserId] });
    await waitFor(() => bodies(TEAM).includes('First in thread.'), 'the first thread reply');
    mx.text(TEAM, BOB, 'add the changelog', { thread: root0 });
    await waitFor(() => bodies(TEAM).includes('Second in thread.'), 'the second thread reply');
    const inThread = mx.botMessages(TEAM).filter((m) => m.thread === root0);
    expect(inThread.map((m) => m.body)).toEqual(['First in thread.', 'Second in thread.']);
    // one session: the second turn sees the first
    const second = requestsWith('add the changelog').at(-1)!;
    expect(JSON.stringify(second.body.messages)).toContain('start the checklist');
    expect(JSON.stringify(second.body.messages)).not.toContain('are you there');
  });

  it("an approval is answered by the owner's reaction and refused for another user", async () => {
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    mx.text(TEAM, ANN, 'hermes: clean up the junk');
    const ask = await waitFor(
      () => mx.botMessages(TEAM).find((m) => m.body.includes(`rm -rf ${junk}`)),
      'the approval message',
    );
    expect(ask.body).toContain('Or react: ✅ once');
    mx.react(TEAM, BOB, ask.event_id, '✅');
    await waitFor(
      () => bodies(TEAM).includes('That question belongs to another conversation.'),
      'the refusal',
    );
    expect(existsSync(junk)).toBe(true);
    mx.react(TEAM, ANN, ask.event_id, '✅️');
    await waitFor(() => bodies(TEAM).find((b) => b.startsWith('done: ')), 'the reply after the command ran');
    expect(existsSync(junk)).toBe(false);
  });

  it('an image reaches the model as an image part', async () => {
    model.push({ text: 'One pixel.' });
    mx.send(DM, ANN, 'm.room.message', {
      msgtype: 'm.image',
      body: 'what is in this picture',
      filename: 'pixel.png',
      url: mx.upload(PNG, 'image/png', 'pixel.png'),
      info: { mimetype: 'image/png', size: PNG.length },
    });
    await waitFor(() => bodies(DM).includes('One pixel.'), 'the reply');
    const req = requestsWith('what is in this picture').at(-1)!;
    const user = (req.body.messages as Array<{ role: string; content: unknown }>)
      .filter((m) => m.role === 'user')
      .at(-1)!;
    const parts = user.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it("a stranger's DM with a file gets a pairing code; the file is never downloaded", async () => {
    const mxc = mx.upload(Buffer.from('do not fetch'), 'text/plain', 'secret.txt');
    const mediaId = mxc.split('/').at(-1)!;
    mx.send(EVE_DM, EVE, 'm.room.message', {
      msgtype: 'm.file',
      body: 'secret.txt',
      filename: 'secret.txt',
      url: mxc,
      info: { mimetype: 'text/plain', size: 12 },
    });
    await waitFor(() => bodies(EVE_DM).some((b) => /pairing code is/.test(b)), 'the pairing code');
    const downloads = mx.calls.filter((c) => c.path.includes('/download/'));
    expect(downloads.some((c) => c.path.endsWith(`/${mediaId}`))).toBe(false);
    // the allowed sender's image (the test above) was downloaded
    expect(downloads.length).toBeGreaterThanOrEqual(1);
  });

  it('a long reply is sent as a file with a summary', async () => {
    const long = `Design notes\n${'- one more careful point about the design\n'.repeat(20)}`;
    model.push({ text: long });
    mx.text(DM, ANN, 'write the long notes');
    const file = await waitFor(() => mx.botMessages(DM).find((m) => m.msgtype === 'm.file'), 'the file');
    expect(file.content.filename).toBe('reply.md');
    expect(file.body).toBe(
      `Long reply (${long.length} characters), attached as reply.md. It begins: Design notes`,
    );
    expect(mx.media(file.content.url)!.data.toString('utf8')).toBe(long);
  });

  it('a dropped /sync (server restart, failing syncs, a daemon restart) loses and doubles no reply', async () => {
    model.push(
      { echo: 'last_user', prefix: 're: ' },
      { echo: 'last_user', prefix: 're: ' },
      { echo: 'last_user', prefix: 're: ' },
    );
    const restarted = mx.restart(1_500);
    mx.text(DM, ANN, 'sent while the server was down');
    await restarted;
    await waitFor(
      () => bodies(DM).includes('re: sent while the server was down'),
      'the reply after the restart',
      20_000,
    );

    mx.failSyncs(2);
    mx.text(DM, ANN, 'sent while syncs fail');
    await waitFor(
      () => bodies(DM).includes('re: sent while syncs fail'),
      'the reply after failing syncs',
      20_000,
    );

    await stopDaemon(root);
    mx.text(DM, ANN, 'sent while the daemon was stopped');
    await startDaemonWithPlatform(root, 'matrix');
    await waitFor(
      () => bodies(DM).includes('re: sent while the daemon was stopped'),
      'the reply after the daemon restart',
      20_000,
    );
    // give a doubled answer the time to show up: one more message answered after it
    model.push({ text: 'still here' });
    mx.text(DM, ANN, 'ping');
    await waitFor(() => bodies(DM).includes('still here'), 'the last reply');
    for (const t of [
      'sent while the server was down',
      'sent while syncs fail',
      'sent while the daemon was stopped',
    ])
      expect(bodies(DM).filter((b) => b === `re: ${t}`)).toHaveLength(1);
    // nothing answered before the daemon restart was answered again
    expect(bodies(DM).filter((b) => b === 'One pixel.')).toHaveLength(1);
  }, 90_000);

  it('after a restart, a stranger in a room causes no members request; an allowed user does', async () => {
    // a restarted daemon resumes /sync from its token: no sync describes the club's members now
    await stopDaemon(root);
    await startDaemonWithPlatform(root, 'matrix');
    const membersAsked = (): number =>
      mx.calls.filter(
        (c) =>
          c.path.endsWith(`/rooms/${encodeURIComponent(CLUB)}/joined_members`) ||
          c.path.endsWith(`/rooms/${CLUB}/joined_members`),
      ).length;
    const before = membersAsked();
    mx.text(CLUB, EVE, 'hermes: let me in', { mentions: [mx.botUserId] });
    await waitFor(
      () =>
        outcomeLines(root).some((l) => l.includes(`chat=${CLUB}`) && l.includes('reason="access denied"')),
      "the stranger's message refused",
    );
    expect(membersAsked()).toBe(before);
    model.push({ text: 'Hello, club.' });
    mx.text(CLUB, ANN, 'hermes: hello', { mentions: [mx.botUserId] });
    await waitFor(() => bodies(CLUB).includes('Hello, club.'), 'the answer to Ann');
    expect(membersAsked()).toBe(before + 1);
    expect(bodies(CLUB)).toEqual(['Hello, club.']);
  }, 60_000);

  it('20 messages in one second from 4 users are all answered once', async () => {
    for (let i = 0; i < 20; i++) model.push({ echo: 'last_user', prefix: 'ack ' });
    for (let n = 0; n < 5; n++)
      for (const [i, u] of USERS.entries()) mx.text(`!load${i}:fake.test`, u, `u${i}-m${n}`);
    const expected = (i: number): string[] => [0, 1, 2, 3, 4].map((n) => `ack u${i}-m${n}`);
    await waitFor(
      () =>
        USERS.every((_, i) => JSON.stringify(bodies(`!load${i}:fake.test`)) === JSON.stringify(expected(i))),
      'every reply',
      60_000,
    );
    for (const [i] of USERS.entries()) expect(bodies(`!load${i}:fake.test`)).toEqual(expected(i));
  }, 90_000);
});
