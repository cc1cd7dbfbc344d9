import { describe, expect, it } from 'vitest';
import { stored } from '../testing/fixtures.js';
import { initialSessionState } from './session-reducer.js';
import { appendItems, applyOlder, MAX_ITEMS } from './transcript-window.js';
import type { SessionState } from './types.js';

const texts = (s: SessionState): string[] => s.items.map((i) => ('text' in i ? i.text : i.kind));

describe('appendItems', () => {
  it('keeps at most MAX_ITEMS items, dropping the oldest', () => {
    let s = initialSessionState();
    for (let i = 0; i < MAX_ITEMS + 5; i++) s = appendItems(s, [{ kind: 'user', text: `q${i}` }]);
    expect(s.items).toHaveLength(MAX_ITEMS);
    expect(s.items[0]).toMatchObject({ text: 'q5', n: 5 });
    expect(s.nextN).toBe(MAX_ITEMS + 5);
  });

  it('never drops what one call appends, even past MAX_ITEMS (it is not printed yet)', () => {
    let s = appendItems(initialSessionState(), [{ kind: 'user', text: 'old' }]);
    const many = Array.from({ length: MAX_ITEMS + 2 }, (_, i) => ({ kind: 'user' as const, text: `m${i}` }));
    s = appendItems(s, many);
    expect(s.items).toHaveLength(MAX_ITEMS + 2);
    expect(texts(s)[0]).toBe('m0');
    // the next append trims the window back to MAX_ITEMS
    s = appendItems(s, [{ kind: 'notice', text: 'later', tone: 'info' }]);
    expect(s.items).toHaveLength(MAX_ITEMS);
  });

  it('marks older drafts by index, and only a newer reply becomes the last reply', () => {
    let s = appendItems(initialSessionState(), [{ kind: 'assistant', text: 'newest', status: 'complete' }]);
    s = appendItems(
      s,
      [
        { kind: 'notice', text: 'header', tone: 'info' },
        { kind: 'assistant', text: 'old reply', status: 'complete' },
      ],
      (i) => i === 1,
    );
    expect(s.items.map((i) => Boolean(i.older))).toEqual([false, false, true]);
    expect(s.lastReply).toBe('newest');
  });
});

describe('applyOlder', () => {
  it('keeps a full page of 500 messages whole: the header and the first message stay', () => {
    let s: SessionState = {
      ...initialSessionState(),
      sessionId: 's1',
      hasMore: true,
      oldestMessageId: 9_000,
    };
    s = appendItems(s, [{ kind: 'user', text: 'on screen' }]);
    const page = Array.from({ length: 500 }, (_, i) => stored('user', `question ${i}`, { id: 8_000 + i }));
    s = applyOlder(s, page, true);
    const t = texts(s);
    expect(t).toContain('── 500 earlier messages of this session ──');
    expect(t).toContain('question 0');
    expect(t.at(-1)).toBe('── end of earlier messages (older ones: /history again) ──');
    expect(s.items.filter((i) => i.older)).toHaveLength(500);
    expect(s.oldestMessageId).toBe(8_000);
    expect(s.hasMore).toBe(true);
  });
});
