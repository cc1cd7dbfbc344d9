/** The in-memory response store: latest of a conversation, delete, and its cap. */
import { describe, expect, it } from 'vitest';
import { MemoryResponseStore } from './response-store.js';

const row = (id: string, conversation: string | null) => ({
  id,
  chat_id: 'c',
  conversation,
  previous_id: null,
  body: '{}',
  created_at: 0,
});

describe('MemoryResponseStore', () => {
  it('finds the latest of a conversation, deletes, and drops the oldest past its cap', () => {
    const s = new MemoryResponseStore(2);
    s.put(row('a', 'p'));
    s.put(row('b', 'p'));
    expect(s.latest('p')?.id).toBe('b');
    s.put(row('c', null));
    expect(s.get('a')).toBeUndefined();
    expect(s.delete('b')).toBe(true);
    expect(s.latest('p')).toBeUndefined();
  });
});
