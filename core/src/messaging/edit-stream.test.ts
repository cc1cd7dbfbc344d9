/** Edit-streaming holds back a reply that could still be a silence marker. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformAdapter } from './adapter.js';
import { EditStreamer } from './edit-stream.js';

function fakeAdapter() {
  const log: string[] = [];
  const adapter = {
    maxMessageLength: 0,
    send: vi.fn(async (_c: string, text: string) => {
      log.push(`send:${text}`);
      return { ok: true, messageId: 'm1' };
    }),
    editMessage: vi.fn(async (_c: string, _id: string, text: string) => {
      log.push(`edit:${text}`);
      return { ok: true };
    }),
  } as unknown as PlatformAdapter;
  return { adapter, log };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

async function streamed(deltas: string[]): Promise<{ log: string[]; s: EditStreamer }> {
  const { adapter, log } = fakeAdapter();
  const s = new EditStreamer({ adapter, chatId: 'c', intervalMs: 10, now: () => Date.now() });
  for (const d of deltas) {
    s.push(d);
    await vi.advanceTimersByTimeAsync(20);
  }
  return { log, s };
}

describe('EditStreamer silence hold-back', () => {
  it.each([[['N', 'O_', 'REPLY']], [['[SIL', 'ENT]']], [['no', ' reply']], [['[静', '默]']]])(
    '%j is never shown, and withdrawing sends nothing',
    async (deltas) => {
      const { log, s } = await streamed(deltas);
      expect(log).toEqual([]);
      expect(s.started).toBe(false);
      expect(await s.finish('')).toEqual([]);
      expect(log).toEqual([]);
    },
  );

  it('a reply that starts like a marker is shown once it diverges', async () => {
    const { log, s } = await streamed(['No', ' problem, done.']);
    expect(log).toEqual(['send:No problem, done. …']);
    await s.finish('No problem, done.');
    expect(log.at(-1)).toBe('edit:No problem, done.');
  });

  it('ordinary text streams at once', async () => {
    const { log } = await streamed(['Hello', ' world']);
    expect(log).toEqual(['send:Hello …', 'edit:Hello world …']);
  });
});
