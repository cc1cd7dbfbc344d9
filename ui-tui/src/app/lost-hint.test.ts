import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOST_HINT_MS, LostConnectionHint } from './lost-hint.js';

afterEach(() => vi.useRealTimers());

describe('LostConnectionHint', () => {
  it('says once after LOST_HINT_MS of reconnecting; a reconnect before that says nothing', () => {
    vi.useFakeTimers();
    const said: string[] = [];
    const hint = new LostConnectionHint((t) => said.push(t));
    hint.connection('reconnecting');
    hint.connection('connected');
    vi.advanceTimersByTime(LOST_HINT_MS * 2);
    expect(said).toEqual([]);
    hint.connection('reconnecting');
    hint.connection('reconnecting');
    vi.advanceTimersByTime(LOST_HINT_MS);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/Lost the connection to the daemon; still retrying\. .* gateway start$/);
  });
});
