import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendHistory, InputHistory, loadHistory } from './input-history.js';

describe('InputHistory', () => {
  it('walks back and forth and restores the draft', () => {
    const h = new InputHistory(['one', 'two']);
    expect(h.prev('draft')).toBe('two');
    expect(h.prev('two')).toBe('one');
    expect(h.prev('one')).toBeNull();
    expect(h.next()).toBe('two');
    expect(h.next()).toBe('draft');
    expect(h.next()).toBeNull();
  });

  it('records entries once and keeps at most max', () => {
    const h = new InputHistory([], 3);
    for (const t of ['a', 'a', 'b', 'c', 'd', '  ']) h.add(t);
    expect(h.all).toEqual(['b', 'c', 'd']);
  });

  it('persists multi-line entries as JSON lines and skips torn lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hist-'));
    try {
      const path = join(dir, 'sub', 'history.jsonl');
      await appendHistory(path, 'line 1\nline 2');
      await appendHistory(path, 'second');
      const { appendFile } = await import('node:fs/promises');
      await appendFile(path, '"torn');
      expect(await loadHistory(path)).toEqual(['line 1\nline 2', 'second']);
      expect((await readFile(path, 'utf8')).split('\n')[0]).toBe('"line 1\\nline 2"');
      expect(await loadHistory(join(dir, 'missing'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
