/** The streaming checkpoint writes by time and by size, whichever comes first. */
import { describe, expect, it } from 'vitest';
import type { NewMessage } from '../state/types.js';
import { STREAM_CHECKPOINT_BYTES, STREAM_CHECKPOINT_MS, StreamCheckpoint } from './stream-checkpoint.js';

function harness() {
  let clock = 0;
  const writes: string[] = [];
  const cp = new StreamCheckpoint(
    {
      append: (m: NewMessage) => {
        writes.push(m.content ?? '');
        return 1;
      },
      update: (_id, patch) => {
        writes.push(patch.content ?? '');
      },
    },
    () => clock,
  );
  return { cp, writes, advance: (ms: number) => (clock += ms) };
}

describe('StreamCheckpoint', () => {
  it('writes once 2 KB of new text arrived inside one interval', () => {
    const h = harness();
    h.cp.onDelta('a', '');
    expect(h.writes).toHaveLength(1);
    const chunk = 'x'.repeat(100);
    let sent = 1;
    // 3,700 chars at 1 ms apart: far less than one interval
    for (let i = 0; i < 37; i++) {
      h.advance(1);
      h.cp.onDelta(chunk, '');
      sent += chunk.length;
    }
    expect(h.writes.length).toBeGreaterThanOrEqual(2);
    const stored = h.writes[h.writes.length - 1]!.length;
    expect(sent - stored).toBeLessThan(STREAM_CHECKPOINT_BYTES);
  });

  it('counts bytes, not characters, and reasoning too', () => {
    const h = harness();
    h.cp.onDelta('a', '');
    h.cp.onDelta('', 'r'.repeat(STREAM_CHECKPOINT_BYTES / 2));
    expect(h.writes).toHaveLength(1);
    h.cp.onDelta('é'.repeat(STREAM_CHECKPOINT_BYTES / 4), ''); // 2 bytes each
    expect(h.writes).toHaveLength(2);
  });

  it('still writes by time for a slow stream, and not more often', () => {
    const h = harness();
    h.cp.onDelta('a', '');
    h.advance(STREAM_CHECKPOINT_MS - 1);
    h.cp.onDelta('b', '');
    expect(h.writes).toHaveLength(1);
    h.advance(1);
    h.cp.onDelta('c', '');
    expect(h.writes).toEqual(['a', 'abc']);
  });
});
