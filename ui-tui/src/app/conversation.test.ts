import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '@hermes/core/protocol';
import { promptItems, rewindTargets } from './conversation.js';

const msg = (id: number, role: StoredMessage['role'], content: string, status?: string): StoredMessage => ({
  id,
  role,
  content,
  timestamp: 1_000 * id,
  ...(status ? { status } : {}),
});

describe('rewind targets', () => {
  it('are the prompts, newest first: no guidance, no summary, no replies', () => {
    const list = rewindTargets([
      msg(1, 'user', '[Context summary: earlier turns …]'),
      msg(2, 'user', 'first'),
      msg(3, 'assistant', 'one'),
      msg(4, 'user', 'steer', 'guidance'),
      msg(5, 'user', 'second'),
    ]);
    expect(list.map((m) => m.id)).toEqual([5, 2]);
  });

  it('pick rows show the first line and the age', () => {
    const [row] = promptItems([msg(2, 'user', 'line one\nline two')], 62_000);
    expect(row!.label).toBe('line one line two');
    expect(row!.detail).toMatch(/ago|m|s/);
  });
});
