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
});
