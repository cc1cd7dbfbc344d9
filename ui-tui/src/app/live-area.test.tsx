/**
 * The App on a terminal stand-in, with Ink drawing as it does in a real terminal (not its debug
 * mode): the live part stays shorter than the screen however tall the stream and the queue get,
 * and `/clear` draws the composer and status bar again at once.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Ink decides at import time whether it runs in CI (then it draws no live part at all)
vi.hoisted(() => {
  process.env.CI = 'false';
  delete process.env.CONTINUOUS_INTEGRATION;
});

const { render } = await import('ink');
const { loadMarkdown } = await import('../markdown/render.js');
const { FakeClient } = await import('../testing/fake-client.js');
const { wire } = await import('../testing/fixtures.js');
const { tick, waitFor } = await import('@hermes/client/testing');
const { App } = await import('./App.js');
const { SessionController } = await import('./controller.js');
const { CLEAR_SCREEN } = await import('./resize-redraw.js');

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[[0-9;?]*[a-zA-Z]`, 'g');
/** Ink's clear-everything path, taken when its live part is as tall as the terminal. */
const CLEAR_SCROLLBACK = `${ESC}[3J`;

/** A terminal stand-in that records everything written. */
class FakeTerminal extends EventEmitter {
  columns = 80;
  rows = 16;
  isTTY = true;
  out = '';
  write = (s: string): boolean => {
    this.out += s;
    return true;
  };
}

/** A keyboard stand-in (ink-testing-library's). */
class FakeKeyboard extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function mount() {
  const term = new FakeTerminal();
  const keyboard = new FakeKeyboard();
  const client = new FakeClient();
  const controller = new SessionController({ client, cwd: '/work', throttleMs: 0, ready: loadMarkdown() });
  const instance = render(<App controller={controller} probeLocal={async () => []} />, {
    stdout: term as unknown as NodeJS.WriteStream,
    stdin: keyboard as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  cleanups.push(() => {
    instance.unmount();
    controller.dispose();
  });
  await controller.start({ mode: 'continue' });
  await waitFor(() => term.out.includes('connected'));
  const type = async (...chunks: string[]): Promise<void> => {
    for (const c of chunks) {
      keyboard.write(c);
      await tick();
      await tick();
    }
  };
  return { term, client, type };
}

/** What the terminal got since `from`, without escape codes. */
const textSince = (term: FakeTerminal, from: number): string => term.out.slice(from).replace(SGR, '');

describe('App on a terminal: the live part', () => {
  it('a stream taller than the screen with messages queued: no full clear, every user line printed', async () => {
    const { term, client, type } = await mount();
    await type('first question', '\r');
    await waitFor(() => client.callsTo('prompt.submit').length === 1);
    client.event(wire('turn.start', 1, { prompt_id: 'p1', text: 'first question' }));
    client.event(wire('message.start', 2));
    const reply = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long reply.`).join('\n\n');
    client.event(wire('message.delta', 3, { text: reply }));
    await waitFor(() => term.out.includes('Line 30 of'));
    // queued while the reply streams (the daemon holds them): each one a row more in the live part
    const queued = ['queued one', 'queued two', 'queued three'].map((text, i) => ({
      prompt_id: `q${i}`,
      text,
    }));
    for (const q of queued) await type(q.text, '\r');
    await waitFor(() => client.callsTo('prompt.submit').length === 4);
    client.event(wire('prompt.queued', 4, { queued }));
    await waitFor(() => term.out.includes('queued: queued three'));
    // the turn ends and the next one starts at once, in one batch of events
    const from = term.out.length;
    client.event(wire('message.complete', 5, { text: reply, status: 'complete', usage: {} }));
    client.event(wire('turn.end', 6, { prompt_id: 'p1', status: 'complete' }));
    client.event(wire('turn.start', 7, { prompt_id: 'q0', text: 'queued one' }));
    client.event(wire('message.start', 8));
    await waitFor(() => textSince(term, from).includes('› queued one'));
    client.event(wire('message.delta', 9, { text: 'Second reply.' }));
    await waitFor(() => textSince(term, from).includes('Second reply.'));

    // Ink never fell back to clearing the screen and the scrollback (what left it blank and
    // erased the line printed above the live part)
    expect(term.out).not.toContain(CLEAR_SCROLLBACK);
    const plain = term.out.replace(SGR, '');
    expect(plain.indexOf('› first question')).toBeLessThan(plain.lastIndexOf('Line 30 of'));
    expect(plain.lastIndexOf('Line 30 of')).toBeLessThan(plain.lastIndexOf('› queued one'));
  });

  it('/clear clears the screen and draws the composer and the status bar again at once', async () => {
    const { term, type } = await mount();
    await type('/clear');
    await waitFor(() => term.out.includes('/clear'));
    await type('\r');
    await waitFor(() => term.out.includes(CLEAR_SCREEN));
    const after = (): string => term.out.slice(term.out.lastIndexOf(CLEAR_SCREEN)).replace(SGR, '');
    await waitFor(() => after().includes('Type a message') && after().includes('◇ idle'));
  });
});
