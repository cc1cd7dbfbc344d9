/**
 * A live session's prompts with images: the images go to the agent's turn, `turn.start` and the
 * queue list their chips, a waiting prompt keeps its images in the stored queue, and a daemon
 * that loads the stored queue after a restart gets them back with the held prompt.
 */
import { describe, expect, it } from 'vitest';
import type { StoredImage } from '@hermes/core/images';
import type { WireEvent } from '@hermes/core/protocol';
import { PromptQueue } from './prompt-queue.js';
import { bareLiveSession, MemoryStore, stubConnection } from './testing.js';

const IMG: StoredImage = {
  kind: 'image',
  name: 'dot.png',
  mime: 'image/png',
  bytes: 69,
  sha256: 'c'.repeat(64),
};
const CHIP = { kind: 'image', name: 'dot.png', mime: 'image/png', bytes: 69 };

describe('live session prompts with images', () => {
  it('queue and run with their images; turn.start lists the chips', async () => {
    const store = new MemoryStore('s1');
    const turns: Array<{ text: string; images?: StoredImage[] }> = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const live = bareLiveSession(store, () => ({
      runTurn: async (text, _signal, opts) => {
        turns.push({ text, ...(opts?.images ? { images: opts.images } : {}) });
        if (turns.length === 1) await gate;
        return { status: 'complete', text: '' };
      },
    }));
    const events: WireEvent[] = [];
    live.attach(stubConnection('c-1', (e) => events.push(e)));
    expect(live.submit('first').status).toBe('started');
    expect(live.submit('look at this', 'tui', undefined, [IMG]).status).toBe('queued');
    // waiting: stored with its images, listed with its chip
    expect(JSON.parse(store.rows[0]!.attachments!)).toEqual([IMG]);
    expect(live.queued()[0]).toMatchObject({ text: 'look at this', attachments: [CHIP] });

    // a daemon that loads the stored queue (after a crash) gets the held prompt with its images
    const reloaded = new PromptQueue(
      store,
      () => 's1',
      () => {},
    );
    expect(reloaded.list()[0]).toMatchObject({ held: true, attachments: [CHIP] });
    reloaded.release();
    expect(reloaded.takeNext()?.images).toEqual([IMG]);

    release();
    await live.idle();
    expect(turns).toEqual([{ text: 'first' }, { text: 'look at this', images: [IMG] }]);
    const starts = events.filter((e) => e.type === 'turn.start').map((e) => e.payload);
    expect(starts[1]).toMatchObject({ text: 'look at this', attachments: [CHIP] });
    expect(starts[0]).not.toHaveProperty('attachments');
  });

  it('a turn refused before its user message was stored leaves no queue row behind', async () => {
    const store = new MemoryStore('s1');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let n = 0;
    const live = bareLiveSession(store, () => ({
      runTurn: async () => {
        if (++n === 1) await gate;
        return n === 1 ? { status: 'complete', text: '' } : { status: 'error', text: '', error: 'no vision' };
      },
    }));
    live.submit('first');
    live.submit('with an image', undefined, undefined, [IMG]);
    expect(store.rows).toHaveLength(1);
    release();
    await live.idle();
    expect(store.rows).toEqual([]);
  });
});
