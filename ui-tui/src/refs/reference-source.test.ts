import { describe, expect, it } from 'vitest';
import type { FileCompletion } from '@hermes/core/protocol';
import { ReferenceSource } from './reference-source.js';

interface Call {
  query: string;
  answer: (items: FileCompletion[], ready?: boolean) => void;
}

function source(retryMs = 1): { src: ReferenceSource; calls: Call[] } {
  const calls: Call[] = [];
  const src = new ReferenceSource({
    retryMs,
    request: (query) =>
      new Promise((resolve) =>
        calls.push({ query, answer: (items, ready = true) => resolve({ items, ready }) }),
      ),
  });
  return { src, calls };
}
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('ReferenceSource', () => {
  it('keeps one request in flight and sends only the newest query after it', async () => {
    const { src, calls } = source();
    let heard = 0;
    src.subscribe(() => heard++);
    src.query('a');
    src.query('ap');
    src.query('app');
    expect(calls.map((c) => c.query)).toEqual(['a']);
    calls[0]!.answer([{ path: 'a.ts', kind: 'file', bytes: 3 }]);
    await flush();
    expect(calls.map((c) => c.query)).toEqual(['a', 'app']);
    calls[1]!.answer([{ path: 'src/app.ts', kind: 'file', bytes: 4200 }]);
    await flush();
    expect(src.result).toEqual({
      query: 'app',
      items: [{ path: 'src/app.ts', kind: 'file', bytes: 4200 }],
      ready: true,
    });
    expect(src.sizeOf('src/app.ts')).toBe(4200);
    expect(heard).toBe(2);
  });

  it('asks again while the daemon is still listing', async () => {
    const { src, calls } = source(1);
    src.query('x');
    calls[0]!.answer([], false);
    const deadline = Date.now() + 2000;
    while (calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(calls[1]?.query).toBe('x');
    calls[1]!.answer([{ path: 'x.ts', kind: 'file' }], true);
    await flush();
    expect(src.result?.items).toHaveLength(1);
  });

  it('asks again when no session was open yet (a token typed during start-up)', async () => {
    let open = false;
    const asked: string[] = [];
    const src = new ReferenceSource({
      retryMs: 1,
      request: async (query) => {
        asked.push(query);
        return open ? { items: [{ path: 'a.ts', kind: 'file' as const }], ready: true } : null;
      },
    });
    src.query('a');
    await flush();
    expect(src.result).toBeNull();
    open = true;
    const deadline = Date.now() + 2000;
    while (!src.result && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(src.result?.items).toEqual([{ path: 'a.ts', kind: 'file' }]);
    expect(asked.length).toBeGreaterThan(1);
  });

  it('counts accepted names as files and hands unsent text back', () => {
    const { src } = source();
    src.accept('Makefile');
    expect(src.attachments('run @Makefile and @diff')).toEqual([
      { kind: 'file', path: 'Makefile' },
      { kind: 'diff' },
    ]);
    const got: string[] = [];
    src.onRestore((t) => got.push(t));
    src.restore('hello @x.ts');
    expect(got).toEqual(['hello @x.ts']);
  });
});
