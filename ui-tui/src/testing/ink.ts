/** Helpers for component tests with ink-testing-library. */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { tick, waitForFrame } from '@hermes/client/testing';

const SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** A frame without SGR escape codes. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(SGR, '');
}

/** A rendered component with key and frame helpers. */
export interface Rendered extends ReturnType<typeof render> {
  /** The last frame without escape codes. */
  text(): string;
  /** Writes input chunks, letting Ink and React process each one. */
  press(...chunks: string[]): Promise<void>;
  /** Waits until the (plain) last frame shows `what`, then lets that render's effects run. */
  waitFor(what: string | RegExp | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
}

/** Renders a tree and waits a tick, so input written next is not lost. */
export async function renderInk(tree: ReactElement): Promise<Rendered> {
  const r = render(tree);
  await tick();
  await tick();
  const text = (): string => plain(r.lastFrame());
  return Object.assign(r, {
    text,
    async press(...chunks: string[]) {
      for (const c of chunks) {
        r.stdin.write(c);
        await tick();
        await tick();
      }
    },
    // after the frame shows up, let the effects of that render (input subscriptions) run too
    waitFor: async (what: string | RegExp | ((frame: string) => boolean), timeoutMs?: number) => {
      const f = await waitForFrame(text, what, timeoutMs);
      await tick();
      await tick();
      return f;
    },
  });
}

/** Key sequences as a terminal sends them. */
export const keys = {
  enter: '\r',
  altEnter: '\u001b\r',
  shiftEnterKitty: '\u001b[13;2u',
  shiftEnterXterm: '\u001b[27;2;13~',
  ctrlJ: '\n',
  esc: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  right: '\u001b[C',
  tab: '\t',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlO: '\u000f',
  pasteStart: '\u001b[200~',
  pasteEnd: '\u001b[201~',
};
