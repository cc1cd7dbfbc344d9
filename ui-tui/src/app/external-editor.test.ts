import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editExternally, editorCommand, terminalHandover } from './external-editor.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-editor-test-'));

/** An "editor": a shell script run as `$EDITOR file`. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('editExternally', () => {
  it('hands the text to $EDITOR in a private temp file and returns what it saved', () => {
    const seen = join(dir, 'seen.txt');
    const editor = script(
      'append.sh',
      `cp "$1" ${seen}; stat -c %a "$1" >> ${seen}; printf '%s\\nsecond line\\n' "$(cat "$1")" > "$1"`,
    );
    const events: string[] = [];
    const r = editExternally('first line', {
      env: { PATH: process.env.PATH, EDITOR: editor },
      terminal: { release: () => events.push('release'), reclaim: () => events.push('reclaim') },
    });
    expect(r).toEqual({ text: 'first line\nsecond line' });
    expect(readFileSync(seen, 'utf8')).toBe('first line600\n');
    expect(events).toEqual(['release', 'reclaim']);
  });

  it('runs $EDITOR through the shell (arguments allowed) and prefers $VISUAL', () => {
    const editor = script('prefix.sh', `printf '%s %s' "$1" "$(cat "$2")" > "$2"`);
    expect(editExternally('body', { env: { PATH: process.env.PATH, EDITOR: `${editor} edited:` } })).toEqual({
      text: 'edited: body',
    });
    expect(editorCommand({ VISUAL: 'nvim', EDITOR: 'nano' })).toBe('nvim');
    expect(editorCommand({})).toBe('vi');
  });

  it('keeps the text when the editor fails, gives the terminal back, and removes the temp file', () => {
    const editor = script('fail.sh', `echo "$1" > ${join(dir, 'path.txt')}; exit 3`);
    const events: string[] = [];
    const r = editExternally('keep me', {
      env: { PATH: process.env.PATH, EDITOR: editor },
      terminal: { release: () => events.push('release'), reclaim: () => events.push('reclaim') },
    });
    expect(r).toEqual({ error: `The editor (${editor}) exited with 3; the message is unchanged.` });
    expect(events).toEqual(['release', 'reclaim']);
    const file = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    expect(existsSync(file)).toBe(false);
  });
});

describe('terminalHandover', () => {
  it('turns raw mode and bracketed paste off around the editor, on the alternate screen', () => {
    const written: string[] = [];
    const raw: boolean[] = [];
    const stdin = { isTTY: true, setRawMode: (on: boolean) => raw.push(on) } as unknown as NodeJS.ReadStream;
    const stdout = { write: (d: string) => written.push(d) } as unknown as NodeJS.WriteStream;
    const h = terminalHandover({ stdin, stdout, env: {} });
    h.release();
    h.reclaim();
    expect(raw).toEqual([false, true]);
    expect(written[0]).toBe('\u001b[?2004l\u001b[?25h\u001b[?1049h');
    expect(written[1]).toBe('\u001b[?1049l\u001b[?25l\u001b[?2004h');
  });

  it('pops and restores the kitty keyboard flags in terminals where Ink enables them', () => {
    const written: string[] = [];
    const stdin = { isTTY: false } as unknown as NodeJS.ReadStream;
    const stdout = { write: (d: string) => written.push(d) } as unknown as NodeJS.WriteStream;
    const h = terminalHandover({ stdin, stdout, env: { TERM: 'xterm-kitty' }, altScreen: true });
    h.release();
    h.reclaim();
    expect(written[0]).toBe('\u001b[?2004l\u001b[<u\u001b[?25h');
    expect(written[1]).toBe('\u001b[?1049h\u001b[H\u001b[2J\u001b[?25l\u001b[>1u\u001b[?2004h');
  });
});
