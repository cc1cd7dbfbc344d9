import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { Picker } from './Picker.js';

afterEach(() => cleanup());

describe('Picker', () => {
  it('moves with Up/Down and picks with Enter', async () => {
    const picks: number[] = [];
    const items = [{ label: 'alpha', detail: '3 messages' }, { label: 'beta' }, { label: 'gamma' }];
    const r = await renderInk(
      <Picker title="Sessions" items={items} onPick={(i) => picks.push(i)} onCancel={() => {}} />,
    );
    expect(r.text()).toContain('❯ alpha 3 messages');
    await r.press(keys.down, keys.down, keys.down, keys.up, keys.enter);
    await waitFor(() => picks.length === 1);
    expect(picks).toEqual([1]);
  });

  it('closes on Esc', async () => {
    let cancelled = false;
    const r = await renderInk(
      <Picker title="T" items={[]} onPick={() => {}} onCancel={() => (cancelled = true)} />,
    );
    expect(r.text()).toContain('(nothing to show)');
    await r.press(keys.esc);
    await waitFor(() => cancelled);
  });
});
