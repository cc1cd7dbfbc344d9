/**
 * `hermes chat` (the line chat, in process; `npm run build` first): a line entered while no
 * prompt reads — typed during a streaming reply in a real terminal (tmux), or piped in ahead —
 * is the user's next message and runs after the turn, in order; it is never dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes, HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

/** The text of the last user message of each model request from `from` on. */
const lastUserTexts = (model: FakeModelServer, from = 0): string[] =>
  model.requests.slice(from).map((r) => {
    const msgs = r.body.messages as Array<{ role: string; content: string }>;
    return msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  });

describe('hermes chat, piped lines', () => {
  let model: FakeModelServer;
  beforeAll(async () => {
    model = await startFakeModelServer();
  });
  afterAll(() => model.close());

  it('runs every piped line as a prompt, in order', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    model.push({ text: 'REPLY-ONE' }, { text: 'REPLY-TWO' }, { text: 'REPLY-THREE' });
    const run = await runHermes(root, ['chat'], { input: 'first line\nsecond line\nthird line\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(lastUserTexts(model)).toEqual(['first line', 'second line', 'third line']);
    expect(run.stdout).toContain('REPLY-THREE');
  });

  it('does not send a command of the terminal UI to the model; says where it works', async () => {
    const root = makeTestHome({ modelUrl: model.url });
    const from = model.requests.length;
    model.push({ text: 'REPLY-ONE' });
    const run = await runHermes(root, ['chat'], { input: '/sessions\n/model gpt-4o\n/usr/bin/ls?\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(lastUserTexts(model, from)).toEqual(['/usr/bin/ls?']);
    expect(run.stderr).toMatch(/\/sessions is a command of the terminal UI \(\S+ tui\); nothing was sent/);
    expect(run.stderr).toContain('/model is a command of the terminal UI');
  });
});

describeTmux('hermes chat: a line typed during a reply', () => {
  const fx = useTuiTmux('hermes-chat-typeahead', { cols: 140, rows: 30 });
  const { tmux } = fx;
  it('runs after the turn as the next prompt', async () => {
    fx.model.push(
      { text: 'SLOW-REPLY one two three four five six seven', chunkSize: 3, delayMs: 150 },
      { text: 'SECOND-REPLY' },
    );
    const env = { HERMES_HOME: fx.root, TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('chat', [process.execPath, HERMES_BIN, 'chat'], env);
    await tmux.waitFor(w, 'Ctrl+D or /quit exits');
    const before = fx.model.requests.length;
    tmux.type(w, 'first prompt', 'Enter');
    await tmux.waitFor(w, 'SLOW-REPLY');
    tmux.type(w, 'typed during the reply', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('SECOND-REPLY') && s.includes('(typed during the reply)'), {
      timeoutMs: 20_000,
    });
    expect(lastUserTexts(fx.model, before)).toEqual(['first prompt', 'typed during the reply']);
  });
});
