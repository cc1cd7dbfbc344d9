/**
 * Conversation control in real terminals, typed as a person would: two TUIs attached to one
 * session; `/undo`, `/retry`, `/rewind` in one redraw both, and `hermes sessions show` agrees with
 * both screens; `/rewind files` restores the session folder; `/fork` switches to a new session and
 * says how to get back; `/steer` (and Ctrl+S) during a running turn reaches the model's next
 * request as guidance. Run `npm run build` first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux, shq } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';
import type { RecordedRequest } from './support/fake-model-server.js';

const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];

type Shown = { session: { id: string; parent_session_id: string | null }; messages: Msg[] };
type Msg = { role: string; content: string | null; status?: string | null };

describeTmux('/undo, /retry, /rewind, /fork and /steer in the TUI', () => {
  let env: Record<string, string>;
  const fx = useTuiTmux('hermes-tui-conversation', { cols: 110, rows: 45 }, (root) => {
    env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1', OPENAI_API_KEY: '' };
  });
  const { tmux } = fx;
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const show = async (id: string): Promise<Shown> =>
    JSON.parse((await runHermes(fx.root, ['sessions', 'show', id, '--json'])).stdout) as Shown;
  /** User and assistant texts as stored, in order. */
  const stored = async (id: string): Promise<string[]> =>
    (await show(id)).messages
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .map((m) => m.content ?? '');
  /** The newest session of the profile (`hermes sessions list --json`, newest first). */
  const newestSession = async (): Promise<string> => {
    const out = JSON.parse((await runHermes(fx.root, ['sessions', 'list', '--json'])).stdout) as
      Array<{ id: string }> | { sessions: Array<{ id: string }> };
    return (Array.isArray(out) ? out : out.sessions)[0]!.id;
  };
  const screenHas = (s: string, present: string[], absent: string[]): boolean =>
    present.every((t) => s.includes(t)) && absent.every((t) => !s.includes(t));

  it('undo, retry and rewind in one TUI redraw both; sessions show agrees with both screens', async () => {
    const a = tmux.open('a', tui('--new'), env);
    await tmux.waitFor(a, (s) => s.includes('Type a message') && s.includes('● connected'));
    fx.model.push({ text: 'REPLY-ALPHA' });
    tmux.type(a, 'prompt number one', 'Enter');
    await tmux.waitFor(a, (s) => s.includes('REPLY-ALPHA'), { timeoutMs: 15_000 });
    fx.model.push({ text: 'REPLY-BETA' });
    tmux.type(a, 'prompt number two', 'Enter');
    await tmux.waitFor(a, (s) => s.includes('REPLY-BETA'), { timeoutMs: 15_000 });
    const id = await newestSession();
    const b = tmux.open('b', tui('--session', id), env);
    await tmux.waitFor(b, (s) => s.includes('REPLY-BETA') && s.includes('● connected'));

    // /undo: the last exchange goes, on both screens and in the store
    tmux.type(a, '/undo', 'Enter');
    for (const w of [a, b])
      await tmux.waitFor(w, (s) =>
        screenHas(s, ['Undone: 2 message(s) removed', 'REPLY-ALPHA'], ['REPLY-BETA']),
      );
    expect(await stored(id)).toEqual(['prompt number one', 'REPLY-ALPHA']);

    // /retry: the last prompt runs again and its new answer replaces the old one
    fx.model.push({ text: 'REPLY-GAMMA' });
    tmux.type(b, '/retry', 'Enter');
    for (const w of [a, b])
      await tmux.waitFor(w, (s) => screenHas(s, ['REPLY-GAMMA', 'prompt number one'], ['REPLY-ALPHA']), {
        timeoutMs: 15_000,
      });
    expect(await stored(id)).toEqual(['prompt number one', 'REPLY-GAMMA']);

    // /rewind: pick the newest prompt; its text comes back into A's composer for editing
    fx.model.push({ text: 'REPLY-DELTA' });
    tmux.type(a, 'prompt number three', 'Enter');
    await tmux.waitFor(b, (s) => s.includes('REPLY-DELTA'), { timeoutMs: 15_000 });
    tmux.type(a, '/rewind', 'Enter');
    await tmux.waitFor(a, (s) => s.includes('Rewind to before') && s.includes('prompt number three'));
    tmux.keys(a, 'Enter');
    for (const w of [a, b])
      await tmux.waitFor(w, (s) =>
        screenHas(s, ['Rewound: 2 message(s) removed', 'REPLY-GAMMA'], ['REPLY-DELTA']),
      );
    // the composer (the line above the status bar) holds the rewound prompt
    await tmux.waitFor(a, (s) =>
      /› .*prompt number three|prompt number three\s*$/m.test(s.split('Rewound')[1] ?? ''),
    );
    const after = await stored(id);
    expect(after).toEqual(['prompt number one', 'REPLY-GAMMA']);
    // both screens show exactly what is stored: every stored text, no dropped one
    for (const w of [a, b]) {
      const s = tmux.capture(w);
      for (const t of after) expect(s).toContain(t);
      for (const gone of ['REPLY-ALPHA', 'REPLY-BETA', 'REPLY-DELTA']) expect(s).not.toContain(gone);
    }
    // the model's next request carries none of the dropped messages
    tmux.keys(a, 'C-u');
    fx.model.push({ text: 'REPLY-EPSILON' });
    const n = fx.model.requests.length;
    tmux.type(a, 'prompt number four', 'Enter');
    await tmux.waitFor(a, (s) => s.includes('REPLY-EPSILON'), { timeoutMs: 15_000 });
    const sent = JSON.stringify((fx.model.requests[n] as RecordedRequest).body.messages);
    expect(sent).toContain('REPLY-GAMMA');
    for (const gone of ['REPLY-ALPHA', 'REPLY-BETA', 'REPLY-DELTA', 'prompt number two'])
      expect(sent).not.toContain(gone);

    // /fork: A moves to a new session with the conversation so far; B stays; the hint says how back
    tmux.type(a, '/fork', 'Enter');
    // (the hint wraps: compare with runs of white space as one space)
    await tmux.waitFor(a, (s) => s.replace(/\s+/g, ' ').includes(`kept: /resume ${id} goes back`));
    const forked = /Forked: you are now in (\S+)/.exec(tmux.capture(a))![1]!;
    const child = await show(forked);
    expect(child.session.parent_session_id).toBe(id);
    expect(await stored(forked)).toEqual(await stored(id));
    fx.model.push({ text: 'REPLY-IN-FORK' });
    tmux.type(a, 'only in the fork', 'Enter');
    await tmux.waitFor(a, (s) => s.includes('REPLY-IN-FORK'), { timeoutMs: 15_000 });
    expect(await stored(id)).not.toContain('REPLY-IN-FORK');
    expect(tmux.capture(b)).not.toContain('REPLY-IN-FORK');
  }, 120_000);

  it('/steer and Ctrl+S during a running turn reach the next model request as guidance', async () => {
    const w = tmux.open('steer', tui('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    // each tool call runs until the test opens its gate, so guidance typed at human speed on a
    // loaded machine still arrives while the step runs (a fixed sleep raced the typing)
    const gates = mkdtempSync(join(tmpdir(), 'hermes-steer-'));
    dirs.push(gates);
    // (a removed gates folder opens them too)
    const gated = (name: string): string =>
      `until [ -e ${shq(join(gates, name))} ] || [ ! -d ${shq(gates)} ]; do sleep 0.05; done`;
    // whatever happens, the gates open at the end: a tool step still waiting must not outlive the test
    onTestFinished(() => {
      for (const name of ['one', 'two']) writeFileSync(join(gates, name), '');
    });
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: gated('one') } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: gated('two') } }] },
      { text: 'STEERED-DONE' },
    );
    const n = fx.model.requests.length;
    tmux.type(w, 'run the long job', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('until ['), { timeoutMs: 15_000 });
    tmux.type(w, '/steer use tabs please', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('Guidance waits for the next step: “use tabs please”'));
    writeFileSync(join(gates, 'one'), '');
    const second = await fx.model.waitForRequests(n + 2, 20_000);
    const msgs2 = second[n + 1]!.body.messages as Msg[];
    expect(msgs2.at(-1)).toMatchObject({ role: 'user' });
    expect(String(msgs2.at(-1)!.content)).toMatch(/^\[Guidance from the user[^\n]*\]\nuse tabs please$/);
    expect(msgs2.at(-2)).toMatchObject({ role: 'tool' });
    // the second step runs: the steer key sends what is typed
    await tmux.waitFor(w, (s) => s.includes('↳ guidance: use tabs please'));
    tmux.type(w, 'and spaces after commas');
    tmux.keys(w, 'C-s');
    await tmux.waitFor(w, (s) => s.includes('Guidance waits for the next step: “and spaces after commas”'));
    writeFileSync(join(gates, 'two'), '');
    const third = await fx.model.waitForRequests(n + 3, 20_000);
    const msgs3 = third[n + 2]!.body.messages as Msg[];
    expect(String(msgs3.at(-1)!.content)).toContain('and spaces after commas');
    await tmux.waitFor(
      w,
      (s) => s.includes('STEERED-DONE') && s.includes('↳ guidance: and spaces after commas'),
      {
        timeoutMs: 15_000,
      },
    );
    // stored in order, marked as guidance; no turn of their own
    const users = (await show(await newestSession())).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content, m.status ?? null])).toEqual([
      ['run the long job', null],
      ['use tabs please', 'guidance'],
      ['and spaces after commas', 'guidance'],
    ]);
  }, 90_000);

  it('/rewind files also puts the session folder back as it was before that prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-rewind-files-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(join(dir, 'notes.txt'), 'original notes\n');
    // the session's folder is the TUI's: start it in `dir`
    const cmd = `cd ${shq(dir)} && exec ${shq(process.execPath)} ${shq(HERMES_BIN)} tui --new`;
    const w = tmux.open('files', ['sh', '-c', cmd], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    fx.model.push(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'notes.txt', content: 'rewritten by the agent\n' } },
        ],
      },
      { text: 'REWROTE-NOTES' },
    );
    tmux.type(w, 'rewrite my notes', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('REWROTE-NOTES'), { timeoutMs: 15_000 });
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('rewritten by the agent\n');
    tmux.type(w, '/rewind files', 'Enter');
    await tmux.waitFor(
      w,
      (s) => s.includes('Rewind conversation and files to before') && s.includes('rewrite my notes'),
    );
    tmux.keys(w, 'Enter');
    await tmux.waitFor(
      w,
      (s) => s.includes('Rewound: 4 message(s) removed') && s.includes('Written back: notes.txt'),
      {
        timeoutMs: 15_000,
      },
    );
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('original notes\n');
    expect(tmux.capture(w)).toMatch(/To undo: \/rollback [0-9a-f]{8}/);
    expect(await stored(await newestSession())).toEqual([]);
  }, 60_000);
});
