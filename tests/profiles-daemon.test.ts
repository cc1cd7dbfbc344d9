/**
 * One daemon, two profiles: `hermes gateway start` in a
 * temp root (run `npm run build` first), two real WebSocket clients — one in `default`, one in
 * `work` — submit the same prompt. Each turn lands in its own profile's state.db, each client
 * lists only its own sessions, and `work`'s .env secret reaches only `work`'s terminal tool.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventOf } from '@hermes/core/protocol';
import { SessionDB } from '@hermes/core/state';
import { connect, type DaemonClient } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let root: string;
let work: string;
const clients: DaemonClient[] = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  // both profiles pass WORK_SECRET through to the terminal tool; only work's .env defines it
  // (values under 8 chars: longer secrets are redacted from tool output, see redactSecrets)
  root = makeTestHome({ modelUrl: model.url, config: 'terminal:\n  env_passthrough: [WORK_SECRET]' });
  work = join(root, 'profiles', 'work');
  const created = await runHermes(root, ['profile', 'create', 'work', '--clone']);
  expect(created.code, created.stderr).toBe(0);
  writeFileSync(join(work, '.env'), 'WORK_SECRET=wd4711\n', { mode: 0o600 });
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

async function openClient(profile: string): Promise<DaemonClient> {
  const c = await connect(
    { root },
    { name: `client-${profile}`, profile, capabilities: { approvals: false } },
  );
  clients.push(c);
  return c;
}

/** Creates a session, runs one turn of `text` and returns the session id and its tool output. */
async function turn(c: DaemonClient, text: string): Promise<{ id: string; toolOutput: string }> {
  const { session } = await c.request('session.create', { title: `${c.server!.profile} run`, cwd: root });
  await c.request('session.attach', { session_id: session.id });
  const ended = c.waitForEvent((e) => e.type === 'turn.end' && e.session_id === session.id, 20_000);
  model.push(
    { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "secret=[$WORK_SECRET]"' } }] },
    { echo: 'last_tool_result', prefix: 'The tool said: ' },
  );
  await c.request('prompt.submit', { session_id: session.id, text });
  const end = await ended;
  expect(eventOf(end, 'turn.end').payload.status).toBe('complete');
  const { messages } = await c.request('session.history', { session_id: session.id });
  const toolOutput = messages
    .filter((m) => m.role === 'tool')
    .map((m) => m.content ?? '')
    .join('\n');
  return { id: session.id, toolOutput };
}

function storedPrompts(dbFile: string): Array<{ session: string; text: string }> {
  const db = SessionDB.open(dbFile, { readonly: true });
  try {
    return db.listSessions().flatMap((s) =>
      db
        .getMessages(s.id)
        .filter((m) => m.role === 'user')
        .map((m) => ({ session: s.id, text: m.content ?? '' })),
    );
  } finally {
    db.close();
  }
}

describe('one daemon serving default and work', () => {
  it('keeps sessions, databases and secrets of the two profiles apart', async () => {
    const def = await openClient('default');
    const wrk = await openClient('work');
    expect(def.server).toMatchObject({ profile: 'default', profiles: ['default', 'work'] });
    expect(wrk.server).toMatchObject({ profile: 'work', profiles: ['default', 'work'] });

    const prompt = 'show me the work secret';
    const inDefault = await turn(def, prompt);
    const inWork = await turn(wrk, prompt);
    expect(inDefault.toolOutput).toContain('secret=[]');
    expect(inDefault.toolOutput).not.toContain('wd4711');
    expect(inWork.toolOutput).toContain('secret=[wd4711]');

    // two different state.db files, each holding only its own session
    expect(existsSync(join(root, 'state.db'))).toBe(true);
    expect(existsSync(join(work, 'state.db'))).toBe(true);
    expect(storedPrompts(join(root, 'state.db'))).toEqual([{ session: inDefault.id, text: prompt }]);
    expect(storedPrompts(join(work, 'state.db'))).toEqual([{ session: inWork.id, text: prompt }]);

    // each client lists only its own profile's sessions
    expect((await def.request('session.list', {})).sessions.map((s) => [s.id, s.profile])).toEqual([
      [inDefault.id, 'default'],
    ]);
    expect((await wrk.request('session.list', {})).sessions.map((s) => [s.id, s.profile])).toEqual([
      [inWork.id, 'work'],
    ]);
    // and cannot reach the other profile's session by id
    await expect(def.request('session.attach', { session_id: inWork.id })).rejects.toThrow(/no session/);
    await expect(wrk.request('session.history', { session_id: inDefault.id })).rejects.toThrow(/no session/);

    // profile.list lists both, marking the connection's own
    for (const [c, mine] of [
      [def, 'default'],
      [wrk, 'work'],
    ] as const) {
      const listed = await c.request('profile.list');
      expect(listed.active).toBe(mine);
      expect(listed.profiles.map((p) => [p.name, p.active, p.path])).toEqual([
        ['default', mine === 'default', root],
        ['work', mine === 'work', work],
      ]);
    }
  });

  it('refuses to delete a profile with a live session, and never serves a re-created one stale secrets', async () => {
    const wrk = await openClient('work');
    const { id } = await turn(wrk, 'first life');
    const busy = await runHermes(root, ['profile', 'delete', 'work', '--yes']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(
      /profile "work" cannot be deleted: session \S+ is in use by tui-gateway \(pid \d+\)/,
    );
    expect(existsSync(work)).toBe(true);

    // closing its sessions (the first test's and this one) releases the daemon's locks
    const live = (await wrk.request('session.list', {})).sessions.map((s) => s.id);
    expect(live).toContain(id);
    for (const sid of live) await wrk.request('session.close', { session_id: sid });
    for (const c of clients.splice(0)) await c.close();
    expect((await runHermes(root, ['profile', 'delete', 'work', '--yes'])).code).toBe(0);
    expect((await runHermes(root, ['profile', 'create', 'work', '--clone'])).code).toBe(0);
    writeFileSync(join(work, '.env'), 'WORK_SECRET=sl4711\n', { mode: 0o600 });

    const again = await openClient('work');
    const second = await turn(again, 'second life');
    expect(second.toolOutput).toContain('secret=[sl4711]');
    expect(second.toolOutput).not.toContain('wd4711');
    expect(storedPrompts(join(work, 'state.db'))).toEqual([{ session: second.id, text: 'second life' }]);
    expect((await again.request('session.list', {})).sessions.map((s) => s.id)).toEqual([second.id]);
  });
});
