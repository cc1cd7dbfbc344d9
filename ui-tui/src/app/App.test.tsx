import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { DropServerRequest } from '@hermes/client';
import { loadMarkdown } from '../markdown/render.js';
import { sessionInfo, snapshotResult, stored, wire } from '../testing/fixtures.js';
import { manualClock } from '../testing/clock.js';
import { FakeClient } from '../testing/fake-client.js';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { App } from './App.js';
import { SessionController } from './controller.js';

const controllers: SessionController[] = [];
afterEach(() => {
  cleanup();
  for (const c of controllers.splice(0)) c.dispose();
});

async function app(
  setup: (client: FakeClient) => void = () => {},
  props: Partial<Parameters<typeof App>[0]> = {},
) {
  const client = new FakeClient();
  setup(client);
  const controller = new SessionController({ client, cwd: '/work', throttleMs: 0, ready: loadMarkdown() });
  controllers.push(controller);
  const raw: string[] = [];
  let exited = 0;
  const r = await renderInk(
    <App
      controller={controller}
      writeRaw={(d) => raw.push(d)}
      onExit={() => exited++}
      exitWindowMs={5_000}
      probeLocal={async () => []}
      {...props}
    />,
  );
  await controller.start({ mode: 'continue' });
  await r.waitFor('● connected');
  return { r, client, controller, raw, exited: () => exited };
}

const count = (hay: string, needle: string): number => hay.split(needle).length - 1;

describe('App', () => {
  it('attaches the latest session and prints its history, with the status bar', async () => {
    const { r, client } = await app((c) =>
      c.handlers.set('session.attach', () =>
        snapshotResult({ messages: [stored('user', 'what is 2+2?'), stored('assistant', 'It is **4**.')] }),
      ),
    );
    const f = await r.waitFor('It is 4.');
    expect(f).toContain('› what is 2+2?');
    expect(f).toContain('default · test-model');
    expect(f).toContain('“Test session”');
    expect(f).toContain('◇ idle');
    // the daemon picks the session to continue (this folder's first); the fixture's is elsewhere
    expect(client.callsTo('session.list')).toEqual([{ continue_from: '/work' }]);
    expect(f).toContain('Continuing “Test session”, whose folder is /home/u/project');
  });

  it('continues a session of this folder without a note, and opens a new one when there is none', async () => {
    const { r } = await app((c) =>
      c.handlers.set('session.list', () => ({ sessions: [sessionInfo({ cwd: '/work' })] })),
    );
    const f = await r.waitFor('◇ idle');
    expect(f).not.toContain('Continuing');
    const none = await app((c) => c.handlers.set('session.list', () => ({ sessions: [] })));
    await none.r.waitFor('◇ idle');
    expect(none.client.callsTo('session.create')).toEqual([{ cwd: '/work' }]);
  });

  it("shows the profile's default model when the session names none", async () => {
    const { r } = await app((c) => {
      c.handlers.set('session.attach', () => snapshotResult({ session: sessionInfo({ model: '' }) }));
      c.handlers.set('model.list', () => ({ models: [], current: 'default-model' }));
    });
    await r.waitFor('default · default-model');
  });

  it('/detach mid-reply keeps the partial reply on the screen and says the turn goes on', async () => {
    const { r, client, exited } = await app();
    await r.press('long job', keys.enter);
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    client.event(wire('turn.start', 1, { prompt_id: 'p1', text: 'long job' }));
    client.event(wire('message.start', 2));
    client.event(wire('message.delta', 3, { text: 'Partial answer so far' }));
    await r.waitFor('Partial answer so far');
    await r.press('/detach', keys.enter);
    await waitFor(() => exited() === 1);
    const f = r.text();
    expect(client.callsTo('session.detach')).toEqual([{ session_id: 's1' }]);
    expect(f).toContain('Partial answer so far');
    expect(f).toContain('Detached — the turn continues in the daemon (model test-model)');
    expect(f).not.toContain('◇ idle');
    expect(f.trimEnd().split('\n').at(-1)).toContain('Detached');
  });

  it('sends a prompt, streams the reply live and prints it once when complete', async () => {
    const { r, client } = await app();
    await r.press('hello there');
    await r.press(keys.enter);
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    expect(client.callsTo('prompt.submit')[0]).toEqual({ session_id: 's1', text: 'hello there' });
    client.event(wire('turn.start', 1, { prompt_id: 'p1', text: 'hello there' }));
    client.event(wire('message.start', 2));
    client.event(wire('message.delta', 3, { text: 'Hi! Let me ' }));
    client.event(wire('message.delta', 4, { text: 'look.' }));
    await r.waitFor('Hi! Let me look.');
    expect(r.text()).toContain('◆ responding');
    client.event(wire('tool.start', 5, { tool_id: 't1', name: 'terminal', args: { command: 'ls' } }));
    await r.waitFor('⋯ Running ls');
    client.event(wire('tool.complete', 6, { tool_id: 't1', ok: true, summary: '3 files', duration_ms: 40 }));
    client.event(wire('message.complete', 7, { text: 'Hi! Let me look.', status: 'complete', usage: {} }));
    client.event(wire('turn.end', 8, { prompt_id: 'p1', status: 'complete' }));
    const f = await r.waitFor((fr) => fr.includes('◇ idle') && fr.includes('✓ Ran ls'));
    expect(count(f, 'Hi! Let me look.')).toBe(1);
    expect(count(f, '› hello there')).toBe(1);
  });

  it('Ctrl+O prints the transcript again with tool output under tool lines, and says so', async () => {
    const { r, client } = await app();
    const output = Array.from({ length: 200 }, (_, i) => String(i + 1)).join('\n');
    client.event(wire('tool.start', 1, { tool_id: 't1', name: 'terminal', args: { command: 'seq 1 200' } }));
    client.event(
      wire('tool.complete', 2, {
        tool_id: 't1',
        ok: true,
        summary: 'exit 0',
        duration_ms: 18,
        detail: output,
      }),
    );
    await r.waitFor('✓ Ran seq 1 200 → exit 0');
    expect(r.text()).not.toContain('190 more lines');
    await r.press(keys.ctrlO);
    const f = await r.waitFor('Tool output shown under each tool call (Ctrl+O hides it).');
    expect(f).toMatch(/✓ Ran seq 1 200 → exit 0 · 18ms\n {2}1\n {2}2\n/);
    expect(f).toContain('  … 180 more lines …\n  191\n');
    await r.press(keys.ctrlO);
    const hidden = await r.waitFor('Tool output hidden (Ctrl+O shows it).');
    // printed again without the output (the test terminal keeps the earlier print above)
    expect(hidden.slice(hidden.lastIndexOf('✓ Ran seq'))).not.toContain('more lines');
  });

  it('words the command an open approval is about as waiting for approval, not running', async () => {
    const clock = manualClock();
    const { r, client } = await app(undefined, { approvalClock: clock });
    client.event(
      wire('tool.start', 1, { tool_id: 't1', name: 'terminal', args: { command: 'rm -rf build' } }),
    );
    await r.waitFor('⋯ Running rm -rf build');
    const answer = client.serverRequest('approval.request', {
      session_id: 's1',
      request_id: 'approval-1',
      command: 'rm -rf build',
      description: 'recursive delete',
      choices: ['once', 'deny'],
    });
    const f = await r.waitFor('⚠ Approval needed');
    expect(f).toContain('⋯ Waiting for approval: rm -rf build');
    expect(f).not.toContain('Running rm');
    clock.advance(600);
    await r.waitFor('Press o, d or 1, 4 to answer.');
    await r.press('o');
    clock.advance(350);
    await expect(answer).resolves.toEqual({ choice: 'once' });
    await r.waitFor('⋯ Running rm -rf build');
  });

  it('keys typed across the card’s arrival stay in the composer, in order; once armed, s and Enter answer', async () => {
    const clock = manualClock();
    const { r, client } = await app(undefined, { approvalClock: clock });
    client.event(wire('turn.start', 1, { prompt_id: 'p1', text: 'clean up' }));
    await r.press('make a pl');
    const req = {
      kind: 'approval' as const,
      session_id: 's1',
      request_id: 'approval-1',
      command: 'rm -rf build',
      description: 'recursive delete',
      choices: ['once' as const, 'session' as const, 'always' as const, 'deny' as const],
    };
    const answer = client.serverRequest('approval.request', req);
    await r.waitFor('⚠ Approval needed');
    for (const k of 'an, go sad 1234') await r.press(k); // every choice key, before the card is armed
    await r.press(keys.enter); // held: neither an answer nor a send
    let f = await r.waitFor('Your draft is kept in the composer (24 chars).');
    expect(f).toContain('› make a plan, go sad 1234');
    expect(f).toContain('Enter does not answer');
    expect(client.callsTo('prompt.submit')).toEqual([]);
    clock.advance(600);
    await r.waitFor('Press o, s, a, d or 1-4 to answer.');
    await r.press('s');
    clock.advance(350);
    await r.waitFor('Press Enter to confirm this session.');
    await r.press(keys.enter);
    await expect(answer).resolves.toEqual({ choice: 'session' });
    f = await r.waitFor((x) => !x.includes('Approval needed'));
    expect(f).toContain('› make a plan, go sad 1234');
    client.event(
      wire('request.resolved', 2, { request_id: 'approval-1', choice: 'session', by: 'connection:c-me' }),
    );
    await r.waitFor('✓ Approved for this session (answered here)');
    await r.press(keys.enter); // the composer has the keyboard again: the draft is sent
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    expect(client.callsTo('prompt.submit')[0]).toMatchObject({ text: 'make a plan, go sad 1234' });
  });

  it('drops the card when another window answers first', async () => {
    const { r, client } = await app();
    const answer = client.serverRequest('approval.request', {
      session_id: 's1',
      request_id: 'approval-2',
      command: 'git push --force',
      description: 'force push',
      choices: ['once', 'deny'],
    });
    await r.waitFor('git push --force');
    client.event(
      wire('request.resolved', 1, { request_id: 'approval-2', choice: 'deny', by: 'connection:c-other' }),
    );
    await expect(answer).rejects.toBeInstanceOf(DropServerRequest);
    const f = await r.waitFor('✗ Denied (answered in another window)');
    expect(f).not.toContain('Approval needed');
  });

  it('answers a question with a choice', async () => {
    const { r, client } = await app();
    const answer = client.serverRequest('clarify.request', {
      session_id: 's1',
      request_id: 'clarify-1',
      question: 'Which branch?',
      choices: ['main', 'dev'],
    });
    await r.waitFor('? Which branch?');
    await r.press('2');
    await expect(answer).resolves.toEqual({ answer: 'dev' });
  });

  it('interrupts a running turn with Esc or Ctrl+C', async () => {
    const { r, client } = await app();
    client.event(wire('turn.start', 1, { prompt_id: 'p1', text: 'long job' }));
    await r.waitFor('◆ thinking');
    await r.press(keys.esc);
    await waitFor(() => client.callsTo('session.interrupt').length === 1);
    await r.press(keys.ctrlC);
    await waitFor(() => client.callsTo('session.interrupt').length === 2);
  });

  it('exits on Ctrl+C twice on an empty composer, without stopping the turn', async () => {
    const { r, client, exited } = await app();
    await r.press(keys.ctrlC);
    await r.waitFor('Press Ctrl+C again to exit');
    expect(exited()).toBe(0);
    await r.press(keys.ctrlC);
    await waitFor(() => exited() === 1);
    expect(client.callsTo('session.interrupt')).toEqual([]);
    expect(client.callsTo('session.close')).toEqual([]);
  });

  it('exits on Ctrl+D', async () => {
    const { r, exited } = await app();
    await r.press(keys.ctrlD);
    await waitFor(() => exited() === 1);
  });

  it('shows queued prompts and the connection state', async () => {
    const { r, client } = await app();
    client.event(wire('prompt.queued', 1, { queued: [{ prompt_id: 'q1', text: 'after this' }] }));
    await r.waitFor('⏳ queued: after this');
    client.setState('reconnecting');
    await r.waitFor('◌ reconnecting');
  });

  it('runs slash commands: /help here, unknown ones on the daemon, /copy through OSC 52', async () => {
    const { r, client, raw } = await app((c) =>
      c.handlers.set('session.attach', () => snapshotResult({ messages: [stored('assistant', 'copy me')] })),
    );
    await r.press('/help', keys.enter);
    await r.waitFor('/sessions');
    // the daemon is asked for its commands too
    expect(client.callsTo('slash.exec')).toEqual([{ session_id: 's1', command: '/help' }]);
    await r.press('/status', keys.enter);
    await r.waitFor('daemon ran /status');
    expect(client.callsTo('slash.exec').at(-1)).toEqual({ session_id: 's1', command: '/status' });
    await r.press('/copy', keys.enter);
    await waitFor(() => raw.length === 1);
    expect(raw[0]).toContain(Buffer.from('copy me').toString('base64'));
  });

  it('/model ID shows what the daemon says changed, and its warning', async () => {
    const { r, client } = await app((c) => {
      c.handlers.set('model.set', (p) => ({
        model: String(p.model),
        // as the daemon sends it: the message ends with the warning
        message: `Model: ${String(p.model)} (this session from its next turn; also the default for new sessions)\nWarning: gpt-imaginary is not in the provider’s model list`,
        warning: 'Warning: gpt-imaginary is not in the provider’s model list',
      }));
      c.handlers.set('config.get', () => ({ value: 'gpt-imaginary' }));
    });
    await r.press('/model gpt-imaginary', keys.enter);
    const f = await r.waitFor('this session from its next turn');
    expect(f.split('not in the provider’s model list')).toHaveLength(2);
    expect(client.callsTo('model.set')).toEqual([{ model: 'gpt-imaginary', session_id: 's1' }]);
  });

  it('/model completes provider ids and their models, and sends the provider/model switch', async () => {
    const { r, client } = await app((c) => {
      c.handlers.set('model.list', () => ({
        models: [{ id: 'test-model', provider: 'openai' }],
        current: 'test-model',
        provider: 'openai',
        providers: [
          {
            id: 'deepseek',
            label: 'DeepSeek',
            aliases: [],
            kind: 'hosted',
            key_set: true,
            models: ['deepseek-chat', 'deepseek-reasoner'],
          },
          { id: 'ollama', label: 'Ollama', aliases: [], kind: 'local', key_set: false, models: [] },
        ],
      }));
      c.handlers.set('model.set', (p) => ({
        model: 'deepseek-reasoner',
        provider: 'deepseek',
        message: `Model: deepseek-reasoner on deepseek (asked for ${String(p.model)})`,
      }));
    });
    await r.press('/model de');
    await r.waitFor('DeepSeek · key set');
    await r.press(keys.tab);
    const f = await r.waitFor('deepseek/deepseek-reasoner');
    expect(f).toContain('deepseek/deepseek-chat');
    await r.press(keys.down, keys.enter);
    await r.waitFor('Model: deepseek-reasoner on deepseek');
    expect(client.callsTo('model.set')).toEqual([{ model: 'deepseek/deepseek-reasoner', session_id: 's1' }]);
    // the two-word form names the provider explicitly
    await r.press('/model ollama llama3.1', keys.enter);
    await waitFor(() => client.callsTo('model.set').length === 2);
    expect(client.callsTo('model.set')[1]).toEqual({
      model: 'llama3.1',
      provider: 'ollama',
      session_id: 's1',
    });
  });

  it('/sessions opens a picker and resumes the picked session', async () => {
    const { r, client } = await app((c) =>
      c.handlers.set('session.list', (p) =>
        p.continue_from
          ? { sessions: [sessionInfo()] }
          : {
              sessions: [
                sessionInfo(),
                sessionInfo({ id: 's2', title: 'Other work', message_count: 7, preview: 'fix the tests' }),
              ],
            },
      ),
    );
    await r.press('/sessions', keys.enter);
    await r.waitFor('Other work');
    expect(r.text()).toContain('7 msgs');
    await r.press(keys.down, keys.enter);
    await waitFor(() => client.callsTo('session.attach').some((p) => p.session_id === 's2'));
    expect(client.callsTo('session.detach')).toEqual([{ session_id: 's1' }]);
  });

  it('keeps a message typed while disconnected and sends it after re-attaching', async () => {
    const { r, client } = await app();
    client.setState('reconnecting');
    await r.waitFor('◌ reconnecting');
    await r.press('later', keys.enter);
    await r.waitFor('will be sent after reconnecting');
    expect(client.callsTo('prompt.submit')).toEqual([]);
    client.setState('connected');
    await client.attach('s1');
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    expect(client.callsTo('prompt.submit')[0]).toEqual({ session_id: 's1', text: 'later' });
  });

  it('/history N prints older messages of the session from session.history', async () => {
    const older = [stored('user', 'first ever question'), stored('assistant', 'first ever answer')];
    const recent = stored('user', 'latest question');
    const { r, client } = await app((c) => {
      c.handlers.set('session.attach', () => snapshotResult({ messages: [recent], has_more: true }));
      c.handlers.set('session.history', () => ({ messages: older, has_more: false }));
    });
    await r.waitFor('› latest question');
    await r.press('/history 2', keys.enter);
    const f = await r.waitFor('end of earlier messages');
    expect(client.callsTo('session.history')).toEqual([{ session_id: 's1', before: recent.id, limit: 2 }]);
    expect(f).toContain('── 2 earlier messages of this session ──');
    expect(f.indexOf('first ever answer')).toBeGreaterThan(f.indexOf('latest question'));
    await r.press('/history', keys.enter);
    await r.waitFor('No older messages in this session.');
    await r.press('/history x', keys.enter);
    await r.waitFor('Usage: /history [N]');
  });

  it('Ctrl+G edits the composer text in the external editor; a failure is shown', async () => {
    const results = [{ text: 'from the editor' }, { error: 'The editor (vi) exited with 1' }];
    const { r, client } = await app(undefined, { editExternally: () => results.shift()! });
    await r.press('draft', '\u0007');
    await r.waitFor('› from the editor');
    await r.press('\u0007');
    await r.waitFor('The editor (vi) exited with 1');
    await r.press(keys.enter);
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    expect(client.callsTo('prompt.submit')[0]).toEqual({ session_id: 's1', text: 'from the editor' });
  });

  it('with no model configured, shows the setup card instead of the composer and saves the choice', async () => {
    const { r, client } = await app(
      (c) => {
        c.handlers.set('config.get', () => ({ value: { default: '', provider: 'auto' } }));
        c.handlers.set('secrets.status', (p) => ({
          set: Object.fromEntries((p.names as string[]).map((n) => [n, false])),
        }));
        c.handlers.set('config.set', () => ({ ok: true }));
        c.handlers.set('secrets.set', () => ({ ok: true }));
        c.handlers.set('model.list', () => ({ models: [], current: 'llama3.2' }));
      },
      {
        probeLocal: async () => [
          { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama3.2'] },
        ],
      },
    );
    const f = await r.waitFor('Ollama (running here)');
    expect(f).toContain('No model is configured for profile "default" yet');
    expect(f).not.toContain('Type a message');
    expect(client.callsTo('session.attach')).toEqual([]);
    await r.press('1');
    await r.waitFor('Which model?');
    await r.press(keys.enter);
    await waitFor(() => client.callsTo('session.attach').length === 1);
    await r.waitFor('Model set up: llama3.2 at http://127.0.0.1:11434/v1');
    await r.waitFor('Type a message');
    expect(client.callsTo('config.set')).toEqual([
      { key: 'model.provider', value: 'custom' },
      { key: 'model.base_url', value: 'http://127.0.0.1:11434/v1' },
      { key: 'model.default', value: 'llama3.2' },
    ]);
  });
});
