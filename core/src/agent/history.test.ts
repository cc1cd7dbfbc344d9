import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT, repairToolPairs } from './history.js';
import { dropOldestTurns } from './overflow.js';
import type { ChatMessage } from '../model/types.js';

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'terminal', arguments: '{}' },
});

describe('repairToolPairs', () => {
  it('answers unanswered calls and drops orphan results', () => {
    const h: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'tool', content: 'orphan', tool_call_id: 'zz' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', content: 'A', tool_call_id: 'a' },
      { role: 'user', content: 'next' },
    ];
    const out = repairToolPairs(h);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(out[3]).toMatchObject({ tool_call_id: 'b', content: INTERRUPTED_TOOL_RESULT });
  });
});

describe('dropOldestTurns', () => {
  it('cuts at a user message so tool pairs stay together', () => {
    const h: ChatMessage[] = [];
    for (let i = 0; i < 6; i++) {
      h.push({ role: 'user', content: `u${i}` });
      h.push({ role: 'assistant', content: '', tool_calls: [call(`c${i}`)] });
      h.push({ role: 'tool', content: 'r', tool_call_id: `c${i}` });
      h.push({ role: 'assistant', content: `a${i}` });
    }
    const { history, dropped } = dropOldestTurns(h);
    expect(dropped).toBeGreaterThan(0);
    expect(history[1]!.role).toBe('user');
    expect(repairToolPairs(history)).toEqual(history);
  });
});
