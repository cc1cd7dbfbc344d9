/**
 * `hermes chat -q` while a daemon runs: the turn runs in the
 * daemon, attached clients see it live, and an in-process writer is refused with the owner named.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '@hermes/core/protocol';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { makeTestHome, runHermes, spawnHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let root: string;
beforeAll(async () => {
  model = await startFakeModelServer();
  root = makeTestHome({ modelUrl: model.url });
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
});
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

describe('hermes chat -q with a running daemon', () => {
  it('runs the turn in the daemon where an attached client sees it live', async () => {
    model.push({ text: 'first reply' });
    const first = await runHermes(root, ['chat', '-q', 'start a session']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('first reply');

    const watcher = await connect({ root }, { name: 'watcher', capabilities: { approvals: false } });
    try {
      const { sessions } = await watcher.request('session.list', { limit: 1 });
      const id = sessions[0]!.id;
      expect(sessions[0]!.source).toBe('cli');
      await watcher.request('session.attach', { session_id: id });
      const seen: WireEvent[] = [];
      watcher.onEvent((e) => seen.push(e));
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo seen-by-watcher' } }] },
        { text: 'second reply' },
      );
      const second = await runHermes(root, ['chat', '-q', 'continue please', '--continue']);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('second reply');
      await watcher.waitForEvent((e) => e.type === 'turn.end', 5_000).catch(() => undefined);
      const types = seen.map((e) => e.type);
      expect(types).toContain('turn.start');
      expect(types).toContain('tool.start');
      expect(seen.find((e) => e.type === 'turn.start')?.payload.text).toBe('continue please');
      const seqs = seen.map((e) => e.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

      // an in-process writer (--yolo runs here, not in the daemon) is refused while the daemon holds it
      const refused = await runHermes(root, ['chat', '-q', 'x', '--session', id, '--yolo']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use by tui-gateway \(pid \d+\)/);
    } finally {
      await watcher.close();
    }
  });

  it('denies a dangerous command at once when run headless through the daemon (no hang)', async () => {
    const victim = join(root, 'victim');
    mkdirSync(victim, { recursive: true });
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
      { text: 'ok then' },
    );
    const before = model.requests.length;
    const started = Date.now();
    const run = await runHermes(root, ['chat', '-q', 'delete it']);
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.stderr).toMatch(/denied \(no terminal to ask\)/);
    // its own answer is not told as another client's
    expect(run.stderr).not.toContain('in another window');
    expect(existsSync(victim)).toBe(true);
    // the model is told the truth: nobody could approve it here (not that the user denied it),
    // and how the user can allow it
    const told = toolResults(before + 1).join('\n');
    expect(told).not.toMatch(/user denied/i);
    expect(told).toMatch(/no one .*could approve/i);
    expect(told).toMatch(/hermes chat/);
    // the user's output says the same
    expect(run.stderr).toMatch(/blocked: no one could approve/i);
  });

  it('adds piped stdin to the prompt, and refuses an empty prompt before creating a session', async () => {
    const before = model.requests.length;
    const count = (await watcherSessions()).length;
    const empty = await runHermes(root, ['chat', '-q'], { input: '  \n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('chat -q needs a prompt');
    expect(empty.stderr).not.toMatch(/invalid params/);
    expect(await watcherSessions()).toHaveLength(count);

    model.push({ text: 'piped ok' });
    const run = await runHermes(root, ['chat', '-q', 'summarize stdin'], { input: 'from the pipe\n' });
    expect(run.code, run.stderr).toBe(0);
    const msgs = (model.requests[before]!.body as { messages: Array<{ role: string; content: string }> })
      .messages;
    expect(msgs.filter((m) => m.role === 'user').at(-1)?.content).toBe(
      'summarize stdin\n\n<stdin>\nfrom the pipe\n</stdin>',
    );
  });

  it('ends quietly with 141 when the reader closes stdout, interrupting the turn in the daemon', async () => {
    model.push({ hang: true, text: 'a reply that would go on for ever' });
    const p = spawnHermes(root, ['chat', '-q', 'long essay'], { input: '' });
    p.child.stdout!.destroy(); // as `| head` does: the first reply text written fails with EPIPE
    const run = await p.exited;
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.code).toBe(141);
    const latest = (await watcherSessions())[0]!;
    expect(latest.state).toBe('interrupted');
  });
});

/** The tool results the model received in request `i`. */
function toolResults(i: number): string[] {
  const msgs = (model.requests[i]!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return msgs.filter((m) => m.role === 'tool').map((m) => m.content);
}

/** The sessions of the daemon's profile, newest first. */
async function watcherSessions(): Promise<Array<{ id: string; state?: string }>> {
  const client = await connect({ root }, { name: 'lister', capabilities: { approvals: false } });
  try {
    return (await client.request('session.list', { limit: 100 })).sessions as Array<{
      id: string;
      state?: string;
    }>;
  } finally {
    await client.close();
  }
}
