/**
 * The composer's keys and the TUI's job control in a real terminal (tmux; run `npm run build`
 * first), typed as a person would (30–80 ms a key) and in bursts, the screen read with
 * capture-pane: word motions (Alt+B/F, Ctrl+←/→), Delete vs Backspace, Ctrl+W and Alt+Backspace,
 * Ctrl+Z then `fg` in the shell, a long bracketed paste collapsed to a chip and sent in full,
 * `/copy` honest about what tmux lets through, `/detach` mid-reply keeping the screen.
 */
import { expect, it } from 'vitest';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux, pressSlowly, typeSlowly } from './support/tmux.js';
import { useTuiTmux } from './support/tui-tmux-fixture.js';

/** The composer's text line (`› …` inside the frame), as shown. */
function composerLine(screen: string): string {
  const lines = screen.split('\n').filter((l) => /^\s*│ › /.test(l));
  return (lines.at(-1) ?? '').replace(/^\s*│ › /, '').replace(/\s*│\s*$/, '');
}

/** The user texts of the scripted model's last request. */
function lastUserText(model: {
  requests: Array<{ body: { messages?: Array<{ role: string; content: unknown }> } }>;
}): string {
  const messages = model.requests.at(-1)?.body.messages ?? [];
  const user = messages.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

describeTmux('hermes tui in tmux: composer keys, Ctrl+Z, long pastes, /copy, /detach', () => {
  const fx = useTuiTmux('hermes-keys-test', { cols: 110, rows: 36 });
  const w = 'hermes:shell';

  it('runs in a job-control shell', async () => {
    const { tmux, root } = fx;
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1', PS1: 'sh$ ' };
    tmux.open('shell', ['bash', '--norc', '--noprofile', '-i'], env);
    await tmux.waitFor(w, 'sh$');
    tmux.type(w, `${process.execPath} ${HERMES_BIN} tui --new`, 'Enter');
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
  });

  it('Alt+B/F and Ctrl+←/→ move by word; Delete deletes forward, Backspace back', async () => {
    const { tmux, model } = fx;
    await typeSlowly(tmux, w, 'alpha beta gamma');
    await tmux.waitFor(w, (s) => composerLine(s) === 'alpha beta gamma');
    // Alt+B twice: before "beta"; type there
    await pressSlowly(tmux, w, 'M-b', 'M-b');
    await typeSlowly(tmux, w, 'X');
    await tmux.waitFor(w, (s) => composerLine(s).startsWith('alpha Xbeta gamma'), {
      what: 'Alt+B moved by word',
    });
    // Alt+F: to the end of "Xbeta"; Ctrl+→ to the end; Ctrl+← to before "gamma"
    await pressSlowly(tmux, w, 'M-f');
    await typeSlowly(tmux, w, 'Y');
    await pressSlowly(tmux, w, 'C-Right', 'C-Left');
    await typeSlowly(tmux, w, 'Z');
    await tmux.waitFor(w, (s) => composerLine(s).startsWith('alpha XbetaY Zgamma'), {
      what: 'Alt+F, Ctrl+arrows',
    });
    // Delete removes "g" (forward), Backspace removes "Z" (back)
    await pressSlowly(tmux, w, 'DC', 'BSpace');
    await tmux.waitFor(w, (s) => composerLine(s).startsWith('alpha XbetaY amma'), {
      what: 'Delete forward, Backspace back',
    });
    model.push({ text: 'Reply one.' });
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, 'Reply one.');
    expect(lastUserText(model)).toBe('alpha XbetaY amma');
  });

  it('Ctrl+W and Alt+Backspace delete a word back; a burst of keys arrives in order', async () => {
    const { tmux, model } = fx;
    tmux.type(w, 'one two three four'); // a burst: one send-keys
    await tmux.waitFor(w, (s) => composerLine(s) === 'one two three four');
    await pressSlowly(tmux, w, 'C-w', 'M-BSpace');
    await tmux.waitFor(
      w,
      (s) => composerLine(s) === 'one two', // and a trailing space, trimmed from the captured line
      { what: 'two words deleted' },
    );
    model.push({ text: 'Reply two.' });
    await typeSlowly(tmux, w, 'end');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, 'Reply two.');
    expect(lastUserText(model)).toBe('one two end');
  });

  it('Ctrl+Z suspends to the shell; fg brings the TUI back with the draft, and it still works', async () => {
    const { tmux, model } = fx;
    await typeSlowly(tmux, w, 'draft kept');
    await tmux.waitFor(w, (s) => composerLine(s) === 'draft kept');
    tmux.keys(w, 'C-z');
    const shell = await tmux.waitFor(w, (s) => /Stopped/.test(s) && /sh\$ $/m.test(s), {
      what: 'the shell back',
    });
    expect(shell).not.toContain('Type a message');
    // the shell works: the terminal is cooked again (echo, line editing)
    tmux.type(w, 'echo still-$((40+2))', 'Enter');
    await tmux.waitFor(w, 'still-42');
    tmux.type(w, 'fg', 'Enter');
    const back = await tmux.waitFor(w, (s) => composerLine(s) === 'draft kept' && s.includes('Reply two.'), {
      what: 'the TUI back after fg',
    });
    expect(back).not.toContain('still-42'); // the TUI's screen as it was, the shell's lines gone
    model.push({ text: 'Reply three.' });
    await typeSlowly(tmux, w, ' now');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, 'Reply three.');
    expect(lastUserText(model)).toBe('draft kept now');
  });

  it('a long bracketed paste shows as a chip and the full text is sent', async () => {
    const { tmux, model } = fx;
    const pasted = Array.from({ length: 15 }, (_, i) => `pasted row ${i + 1}`).join('\n');
    await typeSlowly(tmux, w, 'look: ');
    tmux.run('set-buffer', '-b', 'big', pasted);
    tmux.run('paste-buffer', '-p', '-b', 'big', '-t', w); // -p: as a bracketed paste
    const s = await tmux.waitFor(w, (sc) => composerLine(sc) === 'look: [pasted 15 lines]', {
      what: 'the chip',
    });
    expect(s).not.toContain('pasted row 3');
    model.push({ text: 'Reply four.' });
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, 'Reply four.');
    expect(lastUserText(model)).toBe(`look: ${pasted}`);
  });

  it('/copy says it cannot reach the clipboard in default tmux, and copies once set-clipboard is on', async () => {
    const { tmux } = fx;
    tmux.run('delete-buffer', '-b', 'big');
    await typeSlowly(tmux, w, '/copy');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, "Not copied to the clipboard: tmux's set-clipboard is external");
    expect(tmux.run('show-buffer')).toBe('Reply four.');
    tmux.run('delete-buffer');
    tmux.run('set-option', '-g', 'set-clipboard', 'on');
    await typeSlowly(tmux, w, '/copy');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, "Copied the last reply (11 characters) to tmux's buffer");
    // tmux took the OSC 52 sequence itself
    expect(tmux.run('show-buffer')).toBe('Reply four.');
  });

  it('/detach mid-reply keeps the partial reply and says the turn continues in the daemon', async () => {
    const { tmux, model } = fx;
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    model.push({ text: `Partial start ${words}`, chunkSize: 6, delayMs: 60 });
    await typeSlowly(tmux, w, 'stream slowly');
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, 'Partial start word0');
    await typeSlowly(tmux, w, '/detach');
    tmux.keys(w, 'Enter');
    const s = await tmux.waitFor(w, (sc) => sc.includes('Resume:') && /sh\$ $/m.test(sc), {
      what: 'the shell after /detach',
    });
    expect(s).toContain('Partial start word0');
    expect(s).toContain('Detached — the turn continues in the daemon (model fake-model)');
    expect(s).not.toContain('◇ idle');
    expect(s).toMatch(/keeps running in the daemon \(in the background\)\. Resume: \S*hermes tui -s \S+/);
  });
});
