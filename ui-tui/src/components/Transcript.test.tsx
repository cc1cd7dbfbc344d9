import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../state/types.js';
import { renderInk } from '../testing/ink.js';
import { useState } from 'react';
import {
  HeldItems,
  heldItems,
  printLimit,
  staticView,
  Transcript,
  type MarkdownLoader,
} from './Transcript.js';

afterEach(() => cleanup());

const count = (hay: string, needle: string): number => hay.split(needle).length - 1;
const user = (n: number, text: string): TranscriptItem => ({ n, kind: 'user', text });
const reply = (n: number, text: string): TranscriptItem => ({
  n,
  kind: 'assistant',
  text,
  status: 'complete',
});

describe('Transcript', () => {
  it('prints finished items once, in order, and later ones below them', async () => {
    const items = [user(0, 'first question'), reply(1, 'first answer')];
    const r = await renderInk(<Transcript items={items} nextN={2} width={80} />);
    await r.waitFor('first answer');
    r.rerender(<Transcript items={[...items, user(2, 'second question')]} nextN={3} width={80} />);
    const f = await r.waitFor('second question');
    expect(count(f, 'first question')).toBe(1);
    expect(count(f, 'first answer')).toBe(1);
    expect(f.indexOf('first answer')).toBeLessThan(f.indexOf('second question'));
    // the static output is written once: a later frame only adds the new item
    const staticWrites = r.frames.filter((fr) => fr.includes('first question')).length;
    r.rerender(<Transcript items={[...items, user(2, 'second question')]} nextN={3} width={80} />);
    expect(r.frames.filter((fr) => fr.includes('first question')).length).toBe(staticWrites + 1);
  });

  it('keeps printing new items after old ones left the bounded window', async () => {
    const r = await renderInk(<Transcript items={[user(0, 'a0'), user(1, 'a1')]} nextN={2} width={80} />);
    await r.waitFor('a1');
    // the window slid: a0 is gone from memory, a2 and a3 are new
    r.rerender(<Transcript items={[user(1, 'a1'), user(2, 'a2'), user(3, 'a3')]} nextN={4} width={80} />);
    const f = await r.waitFor('a3');
    expect(count(f, 'a0')).toBe(1);
    expect(count(f, 'a1')).toBe(1);
    expect(count(f, 'a2')).toBe(1);
  });

  it('renders user prompts, markdown replies, tool lines and notices', async () => {
    const items: TranscriptItem[] = [
      user(0, 'hi'),
      reply(1, 'hello **there**'),
      {
        n: 2,
        kind: 'tool',
        toolId: 't',
        name: 'read_file',
        args: { path: 'a.md' },
        summary: '12 lines',
        ok: true,
        durationMs: 5,
      },
      { n: 3, kind: 'notice', text: '✓ Approved once (answered here)', tone: 'info' },
      { n: 4, kind: 'assistant', text: 'partial', status: 'interrupted' },
    ];
    const r = await renderInk(<Transcript items={items} nextN={5} width={80} />);
    const f = await r.waitFor('(interrupted)');
    expect(f).toContain('› hi');
    expect(f).toContain('hello');
    expect(f).toContain('✓ Read a.md → 12 lines · 5ms');
    expect(f).toContain('✓ Approved once (answered here)');
  });
});

describe('Transcript pacing', () => {
  const loaded: MarkdownLoader = { isReady: () => true, load: () => Promise.resolve() };

  it('prints a large append in batches, every item once and in order', async () => {
    const items = Array.from({ length: 25 }, (_, i) => user(i, `item-${String(i).padStart(2, '0')}`));
    const r = await renderInk(
      <Transcript items={items} nextN={25} width={80} batch={10} markdown={loaded} />,
    );
    const f = await r.waitFor('item-24');
    for (let i = 0; i < 25; i++) expect(count(f, `item-${String(i).padStart(2, '0')}`)).toBe(1);
    expect(f.indexOf('item-09')).toBeLessThan(f.indexOf('item-10'));
    // one commit printed the first batch alone, another the second
    expect(r.frames.some((fr) => fr.includes('item-09') && !fr.includes('item-10'))).toBe(true);
    expect(r.frames.some((fr) => fr.includes('item-19') && !fr.includes('item-20'))).toBe(true);
  });

  it('holds a reply, and what follows it, until markdown is loaded', async () => {
    let finish!: () => void;
    let ready = false;
    let loads = 0;
    const markdown: MarkdownLoader = {
      isReady: () => ready,
      load: () => {
        loads++;
        return new Promise<void>((res) => {
          finish = () => {
            ready = true;
            res();
          };
        });
      },
    };
    const items = [user(0, 'the question'), reply(1, 'the **answer**'), user(2, 'next question')];
    const r = await renderInk(<Transcript items={items} nextN={3} width={80} markdown={markdown} />);
    await r.waitFor('the question');
    expect(r.text()).not.toContain('answer');
    expect(r.text()).not.toContain('next question');
    expect(loads).toBe(1);
    finish();
    const f = await r.waitFor('next question');
    expect(f.indexOf('answer')).toBeLessThan(f.indexOf('next question'));
    expect(count(f, 'the question')).toBe(1);
  });
});

describe('printLimit', () => {
  const items = [user(3, 'a'), user(4, 'b'), reply(5, 'c'), user(6, 'd')];

  it('advances by at most a batch, never past the newest item', () => {
    expect(printLimit(items, 7, 3, 2, true)).toBe(5);
    expect(printLimit(items, 7, 5, 10, true)).toBe(7);
  });

  it('stops before a reply while markdown is not loaded', () => {
    expect(printLimit(items, 7, 3, 10, false)).toBe(5);
    expect(printLimit(items, 7, 6, 10, false)).toBe(7);
  });
});

describe('staticView', () => {
  it('slices below its limit only', () => {
    const v = staticView([user(5, 'x'), user(6, 'y'), user(7, 'z')], 8, 7);
    expect(v.length).toBe(7);
    expect(v.slice(5).map((i) => i.n)).toEqual([5, 6]);
  });

  it('has the next ordinal as length and slices by ordinal', () => {
    const v = staticView([user(5, 'x'), user(6, 'y')], 7);
    expect(v.length).toBe(7);
    expect(v.slice(6).map((i) => i.n)).toEqual([6]);
    expect(v.slice(0).map((i) => i.n)).toEqual([5, 6]);
  });
});

describe('HeldItems', () => {
  it('shows what waits for markdown in the live part, and nothing twice once it is printed', async () => {
    let finish!: () => void;
    let ready = false;
    const markdown: MarkdownLoader = {
      isReady: () => ready,
      load: () =>
        new Promise<void>((res) => {
          finish = () => {
            ready = true;
            res();
          };
        }),
    };
    /** The app's arrangement: one `markdownReady` for the printed transcript and the live part. */
    function Screen({ items }: { items: TranscriptItem[] }): React.JSX.Element {
      const [loaded, setLoaded] = useState(false);
      return (
        <>
          <Transcript
            items={items}
            nextN={3}
            width={80}
            markdown={markdown}
            markdownReady={loaded}
            onMarkdownReady={() => setLoaded(true)}
          />
          <HeldItems items={heldItems(items, loaded)} width={80} />
        </>
      );
    }
    const items = [user(0, 'the question'), reply(1, 'the answer'), user(2, 'next question')];
    const r = await renderInk(<Screen items={items} />);
    const before = await r.waitFor('next question');
    expect(before.indexOf('the question')).toBeLessThan(before.indexOf('the answer'));
    expect(count(before, 'the answer')).toBe(1);
    finish();
    await r.waitFor((f) => ready && f.includes('the answer'));
    // no frame from here on shows the reply twice (printed and still held)
    for (const f of r.frames) expect(count(f, 'the answer'), f).toBeLessThanOrEqual(1);
    expect(count(r.text(), 'next question')).toBe(1);
  });
});

describe('heldItems', () => {
  it('is the first reply and what follows while markdown is not loaded, else nothing', () => {
    const items = [user(3, 'a'), reply(4, 'b'), user(5, 'c')];
    expect(heldItems(items, false).map((i) => i.n)).toEqual([4, 5]);
    expect(heldItems(items, true)).toEqual([]);
    expect(heldItems([user(3, 'a')], false)).toEqual([]);
  });
});
