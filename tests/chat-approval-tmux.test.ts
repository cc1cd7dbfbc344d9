/**
 * `hermes chat`'s approval prompt in a real terminal (tmux; `npm run build` first), in process
 * (the line chat) and through the daemon (`chat -q`): what was typed while the turn ran — a whole
 * line buffered by the terminal, or a line begun and not finished — is set aside, never taken as
 * the answer; `session` and `always` need a typed `yes`. Every wait polls the pane with a deadline.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

const count = (hay: string, needle: string): number => hay.split(needle).length - 1;

describeTmux('hermes chat: the approval prompt takes no typeahead as an answer', () => {
  const fx = useTuiTmux('hermes-chat-approval', { cols: 140, rows: 40 });
  const { tmux } = fx;
  const victims = mkdtempSync(join(tmpdir(), 'hermes-victims-'));
  afterAll(() => rmSync(victims, { recursive: true, force: true }));
  const victim = (name: string): string => {
    const dir = join(victims, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'keep.txt'), 'still here\n');
    return dir;
  };
  const config = (): string => readFileSync(join(fx.root, 'config.yaml'), 'utf8');
  const env = (): Record<string, string> => ({ HERMES_HOME: fx.root, TERM: 'xterm-256color', NO_COLOR: '1' });
  /** A tool call that streams for about three seconds after some text, then `done`. */
  const slowDelete = (dir: string, done: string): void =>
    fx.model.push(
      {
        text: 'LOOKING-AROUND ',
        toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${dir}` } }],
        chunkSize: 5,
        delayMs: 200,
      },
      { text: done },
    );

  it('in process: a line begun during the turn is set aside; session is asked again for yes', async () => {
    const dir = victim('in-process');
    slowDelete(dir, 'INPROC-DONE');
    const w = tmux.open('inproc', [process.execPath, HERMES_BIN, 'chat'], env());
    await tmux.waitFor(w, 'Ctrl+D or /quit exits');
    tmux.type(w, 'clean up please', 'Enter');
    await tmux.waitFor(w, 'LOOKING-AROUND');
    tmux.type(w, 's'); // typed while the reply streams, no Enter yet
    await tmux.waitFor(
      w,
      (s) => s.includes('(set aside, typed before the question: “s”)') && s.includes('Allow?'),
    );
    tmux.keys(w, 'Enter'); // an empty answer: a deny (the “s” was not taken as session)
    await tmux.waitFor(w, 'INPROC-DONE');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    expect(config()).not.toContain('command_allowlist');

    const dir2 = victim('in-process-2');
    slowDelete(dir2, 'INPROC-AGAIN');
    tmux.type(w, 'and this one', 'Enter');
    await tmux.waitFor(w, (s) => count(s, 'Allow? [o]nce') === 2, { what: 'the second question' });
    tmux.type(w, 'session', 'Enter');
    await tmux.waitFor(
      w,
      (s) => s.includes('for the rest of this session?') && s.includes('Type yes to confirm: '),
    );
    expect(existsSync(join(dir2, 'keep.txt'))).toBe(true);
    tmux.type(w, 'no', 'Enter');
    await tmux.waitFor(w, (s) => s.includes('Not confirmed.') && count(s, 'Allow? [o]nce') === 3);
    tmux.type(w, 'd', 'Enter');
    await tmux.waitFor(w, 'INPROC-AGAIN');
    expect(existsSync(join(dir2, 'keep.txt'))).toBe(true);
    expect(config()).not.toContain('command_allowlist');
    tmux.type(w, '/quit', 'Enter');
    await tmux.waitFor(w, () => tmux.dead(w), { what: 'the chat to exit' });
  });

  it('through the daemon: a line typed ahead is set aside; always needs a typed yes', async () => {
    const dir = victim('via-daemon');
    slowDelete(dir, 'DAEMON-DONE');
    const w = tmux.open('daemon', [process.execPath, HERMES_BIN, 'chat', '-q', 'clean up'], env());
    await tmux.waitFor(w, 'LOOKING-AROUND');
    tmux.type(w, 'a', 'Enter'); // typeahead: the terminal holds the line until the prompt reads
    const asked = await tmux.waitFor(w, (s) => s.includes('Allow? [o]nce'));
    expect(asked).toContain('(set aside, typed before the question: “a”)');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    expect(config()).not.toContain('command_allowlist');

    tmux.type(w, 'always', 'Enter');
    await tmux.waitFor(
      w,
      (s) => /always \((saved as|added to) command_allowlist/.test(s) && s.includes('Type yes to confirm: '),
    );
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    expect(config()).not.toContain('command_allowlist');
    tmux.type(w, 'yes', 'Enter');
    await tmux.waitFor(w, 'DAEMON-DONE');
    await tmux.waitFor(w, () => tmux.dead(w), { what: 'the one-shot to exit' });
    expect(existsSync(dir)).toBe(false);
    expect(config()).toContain('command_allowlist');
  });
});
