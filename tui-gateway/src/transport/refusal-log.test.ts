/**
 * The rate limit of refused-connection lines, in process on a fake clock: per peer and reason,
 * `burst` lines a window and one summary counting the rest, so the log grows with the number of
 * windows and peers, never with the number of attempts; every refusal is counted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFUSAL_LOG_BURST, REFUSAL_LOG_WINDOW_MS, RefusalLog } from './refusal-log.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Sum of the refusals the lines account for: one each, plus the counts of summary lines. */
function accounted(lines: string[]): number {
  let n = 0;
  for (const l of lines) {
    const m = /^(\d+) more refused connections/.exec(l);
    n += m ? Number(m[1]) : 1;
  }
  return n;
}

describe('RefusalLog', () => {
  it('20,000 refusals of one peer in one window: the burst, then one summary line', () => {
    const lines: string[] = [];
    const log = new RefusalLog((l) => lines.push(l));
    for (let i = 0; i < 20_000; i++) log.refused('127.0.0.1', '401 wrong bearer token');
    expect(lines).toHaveLength(REFUSAL_LOG_BURST);
    expect(lines[0]).toBe('refused connection from 127.0.0.1 (401 wrong bearer token)');
    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    expect(lines).toHaveLength(REFUSAL_LOG_BURST + 1);
    expect(lines.at(-1)).toBe(
      `${20_000 - REFUSAL_LOG_BURST} more refused connections from 127.0.0.1 (401 wrong bearer token) in the last 10 s`,
    );
    expect(accounted(lines)).toBe(20_000);
  });

  it('spread over windows: at most burst + 1 lines per window, every refusal counted', () => {
    const lines: string[] = [];
    const log = new RefusalLog((l) => lines.push(l));
    const windows = 4;
    for (let w = 0; w < windows; w++) {
      for (let i = 0; i < 5_000; i++) log.refused('10.0.0.9', '426 not an upgrade');
      vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    }
    expect(lines).toHaveLength(windows * (REFUSAL_LOG_BURST + 1));
    expect(accounted(lines)).toBe(20_000);
  });

  it('keys are peer and reason; past 256 keys further peers are only counted together', () => {
    const lines: string[] = [];
    const log = new RefusalLog((l) => lines.push(l), 1);
    log.refused('p0', '401 a');
    log.refused('p0', '403 b'); // same peer, other reason: its own key
    for (let i = 1; i < 300; i++) log.refused(`p${i}`, '401 a');
    expect(lines).toHaveLength(256);
    log.flush();
    expect(lines.at(-1)).toBe('45 more refused connections from other peers in the last 10 s');
    expect(accounted(lines)).toBe(301);
    // a new window starts empty
    log.refused('p0', '401 a');
    expect(lines.at(-1)).toBe('refused connection from p0 (401 a)');
  });

  it('writes nothing when a window closes without suppressed refusals', () => {
    const lines: string[] = [];
    const log = new RefusalLog((l) => lines.push(l));
    log.refused('127.0.0.1', '401 x');
    vi.advanceTimersByTime(REFUSAL_LOG_WINDOW_MS);
    expect(lines).toEqual(['refused connection from 127.0.0.1 (401 x)']);
  });
});
