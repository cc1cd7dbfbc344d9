/**
 * Platform turns through the daemon's live sessions, in process (AdapterHost + SessionRegistry
 * + a memory platform + the scripted model): each reply is matched to its own message by the
 * message id carried with the prompt, a prompt dropped from the queue is a logged drop, and
 * prompts a shutdown kept are run and answered after the restart.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlatformRegistry, type MessageSource } from '@hermes/core/messaging';
import { MemoryAdapter } from '@hermes/core/testing';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { recoverAfterCrash } from '../sessions/crash-recovery.js';
import { SessionRegistry } from '../sessions/session-registry.js';
import { AdapterHost } from './adapter-host.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { echo: 'last_user', prefix: 'echo: ' } });
});
afterAll(() => model.close());
const hosts: Array<{ host: AdapterHost; sessions: SessionRegistry }> = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.host.stop();
    await h.sessions.drain(100);
  }
  await fetch(`${model.url.replace(/\/v1$/, '')}/__reset`, { method: 'POST' });
});

function home(extra = ''): string {
  const root = mkdtempSync(join(tmpdir(), 'hermes-live-backend-'));
  writeFileSync(
    join(root, 'config.yaml'),
    [
      'model:',
      '  provider: custom',
      `  base_url: ${model.url}`,
      '  default: fake-model',
      'platforms:',
      `  mem: { enabled: true, allow_all_users: true, footer: false${extra} }`,
      '',
    ].join('\n'),
  );
  return root;
}

/** A daemon's platform side on `root`: its adapter, host, sessions and log. */
async function start(root: string) {
  const adapter = new MemoryAdapter('mem');
  const registry = new PlatformRegistry();
  registry.register({ name: 'mem', label: 'mem', createAdapter: () => adapter });
  const sessions = new SessionRegistry({ root, epoch: 'e' });
  const logs: string[] = [];
  const log = {
    info: (l: string) => logs.push(l),
    warn: (l: string) => logs.push(l),
    error: (l: string) => logs.push(l),
    addSecret: () => undefined,
  };
  const host = new AdapterHost({ root, sessions, log, registry });
  hosts.push({ host, sessions });
  await host.start();
  const outcomes = () => logs.filter((l) => l.includes('message outcome:'));
  return { adapter, host, sessions, logs, outcomes };
}

const dm = (user: string): MessageSource => ({ platform: 'mem', chatType: 'dm', chatId: user, userId: user });

/** The live session of the one platform conversation of a test. */
function liveOf(sessions: SessionRegistry) {
  const id = sessions.list('default', { source: 'mem' })[0]?.id;
  return id ? sessions.peek('default', id) : undefined;
}

/** Resolves once `cond` holds, polling every 10 ms; fails after `ms`. */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('LiveSessionBackend', () => {
  it('answers every message of a burst from several users with its own reply, in order', async () => {
    const d = await start(home());
    const users = ['ann', 'bob', 'cyd'];
    const all: Array<Promise<void>> = [];
    for (let i = 1; i <= 8; i++)
      for (const u of users) all.push(d.adapter.receive({ source: dm(u), text: `${u}-${i}` }));
    await Promise.all(all);
    for (const u of users)
      expect(d.adapter.texts(u)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `echo: ${u}-${i}`));
    expect(d.outcomes()).toHaveLength(24);
    expect(d.outcomes().every((l) => l.includes('outcome=reply'))).toBe(true);
  });

  it('a prompt dropped from the queue is a logged drop, named by the event', async () => {
    const d = await start(home());
    model.push({ hang: true });
    const first = d.adapter.receive({ source: dm('ann'), text: 'long job' });
    await model.waitForRequests(model.requests.length + 1);
    const second = d.adapter.receive({ source: dm('ann'), text: 'waits' });
    await until(() => liveOf(d.sessions)?.queued().length === 1, 'the queued prompt');
    const live = liveOf(d.sessions)!;
    expect(live.dropQueued()).toHaveLength(1);
    await second;
    expect(d.outcomes()).toEqual([
      expect.stringMatching(/outcome=dropped reason="discarded from the queue"/),
    ]);
    live.interrupt();
    await first;
    expect(d.adapter.texts('ann')).toEqual([]);
    expect(d.outcomes()[1]).toMatch(/outcome=dropped reason="stopped before a reply"/);
  });

  it('prompts held and cut by a shutdown are run after the restart, each answered once, in order', async () => {
    const root = home();
    const d = await start(root);
    model.push({ hang: true });
    const pending = [1, 2, 3, 4].map((i) => d.adapter.receive({ source: dm('ann'), text: `m${i}` }));
    await model.waitForRequests(model.requests.length + 1);
    await until(() => liveOf(d.sessions)?.queued().length === 3, 'three queued');
    // the daemon's shutdown: notices, drain (holds the queue, interrupts the stalled turn), stop
    await d.host.beginShutdown();
    await d.adapter.receive({ source: dm('ann'), text: 'm5' }); // arrives while the daemon stops
    await d.sessions.drain(200);
    await d.host.stop();
    await Promise.all(pending);
    expect(d.adapter.texts('ann')).toEqual([
      expect.stringContaining('picked up again'),
      expect.stringContaining('it will answer this when it is back'),
    ]);
    expect(d.outcomes()).toEqual([]); // nothing decided: the restart does it

    recoverAfterCrash(root);
    const again = await start(root);
    await until(() => again.adapter.texts('ann').length === 5, 'five replies');
    expect(again.adapter.texts('ann')).toEqual(['echo: m1', 'echo: m2', 'echo: m3', 'echo: m4', 'echo: m5']);
    await until(() => again.outcomes().length === 5, 'five outcomes');
    expect(again.outcomes().every((l) => l.includes('outcome=reply'))).toBe(true);
  });

  it('unloads a platform session idle for live_idle_minutes; it loads again on the next message', async () => {
    const d = await start(home(', live_idle_minutes: 0.005')); // 300 ms
    await d.adapter.receive({ source: dm('ann'), text: 'first' });
    expect(liveOf(d.sessions)).toBeDefined();
    await until(() => d.sessions.stats().sessions_live === 0, 'the idle session to unload', 5000);
    await d.adapter.receive({ source: dm('ann'), text: 'second' });
    expect(d.adapter.texts('ann')).toEqual(['echo: first', 'echo: second']);
  });

  it('keeps at most max_live_sessions loaded, unloading the least recently used first', async () => {
    const d = await start(home(', max_live_sessions: 2'));
    for (const u of ['ann', 'bob', 'cyd']) await d.adapter.receive({ source: dm(u), text: `hi ${u}` });
    await until(() => d.sessions.stats().sessions_live === 2, 'the cap', 3000);
    const loaded = d.sessions
      .list('default', { source: 'mem' })
      .filter((s) => d.sessions.peek('default', s.id))
      .map((s) => s.title);
    expect(loaded.sort()).toEqual([expect.stringContaining('bob'), expect.stringContaining('cyd')]);
  });
});
