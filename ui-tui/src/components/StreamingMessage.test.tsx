import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { StreamingMessage } from './StreamingMessage.js';

afterEach(() => cleanup());

describe('StreamingMessage', () => {
  it('shows the text as it grows', async () => {
    const r = await renderInk(<StreamingMessage text="Hello" width={80} maxLines={10} />);
    await r.waitFor('Hello');
    r.rerender(<StreamingMessage text="Hello world" width={80} maxLines={10} />);
    await r.waitFor('Hello world');
  });

  it('shows only the last lines of a long reply', async () => {
    const text = Array.from({ length: 40 }, (_, i) => `para ${i}`).join('\n\n');
    const r = await renderInk(<StreamingMessage text={text} width={80} maxLines={5} />);
    const f = await r.waitFor('para 39');
    expect(f).toContain('⋮');
    expect(f).not.toContain('para 30');
    expect(f.split('\n').length).toBeLessThanOrEqual(7);
  });

  it('redraws at most ~30 times a second however fast the text changes', async () => {
    let renders = 0;
    const render = (md: string): string => {
      renders++;
      return md;
    };
    const r = await renderInk(
      <StreamingMessage text="t" width={80} maxLines={5} throttleMs={100} render={render} />,
    );
    const started = Date.now();
    let text = 't';
    for (let i = 0; i < 200; i++) {
      text += ` w${i}`;
      r.rerender(<StreamingMessage text={text} width={80} maxLines={5} throttleMs={100} render={render} />);
    }
    await r.waitFor('w199');
    const elapsed = Date.now() - started;
    // one render per throttle window (plus the first), never one per change
    expect(renders).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 100));
    expect(renders).toBeLessThan(20);
  });

  it('with throttleMs 0 every change shows in the render that brings it (the store paces them)', async () => {
    let renders = 0;
    const render = (md: string): string => {
      renders++;
      return md;
    };
    const r = await renderInk(
      <StreamingMessage text="a" width={80} maxLines={5} throttleMs={0} render={render} />,
    );
    r.rerender(<StreamingMessage text="a b" width={80} maxLines={5} throttleMs={0} render={render} />);
    expect(r.text()).toContain('a b');
    expect(renders).toBe(2); // no extra render of its own
  });

  it('a new reply replaces the old one at once, whatever the throttle', async () => {
    const old = Array.from({ length: 20 }, (_, i) => `old ${i}`).join('\n\n');
    const r = await renderInk(<StreamingMessage text="old" width={80} maxLines={5} throttleMs={60_000} />);
    r.rerender(<StreamingMessage text={old} width={80} maxLines={5} throttleMs={60_000} />);
    await r.waitFor('old 19');
    // the next turn starts in the render where the last one ends: same component, new text
    r.rerender(<StreamingMessage text="" width={80} maxLines={5} throttleMs={60_000} />);
    const f = await r.waitFor('…', 2_000);
    expect(f).not.toContain('old');
  });

  it('shows the reasoning line before any text', async () => {
    const r = await renderInk(
      <StreamingMessage text="" reasoning={'Let me think\nabout files'} width={80} maxLines={5} />,
    );
    await waitFor(() => r.text().includes('∴ about files'));
  });
});
