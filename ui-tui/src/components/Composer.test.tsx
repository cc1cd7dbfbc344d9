import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { InputHistory } from '../state/input-history.js';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { Composer, type ComposerProps } from './Composer.js';

afterEach(() => cleanup());

async function composer(over: Partial<ComposerProps> = {}) {
  const sent: string[] = [];
  const calls: string[] = [];
  const r = await renderInk(
    <Composer
      onSubmit={(t) => sent.push(t)}
      onEscape={() => calls.push('escape')}
      onCtrlC={(i) => calls.push(`ctrl-c:${i.empty ? 'empty' : 'text'}`)}
      onExit={() => calls.push('exit')}
      {...over}
    />,
  );
  return { r, sent, calls };
}

describe('Composer', () => {
  it('sends on Enter and clears', async () => {
    const { r, sent } = await composer();
    await r.press('hello');
    await r.waitFor('› hello');
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['hello']);
    await r.waitFor('Type a message');
  });

  it.each([
    ['Alt+Enter', keys.altEnter],
    ['Shift+Enter (kitty)', keys.shiftEnterKitty],
    ['Shift+Enter (xterm modifyOtherKeys)', keys.shiftEnterXterm],
    ['Ctrl+J', keys.ctrlJ],
  ])('%s inserts a newline', async (_name, key) => {
    const { r, sent } = await composer();
    await r.press('one', key, 'two');
    await r.waitFor('two');
    expect(sent).toEqual([]);
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['one\ntwo']);
  });

  it('\\ + Enter inserts a newline instead of the backslash', async () => {
    const { r, sent } = await composer();
    await r.press('one\\', keys.enter, 'two', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['one\ntwo']);
  });

  it('keeps a bracketed multi-line paste as one message', async () => {
    const { r, sent } = await composer();
    await r.press(keys.pasteStart + 'line 1\rline 2\r', 'line 3' + keys.pasteEnd);
    await r.waitFor('line 3');
    expect(sent).toEqual([]);
    expect(r.text()).toContain('› line 1');
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['line 1\nline 2\nline 3']);
  });

  it('sends text and Enter that arrive in one chunk (fast typing, tmux send-keys)', async () => {
    const { r, sent } = await composer();
    await r.press('hello\r');
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['hello']);
    await r.press('/cl\r');
    await waitFor(() => sent.length === 2);
    expect(sent[1]).toBe('/clear');
  });

  it('keeps an unbracketed multi-line chunk as text', async () => {
    const { r, sent } = await composer();
    await r.press('a\rb\r\nc');
    await r.waitFor('c');
    expect(sent).toEqual([]);
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['a\nb\nc']);
  });

  it('walks the history with Up/Down and restores the draft', async () => {
    const history = new InputHistory(['first', 'second']);
    const { r } = await composer({ history });
    await r.press('dra');
    await r.press(keys.up);
    await r.waitFor('› second');
    await r.press(keys.up);
    await r.waitFor('› first');
    await r.press(keys.down, keys.down);
    await r.waitFor('› dra');
  });

  it('moves between lines of a multi-line draft before using the history', async () => {
    const history = new InputHistory(['old']);
    const { r, sent } = await composer({ history });
    await r.press('ab', keys.altEnter, 'cd', keys.up, 'X', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['abX\ncd']);
  });

  it('completes slash commands in a popup', async () => {
    const { r, sent } = await composer();
    await r.press('/se');
    await r.waitFor('/sessions');
    expect(r.text()).toContain('❯ /sessions');
    expect(r.text()).toContain('Pick a session to resume');
    await r.press(keys.tab);
    await r.waitFor((f) => f.includes('› /sessions') && !f.includes('Pick a session'));
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['/sessions']);
  });

  it('Enter on a partial command runs the highlighted one, or fills it when it needs arguments', async () => {
    const { r, sent } = await composer();
    await r.press('/cl', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['/clear']);
    await r.press('/res', keys.enter);
    await r.waitFor('› /resume');
    expect(sent).toEqual(['/clear']);
  });

  it('Up/Down choose in the popup and Esc closes it', async () => {
    const { r, calls } = await composer();
    await r.press('/');
    await r.waitFor('/help');
    await r.press(keys.down, keys.tab);
    await r.waitFor('› /new');
    await r.press(keys.backspace, keys.backspace, keys.backspace);
    await r.waitFor('/help');
    await r.press(keys.esc);
    await r.waitFor((f) => !f.includes('List commands'));
    expect(calls).toEqual([]);
    await r.press(keys.esc);
    await waitFor(() => calls.length === 1);
    expect(calls).toEqual(['escape']);
  });

  it('Ctrl+C clears typed text when idle, and goes to the App otherwise', async () => {
    const { r, calls } = await composer();
    await r.press('draft', keys.ctrlC);
    await r.waitFor('Type a message');
    expect(calls).toEqual([]);
    await r.press(keys.ctrlC);
    await waitFor(() => calls.length === 1);
    expect(calls).toEqual(['ctrl-c:empty']);
  });

  it('Ctrl+C with text during a turn goes to the App (interrupt)', async () => {
    const { r, calls } = await composer({ busy: true });
    await r.press('draft', keys.ctrlC);
    await waitFor(() => calls.length === 1);
    expect(calls).toEqual(['ctrl-c:text']);
    expect(r.text()).toContain('draft');
  });

  it('Ctrl+D exits on an empty composer only', async () => {
    const { r, calls } = await composer();
    await r.press('x', keys.left, keys.ctrlD);
    await r.waitFor('Type a message');
    expect(calls).toEqual([]);
    await r.press(keys.ctrlD);
    await waitFor(() => calls.length === 1);
    expect(calls).toEqual(['exit']);
  });

  it('Ctrl+G hands the text to the external editor and shows what comes back', async () => {
    const given: string[] = [];
    const { r, sent } = await composer({
      onExternalEdit: (t) => {
        given.push(t);
        return given.length === 1 ? `${t}\nwritten in the editor` : null;
      },
    });
    await r.press('draft');
    await r.waitFor('› draft');
    await r.press('\u0007');
    await r.waitFor('written in the editor');
    expect(given).toEqual(['draft']);
    expect(sent).toEqual([]);
    await r.press('\u0007'); // the editor failed: the text is kept
    await r.waitFor('written in the editor');
    expect(given).toEqual(['draft', 'draft\nwritten in the editor']);
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['draft\nwritten in the editor']);
  });

  it('shows queued prompts', async () => {
    const { r } = await composer({ queued: [{ prompt_id: 'q1', text: 'do this next' }] });
    expect(r.text()).toContain('⏳ queued: do this next');
  });

  it('edits: backspace, cursor moves, Ctrl+W', async () => {
    const { r, sent } = await composer();
    await r.press('hello wrld', keys.left, keys.left, keys.left, 'o', keys.ctrlC);
    await r.press('abc def', '\u0017', 'xyz', keys.backspace, keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['abc xy']);
  });

  // the sequences terminals send (xterm, tmux, VTE): Ink parses them as it would from a terminal
  it.each([
    ['Alt+B / Alt+F', '\u001bb', '\u001bf'],
    ['Ctrl+Left / Ctrl+Right', '\u001b[1;5D', '\u001b[1;5C'],
  ])('%s move by word', async (_name, back, forward) => {
    const { r, sent } = await composer();
    await r.press('one two three', back, back, 'X', forward, 'Y', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['one Xtwo three'.replace('two', 'twoY')]);
  });

  it('Delete deletes forward, Backspace (DEL) backward', async () => {
    const { r, sent } = await composer();
    await r.press('abcd', keys.left, keys.left, '\u001b[3~', keys.backspace, keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['ad']);
  });

  it('Alt+Backspace and Ctrl+W delete a word back, Alt+D a word forward', async () => {
    const { r, sent } = await composer();
    await r.press(
      'one two three four',
      '\u001b\u007f',
      '\u0017',
      'X',
      '\u001bb',
      '\u001bb',
      '\u001bd',
      keys.enter,
    );
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['one  X']);
  });

  it('an unbound Alt+letter types nothing', async () => {
    const { r, sent } = await composer();
    await r.press('a', '\u001bq', 'b', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['ab']);
  });

  it('Ctrl+Z asks to suspend and leaves the text', async () => {
    let suspended = 0;
    const { r, sent } = await composer({ onSuspend: () => suspended++ });
    await r.press('draft', '\u001a');
    await waitFor(() => suspended === 1);
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['draft']);
  });

  it('a long bracketed paste shows as a chip and is sent in full', async () => {
    const { r, sent } = await composer();
    const pasted = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\r');
    await r.press('see ', keys.pasteStart + pasted + keys.pasteEnd, ' please');
    await r.waitFor('› see [pasted 12 lines] please');
    expect(r.text()).not.toContain('row 5');
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent[0]).toBe(`see ${pasted.replaceAll('\r', '\n')} please`);
  });

  it('the steer key (Ctrl+S) sends the full text of a chip to onSteer and clears', async () => {
    const steered: string[] = [];
    const { r, sent } = await composer({ onSteer: (t) => steered.push(t) });
    const pasted = Array.from({ length: 12 }, (_, i) => `s${i}`).join('\r');
    await r.press('look: ', keys.pasteStart + pasted + keys.pasteEnd);
    await r.waitFor('[pasted 12 lines]');
    await r.press('\u0013');
    await waitFor(() => steered.length === 1);
    expect(steered).toEqual([`look: ${pasted.replaceAll('\r', '\n')}`]);
    expect(sent).toEqual([]);
    await r.waitFor((t) => !t.includes('[pasted'));
  });

  it('Backspace after a chip removes the whole paste', async () => {
    const { r, sent } = await composer();
    await r.press(keys.pasteStart + 'x'.repeat(2500) + keys.pasteEnd);
    await r.waitFor('[pasted 2500 chars]');
    await r.press(keys.backspace, 'typed', keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['typed']);
  });

  it('the editor (Ctrl+G) gets the full text of a chip, and what comes back has no chips', async () => {
    const seen: string[] = [];
    const { r, sent } = await composer({
      onExternalEdit: (t) => {
        seen.push(t);
        return '[pasted 12 lines] typed literally';
      },
    });
    const pasted = Array.from({ length: 12 }, (_, i) => `r${i}`).join('\r');
    await r.press(keys.pasteStart + pasted + keys.pasteEnd);
    await r.waitFor('[pasted 12 lines]');
    await r.press('\u0007');
    await r.waitFor('typed literally');
    expect(seen).toEqual([pasted.replaceAll('\r', '\n')]);
    await r.press(keys.enter);
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['[pasted 12 lines] typed literally']);
  });

  it('handles control keys read in one chunk with typed text as keys of their own, in order', async () => {
    const steered: string[] = [];
    const { r, sent } = await composer({ onSteer: (t) => steered.push(t) });
    // typed text then Ctrl+S, read together (the TUI was busy): the text goes as guidance
    await r.press('use tabs\u0013');
    await waitFor(() => steered.length === 1);
    expect(steered).toEqual(['use tabs']);
    // Backspace (DEL), Ctrl+U and Ctrl+W inside a burst edit as they would one by one
    await r.press('helo\u007flo wrld\u0017world\r');
    await waitFor(() => sent.length === 1);
    expect(sent).toEqual(['hello world']);
    await r.press('draft\u0015agx\u0008ain\r');
    await waitFor(() => sent.length === 2);
    expect(sent[1]).toBe('again');
    // an Enter inside such a burst sends what was typed before it; what follows stays a draft
    await r.press('\u0015final\rnexx\u007ft');
    await waitFor(() => sent.length === 3);
    expect(sent[2]).toBe('final');
    await r.press('\r');
    await waitFor(() => sent.length === 4);
    expect(sent[3]).toBe('next');
  });
});
