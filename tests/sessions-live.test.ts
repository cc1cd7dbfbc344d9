/**
 * Sessions a daemon holds live, across real processes (user-trial findings 1 and 3; run `npm run
 * build` first): `hermes sessions delete` refuses a live session and names the daemon and its
 * clients, `--force` ends it in the daemon first, and one the daemon only keeps loaded (idle, no
 * client) is deleted without it; a prompt to a session deleted under the daemon
 * gets an error back (never silence); `model.set` with a session switches that session from its
 * next turn and tells its clients at once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcErrorCode } from '@hermes/core/protocol';
import { SessionDB } from '@hermes/core/state';
import { hermes } from './support/gateway-process.js';
import { is, useGateway } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-sessions-live-');

describe('sessions delete and live sessions', () => {
  it('refuses to delete a session attached in the daemon; --force ends it there, then deletes', async () => {
    const { client, root } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });

    const refused = await hermes(root, ['sessions', 'delete', session.id, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is live in the daemon \(tui-gateway \(pid \d+\), 1 client attached\)/);
    expect(refused.stderr).toMatch(/--force ends it in the daemon first/);

    const forced = await hermes(root, ['sessions', 'delete', session.id, '--yes', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(new RegExp(`Deleted ${session.id}`));
    await expect(
      client.c.request('prompt.submit', { session_id: session.id, text: 'still here?' }),
    ).rejects.toMatchObject({ code: RpcErrorCode.SessionNotFound });
  });

  it('deletes without --force a session the daemon only keeps loaded (idle, no client attached)', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    model.push({ text: 'done' });
    await client.c.request('prompt.submit', { session_id: session.id, text: 'one turn' });
    await client.until(is('turn.end', session.id), 'the turn ends');
    await client.c.request('session.detach', { session_id: session.id });
    const listed = (await client.c.request('session.list', { limit: 1000 })).sessions.find(
      (x) => x.id === session.id,
    );
    expect(listed).toMatchObject({ live: true, clients: 0 });

    const deleted = await hermes(root, ['sessions', 'delete', session.id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(new RegExp(`Deleted ${session.id}`));
    const db = SessionDB.open(join(root, 'state.db'));
    try {
      expect(db.getSession(session.id)).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('a prompt to a session deleted while the daemon holds it gets an error, not silence', async () => {
    const { client, root } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const db = SessionDB.open(join(root, 'state.db'));
    try {
      db.deleteSession(session.id); // as an older `hermes sessions delete` did
    } finally {
      db.close();
    }
    await expect(
      client.c.request('prompt.submit', { session_id: session.id, text: 'still here?' }),
    ).rejects.toMatchObject({
      code: RpcErrorCode.SessionNotFound,
      message: expect.stringMatching(/was deleted; start a new one \(\/new\)/),
    });
  });
});

describe('model.set with a session (/model ID)', () => {
  it('switches the current session from its next turn and sends session.info', async () => {
    const { client, root, model } = gw;
    // created with an explicit model: config changes alone would never move it
    const { session } = await client.c.request('session.create', { cwd: root, model: 'fake' });
    await client.c.request('session.attach', { session_id: session.id });
    const after = client.lastSeq(session.id);
    const r = await client.c.request('model.set', { model: 'gpt-imaginary', session_id: session.id });
    expect(r.model).toBe('gpt-imaginary');
    expect(r.message).toMatch(/^Model: gpt-imaginary \(this session from its next turn; also the default/);
    // the fake server lists only fake-model: a warning, but the switch happens
    expect(r.warning).toMatch(/does not list "gpt-imaginary" \(it has fake-model\)/);
    const info = await client.until(
      (e) =>
        is('session.info', session.id, after)(e) &&
        (e.payload.session as { model?: string }).model === 'gpt-imaginary',
      'session.info with the new model',
    );
    expect(info).toBeDefined();
    model.push({ text: 'hi from the new model' });
    await client.c.request('prompt.submit', { session_id: session.id, text: 'hi again' });
    await client.until(is('turn.end', session.id, after), 'the turn ends');
    expect(model.requests.at(-1)!.body.model).toBe('gpt-imaginary');
  });
});

describe('/title', () => {
  it('refuses a title another session has (titles name one session)', async () => {
    const { client, root } = gw;
    await client.c.request('session.create', { cwd: root, title: 'Taken title' });
    const { session } = await client.c.request('session.create', { cwd: root });
    const r = await client.c.request('slash.exec', { session_id: session.id, command: '/title taken TITLE' });
    expect(r).toMatchObject({
      handled: true,
      output: expect.stringMatching(/^Title not changed: .*already used by session/),
    });
  });
});
