/**
 * Daemon robustness across real processes (run `npm run build`
 * first): one damaged profile database leaves the daemon and the other profiles serving; unusable
 * approval answers deny at once with an error naming the allowed values; a broken config.yaml is
 * -32006 naming file and key from every method.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcErrorCode, type WireEventOf } from '@hermes/core/protocol';
import { connect } from '@hermes/client';
import { is, startGateway, useDaemonRoots, writeConfig } from './support/gateway-session-kit.js';

const fx = useDaemonRoots('hermes-robust-');

/** A named profile folder with the fake model's config. */
function makeProfile(root: string, name: string): string {
  const dir = join(root, 'profiles', name);
  mkdirSync(dir, { recursive: true });
  writeConfig(dir, fx.model.url);
  return dir;
}

describe('a damaged profile database', () => {
  it('only that profile is unavailable: the daemon starts, the others work, its requests say why', async () => {
    const root = fx.root();
    const side = makeProfile(root, 'side');
    makeProfile(root, 'work');
    writeFileSync(join(side, 'state.db'), 'garbage'.repeat(2000));
    await startGateway(root);

    const c = await fx.client(root, 'damaged');
    const damaged = c.c.server!.unavailable_profiles ?? [];
    expect(damaged.map((u) => u.profile)).toEqual(['side']);
    expect(damaged[0]!.error).toContain(
      `profile "side" is unavailable: ${join(side, 'state.db')} is damaged`,
    );
    expect(damaged[0]!.error).toMatch(/nothing was deleted.*mv "/);

    // the default profile serves sessions as usual
    fx.model.push({ text: 'still here' });
    const { session } = await c.c.request('session.create', { cwd: root });
    await c.c.request('session.attach', { session_id: session.id });
    await c.c.request('prompt.submit', { session_id: session.id, text: 'hello' });
    const end = await c.until(is('turn.end', session.id), 'turn.end');
    expect(end.payload.status).toBe('complete');
    // and so does another named profile, and cron
    const { session: w } = await c.c.request('session.create', { profile: 'work', cwd: root });
    expect(w.profile).toBe('work');
    await expect(c.c.request('cron.list', {})).resolves.toBeDefined();

    const listed = await c.c.request('profile.list', {});
    const byName = new Map(listed.profiles.map((p) => [p.name, p]));
    expect(byName.get('side')!.unavailable).toBe(damaged[0]!.error);
    expect(byName.get('work')!.unavailable).toBeUndefined();
    expect(byName.get('default')!.unavailable).toBeUndefined();

    // requests for `side` get a clear error, whichever connection asks
    const failure = { code: RpcErrorCode.ProfileUnavailable, message: damaged[0]!.error };
    await expect(c.c.request('session.create', { profile: 'side', cwd: root })).rejects.toMatchObject(
      failure,
    );
    const s = await connect({ root }, { name: 'in-side', profile: 'side' });
    try {
      await expect(s.request('session.list', {})).rejects.toMatchObject(failure);
      await expect(s.request('session.create', { cwd: root })).rejects.toMatchObject(failure);

      // recovery as the message says, without a restart: move the file aside
      renameSync(join(side, 'state.db'), join(side, 'state.db.corrupt'));
      const { session: fresh } = await s.request('session.create', { cwd: root });
      expect(fresh.profile).toBe('side');
      const again = await connect({ root }, { name: 'after-fix' });
      expect(again.server!.unavailable_profiles).toBeUndefined();
      again.socket.terminate();
    } finally {
      s.socket.terminate();
    }
  });
});

describe('unusable approval answers', () => {
  const bad: Array<[string, () => unknown]> = [
    ['"ONCE"', () => ({ choice: 'ONCE' })],
    ['"once " (trailing space)', () => ({ choice: 'once ' })],
    ['a bare string', () => 'once'],
    ['an array', () => ['once']],
    [
      'a JSON-RPC error',
      () => {
        throw new Error('the client could not show it');
      },
    ],
  ];

  it.each(bad)('%s denies at once, with an error naming the allowed choices', async (_what, answer) => {
    const root = fx.root();
    await startGateway(root);
    const c = await fx.client(root, 'approver');
    c.c.onServerRequest('approval.request', answer as never);
    const victim = join(root, 'victim');
    mkdirSync(victim);
    const { session } = await c.c.request('session.create', { cwd: root });
    const sid = session.id;
    await c.c.request('session.attach', { session_id: sid });
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { echo: 'last_tool_result', prefix: 'tool said: ' },
    );
    await c.c.request('prompt.submit', { session_id: sid, text: 'clean up' });

    // well before approvals.timeout (300 s): the default 15 s deadline of `until`
    const resolved = await c.until(is('request.resolved', sid), 'request.resolved');
    expect(resolved.payload).toMatchObject({
      choice: 'deny',
      by: `connection:${c.c.server!.connection_id}`,
    });
    const error = c
      .of(sid)
      .find((e): e is WireEventOf<'error'> => e.type === 'error' && e.payload.kind === 'request');
    expect(error, 'an error event before request.resolved').toBeDefined();
    expect(error!.seq).toBeLessThan(resolved.seq);
    expect(String(error!.payload.message)).toContain('allowed: "once", "session", "always", "deny"');
    expect(String(error!.payload.message)).toContain('the command was denied');
    await c.until(is('turn.end', sid), 'turn.end');
    expect(existsSync(victim)).toBe(true);
  });
});

describe('a broken config.yaml', () => {
  it('is -32006 naming the file and key from session.create, config.get, config.set and model.list', async () => {
    const root = fx.root();
    const dir = makeProfile(root, 'broken');
    writeFileSync(
      join(dir, 'config.yaml'),
      `model:\n  provider: custom\n  base_url: ${fx.model.url}\n  default: fake\napprovals:\n  mode: sometimes\n`,
    );
    await startGateway(root);
    const c = await fx.client(root, 'config');
    const failure = {
      code: RpcErrorCode.ConfigInvalid,
      message: expect.stringContaining(`${join(dir, 'config.yaml')}: approvals.mode:`),
      data: { file: join(dir, 'config.yaml'), key: 'approvals.mode' },
    };
    await expect(c.c.request('session.create', { profile: 'broken', cwd: root })).rejects.toMatchObject(
      failure,
    );
    await expect(c.c.request('config.get', { profile: 'broken' })).rejects.toMatchObject(failure);
    await expect(c.c.request('model.list', { profile: 'broken' })).rejects.toMatchObject(failure);
    await expect(
      c.c.request('config.set', { profile: 'broken', key: 'model.default', value: 'other' }),
    ).rejects.toMatchObject({ code: RpcErrorCode.ConfigInvalid });
    // the default profile is unaffected
    await expect(c.c.request('session.create', { cwd: root })).resolves.toBeDefined();
  });
});
