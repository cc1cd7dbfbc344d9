/**
 * `hermes chat -q` in pipelines (trial report #11), in process (no daemon): piped stdin joins the
 * prompt, an empty prompt is a CLI error before any session exists, a reader that closes stdout
 * (`| head`) ends the command quietly, `-s` picks a session, and a failed turn stores its error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes, spawnHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model.close();
});

/** The user messages the model received in request `i`. */
function userMessages(i: number): string[] {
  const msgs = (model.requests[i]!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return msgs.filter((m) => m.role === 'user').map((m) => m.content);
}

/** The sessions of the home, newest first. */
async function sessions(root: string): Promise<Array<{ id: string; state: string; message_count: number }>> {
  const list = await runHermes(root, ['sessions', 'list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  return JSON.parse(list.stdout) as Array<{ id: string; state: string; message_count: number }>;
}

describe('hermes chat -q with pipes', () => {
  it('adds piped stdin to the -q text, clearly delimited', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ text: 'summary' });
    const before = model.requests.length;
    const run = await runHermes(root, ['chat', '-q', 'summarize stdin'], {
      input: 'README line 1\nline 2\n',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(userMessages(before)).toEqual(['summarize stdin\n\n<stdin>\nREADME line 1\nline 2\n</stdin>']);
  });

  it('takes stdin as the whole prompt when -q has no text', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ text: 'answer' });
    const before = model.requests.length;
    const run = await runHermes(root, ['chat', '-q'], { input: 'summarize this\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('answer');
    expect(userMessages(before)).toEqual(['summarize this']);
  });

  it('refuses an empty prompt with a CLI message and creates no session', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    const before = model.requests.length;
    const run = await runHermes(root, ['chat', '-q'], { input: '\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('chat -q needs a prompt');
    expect(run.stderr).not.toMatch(/invalid params|prompt\.submit/);
    expect(model.requests.length).toBe(before);
    expect(await sessions(root)).toEqual([]);
  });

  it('ends quietly with 141 when the reader closes stdout, and stops the turn', async () => {
    // its own server: the turn may stop before it asks the model, leaving the step unused
    const hanging = await startFakeModelServer({ whenEmpty: { hang: true, text: 'on and on' } });
    try {
      for (const args of [['--json'], []]) {
        const root = makeTestHome({ modelUrl: hanging.url });
        const p = spawnHermes(root, ['chat', '-q', 'long essay', ...args], { input: '' });
        p.child.stdout!.destroy(); // as `| head` does after its lines: the next write fails with EPIPE
        const run = await p.exited;
        expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
        expect(run.code).toBe(141);
        const [s] = await sessions(root);
        expect(s!.state).toBe('interrupted');
      }
    } finally {
      await hanging.close();
    }
  });

  it('continues a session given with -s', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ text: 'one' }, { text: 'two' });
    expect((await runHermes(root, ['chat', '-q', 'first'])).code).toBe(0);
    const [first] = await sessions(root);
    const before = model.requests.length;
    const run = await runHermes(root, ['chat', '-q', 'second', '-s', first!.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(userMessages(before)).toEqual(['first', 'second']);
    expect(await sessions(root)).toHaveLength(1);
  });

  it('stores the error of a failed turn with the reply and leaves the session idle, not active', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ error: { status: 400, message: 'model fake-model does not exist' } });
    const run = await runHermes(root, ['chat', '-q', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('model fake-model does not exist');
    const [s] = await sessions(root);
    expect(s!.state).toBe('idle');
    const show = await runHermes(root, ['sessions', 'show', s!.id]);
    expect(show.stdout).toMatch(/assistant \[error\]\n\s+error: .*model fake-model does not exist/);
  });
});
