import { describe, expect, it } from 'vitest';
import { longReplyFile, SUMMARY_OPENING_CHARS } from './long-reply.js';

describe('longReplyFile', () => {
  it('is reply.md with a caption naming its size and opening line', () => {
    const f = longReplyFile('\n\nFirst line\nrest');
    expect(f).toMatchObject({ name: 'reply.md', mime: 'text/markdown' });
    expect(f.data.toString()).toBe('\n\nFirst line\nrest');
    expect(f.caption).toBe('Long reply (17 characters), attached as reply.md. It begins: First line');
    const long = longReplyFile('x'.repeat(20_000));
    expect(long.caption).toContain('Long reply (20,000 characters)');
    expect(long.caption.endsWith(`${'x'.repeat(SUMMARY_OPENING_CHARS - 1)}…`)).toBe(true);
  });
});
