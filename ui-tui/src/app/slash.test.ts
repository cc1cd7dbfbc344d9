import { describe, expect, it } from 'vitest';
import { sessionInfo } from '../testing/fixtures.js';
import { sessionItems } from './slash.js';

describe('sessionItems (the /sessions picker)', () => {
  it('shows the source, age and message count; the title or preview as the label', () => {
    const now = Date.now();
    const items = sessionItems(
      [
        {
          ...sessionInfo(),
          id: 'a',
          title: 'Deploy fix',
          source: 'irc',
          started_at: now - 3_600_000,
          message_count: 12,
        },
        {
          ...sessionInfo(),
          id: 'b',
          title: null,
          preview: 'summarise my inbox',
          source: 'tui',
          started_at: now,
          message_count: 2,
        },
      ],
      now,
    );
    expect(items[0]!.label).toBe('Deploy fix');
    expect(items[0]!.detail).toMatch(/^irc · .* · 12 msgs/);
    expect(items[1]!.label).toBe('summarise my inbox');
    expect(items[1]!.detail).toMatch(/^tui · /);
  });

  it('shows the first prompt beside the title only when the title is not made from it', () => {
    const now = Date.now();
    const base = { ...sessionInfo(), source: 'tui', started_at: now, message_count: 3 };
    const [same, cut, other] = sessionItems(
      [
        { ...base, id: 'a', title: 'hello there', preview: 'hello there' },
        { ...base, id: 'b', title: 'a long first prompt…', preview: 'a long first prompt that was cut' },
        { ...base, id: 'c', title: 'Deploy fix', preview: 'why does the deploy fail?' },
      ],
      now,
    );
    expect(same!.detail).toBe('tui · just now · 3 msgs');
    expect(cut!.detail).toBe('tui · just now · 3 msgs');
    expect(other!.detail).toBe('tui · just now · 3 msgs · why does the deploy fail?');
  });
});
