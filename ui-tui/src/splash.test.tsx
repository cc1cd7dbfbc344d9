import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { App } from './app/App.js';
import { Composer } from './components/Composer.js';
import { SessionController } from './app/controller.js';
import stringWidth from 'string-width';
import { charColumns, echoedText, eraseFrame, paintSplash, splashLines } from './splash.js';
import { FakeClient } from './testing/fake-client.js';
import { renderInk } from './testing/ink.js';

const plain = (s: string): string =>
  s.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g'), '');

function streams(tty = true) {
  const written: string[] = [];
  const raw: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: tty,
    setRawMode: (on: boolean) => raw.push(on),
  }) as unknown as NodeJS.ReadStream & PassThrough;
  const stdout = {
    isTTY: tty,
    columns: 60,
    write: (d: string) => written.push(d),
  } as unknown as NodeJS.WriteStream;
  return { stdin, stdout, written, raw };
}

describe('splash', () => {
  it('draws the composer box and a status line at the terminal width, as the App does', () => {
    const lines = splashLines(60, 'work', false);
    expect(lines[0]).toBe('');
    expect(lines[1]).toBe(`╭${'─'.repeat(58)}╮`);
    expect(plain(lines[2]!)).toBe(`│ ›  Type a message · / for commands${' '.repeat(22)} │`);
    expect(plain(lines[2]!)).toHaveLength(60);
    expect(lines[3]).toBe(`╰${'─'.repeat(58)}╯`);
    expect(lines[4]).toBe('work · ◌ connecting · ◇ idle');
    expect(splashLines(60, undefined, true)[1]).toContain('\u001b[36m');
  });

  it('matches the composer of the App’s first frame', async () => {
    const controller = new SessionController({ client: new FakeClient(), cwd: '/w', throttleMs: 0 });
    const r = await renderInk(<App controller={controller} />);
    const frame = r.text().split('\n');
    const box = frame.findIndex((l) => l.includes('Type a message'));
    const lines = splashLines(100, undefined, false).map(plain);
    expect(frame.slice(box - 2, box + 2)).toEqual(lines.slice(0, 4));
    r.unmount();
    controller.dispose();
  });

  it('matches the composer of the App at narrow widths: its placeholder takes one line, as in the frame', async () => {
    for (const cols of [20, 30, 34]) {
      const r = await renderInk(<Composer width={cols} onSubmit={() => {}} />);
      const box = r.text().split('\n');
      expect(box, `${cols} columns`).toEqual(splashLines(cols, undefined, false).map(plain).slice(1, 4));
      r.unmount();
    }
  });

  it('fits the status line to the width: a wrapped line would make the frame taller than counted', () => {
    expect(splashLines(31, 'default', false)[4]).toBe('default · ◌ connecting · ◇ idle');
    expect(splashLines(30, 'default', false)[4]).toBe('◌ connecting · ◇ idle');
    expect(splashLines(20, 'default', false)[4]).toBe('◌ connecting');
    expect(
      splashLines(20, undefined, true)
        .map((l) => stringWidth(l))
        .every((w) => w <= 20),
    ).toBe(true);
  });

  it('paints nothing on a terminal narrower than the frame', () => {
    const s = streams();
    (s.stdout as { columns: number }).columns = 19;
    paintSplash({ ...s, env: { TERM: 'xterm-256color' } }).handOff();
    expect(s.written).toEqual([]);
  });

  it('paints with raw mode on, returns the cursor to where the frame began, and erases it once', () => {
    const s = streams();
    const splash = paintSplash({ ...s, profile: 'default', env: { TERM: 'xterm-256color' } });
    expect(s.raw).toEqual([true]);
    expect(s.written[0]).toContain('\u001b[?2004h');
    expect(s.written[0]!.endsWith('\r\u001b[4A')).toBe(true);
    expect(plain(s.written[0]!)).toContain('Type a message');
    splash.handOff();
    splash.handOff();
    // each of the 5 lines erased, back to the first: never "erase to the end of the screen"
    expect(s.written.slice(1)).toEqual([eraseFrame(5)]);
    // back to the saved cursor, not up 4: the moves down stop at the screen's last line
    expect(eraseFrame(5)).toBe('\r\u001b7\u001b[2K' + '\u001b[1B\u001b[2K'.repeat(4) + '\u001b8');
    expect(eraseFrame(1)).toBe('\r\u001b[2K');
  });

  it('paints nothing in CI, on a dumb terminal, or without a terminal', () => {
    for (const [env, tty] of [
      [{ CI: 'true' }, true],
      [{ TERM: 'dumb' }, true],
      [{}, false],
    ] as const) {
      const s = streams(tty);
      paintSplash({ ...s, env }).handOff();
      expect(s.written).toEqual([]);
      expect(s.raw).toEqual([]);
    }
    const s = streams();
    paintSplash({ ...s, env: { CI: 'false' } });
    expect(s.written).toHaveLength(1);
  });

  it('echoes plain text typed over the frame (Backspace too) and stops at the first other key', () => {
    expect(echoedText('hello')).toBe('hello');
    expect(echoedText('helo\u007flo')).toBe('hello');
    expect(echoedText('héllo ✓')).toBe('héllo ✓');
    expect(echoedText('hi\r')).toBeNull();
    expect(echoedText('hi\u001b[A')).toBeNull();
    // a character whose width depends on its neighbours stops the echo
    expect(echoedText('e\u0301')).toBeNull();
    expect(echoedText('👍\u{1f3fd}')).toBeNull();
    expect(echoedText('a\u200db')).toBeNull();
  });

  it('echoes wide characters in the columns they take: the composer line stays the frame’s width', async () => {
    for (const ch of ['a', 'é', '✓', '漢', 'か', '한', 'Ａ', '🙂', '🚀']) {
      expect(charColumns(ch), ch).toBe(stringWidth(ch));
    }
    const s = streams();
    paintSplash({ ...s, env: { TERM: 'xterm-256color', NO_COLOR: '1' } });
    let typed = '';
    for (const ch of '漢字かな🙂ab'.repeat(8)) {
      typed += ch;
      s.stdin.write(ch);
      await new Promise((r) => setImmediate(r));
      // the echo: down to the composer line, the line, back up (`\r` before and after the line)
      const line = plain(s.written.at(-1)!).split('\r')[1]!;
      expect(stringWidth(line), typed).toBe(60);
    }
    expect(plain(s.written.at(-1)!)).toMatch(/🙂ab +│/);
  });

  it('keeps the keys typed over the frame, shows them, and hands them to the next reader in order', async () => {
    const s = streams();
    const splash = paintSplash({ ...s, env: { TERM: 'xterm-256color', NO_COLOR: '1' } });
    s.stdin.write('héllo');
    s.stdin.write(' w');
    await new Promise((r) => setImmediate(r));
    expect(splash.typed).toBe('héllo w');
    expect(plain(s.written.at(-1)!)).toContain('│ › héllo w ');
    s.stdin.write('\r'); // Enter: kept, no longer echoed
    await new Promise((r) => setImmediate(r));
    const painted = s.written.length;
    splash.handOff();
    expect(s.written.length).toBe(painted + 1); // only the erase
    s.stdin.write('LATER'); // typed after the hand-off: after the kept keys
    // the app's reader: Ink sets the encoding, then adds a `readable` listener
    s.stdin.setEncoding('utf8');
    const read: string[] = [];
    await new Promise<void>((resolve) => {
      s.stdin.on('readable', () => {
        let chunk: string | null;
        while ((chunk = s.stdin.read() as string | null) !== null) read.push(chunk);
        if (read.join('').includes('LATER')) resolve();
      });
    });
    expect(read.join('')).toBe('héllo w\rLATER');
  });

  it('with nothing typed over the frame, the app reads what comes later', async () => {
    const s = streams();
    paintSplash({ ...s, env: { TERM: 'xterm-256color', NO_COLOR: '1' } }).handOff();
    s.stdin.setEncoding('utf8');
    const read: string[] = [];
    const got = new Promise<void>((resolve) => {
      s.stdin.on('readable', () => {
        let chunk: string | null;
        while ((chunk = s.stdin.read() as string | null) !== null) read.push(chunk);
        if (read.join('') === 'abc') resolve();
      });
    });
    s.stdin.write('abc');
    await got;
    expect(s.stdin.listenerCount('data')).toBe(0);
  });
});
