import { EventEmitter } from 'node:events';
import { Box, render, Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { Transcript } from '../components/Transcript.js';
import type { TranscriptItem } from '../state/types.js';
import { waitFor, waitForFrame } from '@hermes/client/testing';
import { CLEAR_SCREEN, useResizeRedraw } from './resize-redraw.js';

/** A terminal stand-in whose size can change; it records everything written. */
class FakeTerminal extends EventEmitter {
  columns = 100;
  rows = 30;
  isTTY = true;
  out = '';
  write = (s: string): boolean => {
    this.out += s;
    return true;
  };
  resize(columns: number, rows = this.rows): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

const SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
const items: TranscriptItem[] = [
  { n: 0, kind: 'user', text: 'the question' },
  { n: 1, kind: 'notice', text: words, tone: 'info' },
];

/** The app's layout in small: the transcript (printed once) and a live part below it. */
function Screen({ width }: { width: number }): React.JSX.Element {
  const key = useResizeRedraw();
  return (
    <Box flexDirection="column">
      <Transcript key={key} items={items} nextN={items.length} width={width} />
      <Text>LIVE-PART</Text>
    </Box>
  );
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function mount(term: FakeTerminal): void {
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: false,
    setRawMode: () => {},
    setEncoding: () => {},
    resume: () => {},
    pause: () => {},
    ref: () => {},
    unref: () => {},
    read: () => null,
  });
  const instance = render(<Screen width={term.columns} />, {
    stdout: term as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  unmount = () => instance.unmount();
  term.on('resize', () => instance.rerender(<Screen width={term.columns} />));
}

describe('useResizeRedraw', () => {
  it('on a resize, clears the terminal and prints the transcript again at the new width', async () => {
    const term = new FakeTerminal();
    mount(term);
    await waitForFrame(() => term.out, 'w39');
    expect(term.out).not.toContain(CLEAR_SCREEN);

    term.resize(30);
    const after = (): string => {
      const i = term.out.lastIndexOf(CLEAR_SCREEN);
      return i < 0 ? '' : term.out.slice(i + CLEAR_SCREEN.length).replace(SGR, '');
    };
    // everything after the clear: the items again, wrapped to the new width
    const redrawn = await waitForFrame(after, (s) => s.includes('the question') && s.includes('w39'));
    const lines = redrawn.split('\n').filter((l) => /w\d/.test(l));
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.trimEnd().length).toBeLessThanOrEqual(30);
    expect(redrawn.split('the question')).toHaveLength(2); // printed once after the clear

    // the same width again (a resize event without a change, or only the height) does not clear
    const clears = term.out.split(CLEAR_SCREEN).length;
    term.resize(30);
    term.resize(30, 20);
    term.resize(60);
    await waitFor(() => term.out.split(CLEAR_SCREEN).length === clears + 1);
    expect(term.out.split(CLEAR_SCREEN).length).toBe(clears + 1);
  });
});
