import { describe, expect, it } from 'vitest';
import type { Connection } from '../rpc/types.js';
import { clientFiles } from './client-files.js';

/** A connection whose `request` answers with `answer` (a value, or a function of the params). */
function conn(
  id: string,
  files: boolean,
  answer: (method: string, params: Record<string, unknown>) => unknown,
  closed = false,
): Connection & { asked: string[] } {
  const asked: string[] = [];
  return {
    id,
    clientName: id,
    capabilities: { approvals: true, files },
    profile: 'default',
    closed,
    asked,
    notify: () => undefined,
    onClose: () => undefined,
    request: async (method, params) => {
      asked.push(method);
      return answer(method, params as Record<string, unknown>);
    },
  };
}

describe('clientFiles', () => {
  it('asks the client with `files` attached last, and reads its answer', async () => {
    const a = conn('a', true, () => ({ content: 'from a' }));
    const b = conn('b', false, () => ({ content: 'from b' }));
    const c = conn('c', true, (_m, p) => ({ content: `from c for ${String(p.session_id)}` }));
    const gone = conn('d', true, () => ({ content: 'from a closed one' }), true);
    const files = clientFiles(
      () => [a, b, c, gone],
      () => 's1',
      () => undefined,
    );
    expect(await files.read('/w/x.ts')).toBe('from c for s1');
    expect(await files.write('/w/x.ts', 'new')).toBe(true);
    expect(c.asked).toEqual(['file.read', 'file.write']);
    expect([a.asked, b.asked, gone.asked]).toEqual([[], [], []]);
  });

  it('falls back (undefined / false) with no such client, an error, a malformed answer or no answer in time', async () => {
    const logs: string[] = [];
    const none = clientFiles(
      () => [conn('b', false, () => ({}))],
      () => 's1',
      (l) => logs.push(l),
    );
    expect(await none.read('/w/x.ts')).toBeUndefined();
    expect(await none.write('/w/x.ts', 'x')).toBe(false);

    const failing = conn('e', true, () => {
      throw new Error('buffer closed');
    });
    const f = clientFiles(
      () => [failing],
      () => 's1',
      (l) => logs.push(l),
    );
    expect(await f.read('/w/x.ts')).toBeUndefined();
    expect(await f.write('/w/x.ts', 'x')).toBe(false);
    expect(logs.join('\n')).toContain('could not read /w/x.ts (buffer closed); using the disk');

    const odd = clientFiles(
      () => [conn('o', true, () => ({ text: 'no content key' }))],
      () => 's1',
      () => undefined,
    );
    expect(await odd.read('/w/x.ts')).toBeUndefined();

    const silent: Connection = {
      ...conn('s', true, () => undefined),
      request: (_m, _p, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new Error('timed out'))),
        ),
    };
    const slow = clientFiles(
      () => [silent],
      () => 's1',
      () => undefined,
      50,
    );
    expect(await slow.read('/w/x.ts')).toBeUndefined();
  });
});
