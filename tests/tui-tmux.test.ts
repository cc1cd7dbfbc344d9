/**
 * `hermes tui` end to end, in real terminals (tmux, `CI=false`), against the real daemon and the
 * scripted model server: streaming and tool lines, two panes on one session
 * and an approval answered in one of them, a TUI killed mid-reply, the daemon stopped under an
 * attached TUI, profiles, and the first-run model setup. Every wait polls the pane with a
 * deadline; nothing sleeps.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { waitFor } from './support/gateway-process.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux, tuiEnv } from './support/tui-tmux-fixture.js';

let env: Record<string, string>;

/** `hermes tui ARGS` as a pane command. */
const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];
/** A reply long enough to be seen streaming: `START w1 … wN END`. */
const longReply = (tag: string, words: number): string =>
  [`${tag}-START`, ...Array.from({ length: words }, (_, i) => `w${i + 1}`), `${tag}-END`].join(' ');
const count = (hay: string, needle: string): number => hay.split(needle).length - 1;
/** The rows of the picker box on screen (between its title and its key hint). */
function pickerRows(screen: string, title: string): string {
  const lines = screen.split('\n');
  const start = lines.findIndex((l) => l.includes(`│ ${title}`));
  const end = lines.findIndex((l, i) => i > start && l.includes('↑/↓ move'));
  return start >= 0 && end > start ? lines.slice(start + 1, end).join('\n') : '';
}
/** The status bar (last non-empty line). */
const statusBar = (screen: string): string =>
  screen
    .split('\n')
    .filter((l) => l.trim())
    .pop() ?? '';

describeTmux('hermes tui in tmux', () => {
  const fx = useTuiTmux('hermes-tui-test', { cols: 120, rows: 40 }, (root) => {
    const editor = join(root, 'test-editor.sh');
    writeFileSync(editor, `#!/bin/sh\nprintf '%s\\nadded by the editor\\n' "$(cat "$1")" > "$1"\n`);
    chmodSync(editor, 0o755);
    env = tuiEnv(root, { EDITOR: editor });
  });
  const { tmux } = fx;

  it('streams the reply as it arrives and shows the tool call line; Ctrl+G edits in $EDITOR', async () => {
    const w = tmux.open('main', tui('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo tmux-tool-ok' } }] },
      { text: longReply('R1', 60), chunkSize: 8, delayMs: 40 },
    );
    tmux.type(w, 'please run the tool', 'Enter');
    // seen mid-stream: the start of the reply without its end
    await tmux.waitFor(w, (s) => s.includes('R1-START') && !s.includes('R1-END'), {
      what: 'the reply to be seen streaming (start shown, end not yet)',
    });
    const done = await tmux.waitFor(w, (s) => s.includes('R1-END') && statusBar(s).includes('◇ idle'), {
      scrollback: true,
    });
    expect(done).toMatch(/✓ Ran echo tmux-tool-ok/);
    expect(done).toContain('› please run the tool');
    expect(count(done, 'R1-END')).toBe(1);
    expect(done.indexOf('Ran echo tmux-tool-ok')).toBeLessThan(done.indexOf('R1-START'));

    tmux.type(w, 'draft for the editor');
    await tmux.waitFor(w, '› draft for the editor');
    tmux.keys(w, 'C-g');
    await tmux.waitFor(w, (s) => s.includes('added by the editor') && s.includes('Type') === false);
    tmux.keys(w, 'C-c'); // clears the composer
    await tmux.waitFor(w, 'Type a message');
  });

  it('two panes on one session see the same reply; an approval answered in pane 1 leaves pane 2', async () => {
    const p1 = tmux.open('pair', tui('--new'), env);
    await tmux.waitFor(p1, 'Type a message');
    tmux.type(p1, '/title two-panes', 'Enter');
    await tmux.waitFor(p1, '“two-panes”');
    const p2 = tmux.split(p1, tui('--session', 'two-panes'), env);
    await tmux.waitFor(p2, (s) => s.includes('“two-panes”') && s.includes('2 clients'));
    await tmux.waitFor(p1, '2 clients');

    fx.model.push({ text: longReply('SHARED', 20), chunkSize: 8, delayMs: 20 });
    tmux.type(p1, 'say it to both', 'Enter');
    for (const p of [p1, p2]) {
      const s = await tmux.waitFor(p, (x) => x.includes('SHARED-END') && statusBar(x).includes('◇ idle'), {
        scrollback: true,
      });
      expect(count(s, 'SHARED-END')).toBe(1);
      expect(s).toContain('› say it to both');
    }

    const scratch = join(fx.root, 'scratch-dir');
    mkdirSync(scratch);
    fx.model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${scratch}` } }] },
      { text: 'APPROVAL-DONE' },
    );
    tmux.type(p1, 'remove the scratch dir', 'Enter');
    for (const p of [p1, p2])
      await tmux.waitFor(p, (s) => s.includes('Approval needed') && s.includes('[o] once'));
    await tmux.waitFor(p1, 'to answer. Esc denies.'); // armed: the card takes keys
    tmux.keys(p1, 'o');
    const other = await tmux.waitFor(p2, (s) => s.includes('✓ Approved once (answered in another window)'));
    expect(other).not.toContain('Approval needed');
    expect(other).not.toContain('[o] once');
    await tmux.waitFor(p1, '✓ Approved once (answered here)');
    for (const p of [p1, p2]) await tmux.waitFor(p, 'APPROVAL-DONE', { scrollback: true });
    expect(existsSync(scratch)).toBe(false);
  });

  it('a TUI killed mid-reply: the turn finishes without it, and a new TUI shows the whole reply', async () => {
    const w = tmux.open('kill', tui('--new'), env);
    await tmux.waitFor(w, 'Type a message');
    tmux.type(w, '/title kill-test', 'Enter');
    await tmux.waitFor(w, '“kill-test”');
    fx.model.push({ text: longReply('KILL', 120), chunkSize: 8, delayMs: 40 });
    tmux.type(w, 'a long answer please', 'Enter');
    const mid = await tmux.waitFor(w, 'KILL-START');
    expect(mid).not.toContain('KILL-END');
    process.kill(tmux.pid(w), 'SIGKILL');
    await waitFor(() => tmux.dead(w), 'the killed TUI to exit');

    const probe = await connect(
      { root: fx.root },
      { name: 'test-probe', capabilities: { approvals: false } },
    );
    try {
      const { sessions } = await probe.request('session.list', { limit: 50 });
      const id = sessions.find((s) => s.title === 'kill-test')!.id;
      const stillRunning = sessions.find((s) => s.id === id)!;
      expect(stillRunning.clients).toBe(0);
      await waitFor(
        async () => {
          const { messages } = await probe.request('session.history', { session_id: id, limit: 5 });
          const last = messages[messages.length - 1];
          return (
            last?.role === 'assistant' && last.status === 'complete' && last.content?.includes('KILL-END')
          );
        },
        'the turn to finish in the daemon with no TUI attached',
        30_000,
      );
    } finally {
      await probe.close();
    }

    const again = tmux.open('kill-again', tui('--session', 'kill-test'), env);
    const s = await tmux.waitFor(again, (x) => x.includes('KILL-END') && statusBar(x).includes('◇ idle'), {
      scrollback: true,
    });
    // Ink wraps the reply to the width itself (hard line breaks): compare words
    expect(s.replace(/\s+/g, ' ')).toContain(longReply('KILL', 120));
    expect(count(s, 'KILL-START')).toBe(1);
    expect(s).not.toMatch(/interrupted/i);
  });

  it('shows the lost connection when the daemon stops, and re-attaches by itself after it starts', async () => {
    const w = 'hermes:main';
    await tmux.waitFor(w, (s) => statusBar(s).includes('● connected'));
    const stop = await runHermes(fx.root, ['gateway', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    await tmux.waitFor(w, (s) => /○ disconnected|◌ reconnecting|○ daemon stopped/.test(statusBar(s)));
    const start = await runHermes(fx.root, ['gateway', 'start']);
    expect(start.code, start.stderr).toBe(0);
    await tmux.waitFor(w, (s) => statusBar(s).includes('● connected'), { timeoutMs: 25_000 });
    fx.model.push({ text: 'AFTER-RESTART reply' });
    tmux.type(w, 'are you back?', 'Enter');
    const s = await tmux.waitFor(
      w,
      (x) => x.includes('AFTER-RESTART reply') && statusBar(x).includes('◇ idle'),
    );
    expect(s).toContain('› are you back?');
  });

  it('`hermes tui -p work` and `/profile work` show only the work profile’s sessions', async () => {
    const home = join(fx.root, 'profiles', 'work');
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.yaml'),
      `_config_version: 2\nmodel:\n  provider: custom\n  base_url: ${fx.model.url}\n  default: fake-model\n`,
    );
    const w = tmux.open('work', tui('-p', 'work', '--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && statusBar(s).startsWith('work ·'));
    tmux.type(w, '/title work-topic', 'Enter');
    await tmux.waitFor(w, '“work-topic”');
    fx.model.push({ text: 'WORK-REPLY' });
    tmux.type(w, 'work-only question', 'Enter');
    await tmux.waitFor(w, 'WORK-REPLY');

    // what each profile holds, asked of the daemon directly
    const probe = await connect(
      { root: fx.root },
      { name: 'test-probe', capabilities: { approvals: false } },
    );
    const names = async (profile: string): Promise<string[]> =>
      (await probe.request('session.list', { profile, limit: 100 })).sessions.map((x) => x.title || x.id);
    const [work, defaults] = [await names('work'), await names('default')];
    await probe.close();
    expect(work).toEqual(['work-topic']);
    expect(defaults).toEqual(expect.arrayContaining(['two-panes', 'kill-test']));

    const onlyWork = (rows: string): void => {
      expect(rows).toContain('work-topic');
      for (const other of defaults) expect(rows).not.toContain(other);
      expect(rows.split('\n').filter((l) => /\d+ msgs/.test(l))).toHaveLength(work.length);
    };
    tmux.type(w, '/sessions', 'Enter');
    onlyWork(pickerRows(await tmux.waitFor(w, (s) => pickerRows(s, 'Sessions') !== ''), 'Sessions'));
    tmux.keys(w, 'Escape');

    const main = 'hermes:main';
    tmux.type(main, '/profile work', 'Enter');
    await tmux.waitFor(main, (s) => s.includes('Profile: work') && statusBar(s).startsWith('work ·'));
    await tmux.waitFor(main, '“work-topic”');
    tmux.type(main, '/sessions', 'Enter');
    onlyWork(pickerRows(await tmux.waitFor(main, (s) => pickerRows(s, 'Sessions') !== ''), 'Sessions'));
    tmux.keys(main, 'Escape');
  });

  it('first run with no model: the setup writes the profile’s config and key through the daemon', async () => {
    for (const name of ['fresh', 'keyed']) {
      mkdirSync(join(fx.root, 'profiles', name), { recursive: true });
      writeFileSync(join(fx.root, 'profiles', name, 'config.yaml'), '_config_version: 2\n');
    }
    const w = tmux.open('fresh', tui('-p', 'fresh'), env);
    // the local probe has answered: the card is up and listening to keys
    const probed = (s: string): boolean => /No local server answered|\(running here\)/.test(s);
    const card = await tmux.waitFor(w, probed);
    expect(card).toContain('No model is configured for profile "fresh" yet');
    expect(card).not.toContain('Type a message');
    tmux.keys(w, /(\d)\. Another OpenAI-compatible server/.exec(card)![1]!);
    await tmux.waitFor(w, 'Base URL');
    tmux.type(w, `${fx.model.port}/v1`, 'Enter'); // after the prefilled http://127.0.0.1:
    await tmux.waitFor(w, 'API key of that server, if it needs one');
    tmux.keys(w, 'Enter'); // none
    await tmux.waitFor(w, (s) => s.includes('Which model?') && s.includes('fake-model'));
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, (s) => s.includes('Model set up: fake-model') && s.includes('Type a message'));
    const config = readFileSync(join(fx.root, 'profiles', 'fresh', 'config.yaml'), 'utf8');
    expect(config).toContain('provider: custom');
    expect(config).toContain(`base_url: ${fx.model.url}`);
    expect(config).toContain('default: fake-model');
    fx.model.push({ text: 'FRESH-REPLY' });
    tmux.type(w, 'hello fresh profile', 'Enter');
    await tmux.waitFor(w, 'FRESH-REPLY');

    const key = 'sk-or-test-0123456789abcdef';
    const k = tmux.open('keyed', tui('-p', 'keyed'), env);
    const card2 = await tmux.waitFor(k, probed);
    tmux.keys(k, /(\d)\. OpenRouter/.exec(card2)![1]!);
    await tmux.waitFor(k, 'OPENROUTER_API_KEY');
    tmux.type(k, key);
    const masked = await tmux.waitFor(k, `(${key.length} characters)`);
    expect(masked).not.toContain(key);
    tmux.keys(k, 'Enter');
    await tmux.waitFor(k, 'anthropic/claude-sonnet-4');
    tmux.keys(k, 'Enter');
    const saved = await tmux.waitFor(k, 'Model set up: anthropic/claude-sonnet-4 on OpenRouter', {
      scrollback: true,
    });
    expect(saved).not.toContain(key);
    const envFile = join(fx.root, 'profiles', 'keyed', '.env');
    expect(readFileSync(envFile, 'utf8')).toContain(`OPENROUTER_API_KEY=${key}`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const keyedConfig = readFileSync(join(fx.root, 'profiles', 'keyed', 'config.yaml'), 'utf8');
    expect(keyedConfig).toContain('provider: openrouter');
    expect(keyedConfig).not.toContain(key);
    const log = join(fx.root, 'logs', 'tui-gateway.log');
    if (existsSync(log)) expect(readFileSync(log, 'utf8')).not.toContain(key);
  });
});
