import { describe, expect, it } from 'vitest';
import { fuzzyScore, rankPaths } from './fuzzy.js';

const order = (paths: string[], q: string): string[] => rankPaths(paths, q, 10).map((r) => r.path);

describe('fuzzy ranking of paths', () => {
  it('keeps only paths holding the query in order, ignoring case', () => {
    expect(order(['src/App.tsx', 'lib/pa.ts', 'README.md'], 'app')).toEqual(['src/App.tsx']);
    expect(fuzzyScore('xyz', 'src/app.ts')).toBe(-1);
  });

  it('puts an exact file name before a prefix, and a prefix before a scattered match', () => {
    const paths = ['src/mapping/happy.ts', 'src/apple-pie.ts', 'src/app.ts', 'docs/a/p/p.md'];
    expect(order(paths, 'app')).toEqual([
      'src/app.ts',
      'src/apple-pie.ts',
      'src/mapping/happy.ts',
      'docs/a/p/p.md',
    ]);
  });

  it('prefers a match in the file name over one across folders', () => {
    expect(order(['core/src/config/schema.ts', 'core/src/cron/scheduler.ts'], 'sch')[0]).toBe(
      'core/src/config/schema.ts',
    );
    expect(order(['tools/read/file.ts', 'src/tools/read-file.ts'], 'readfile')[0]).toBe(
      'src/tools/read-file.ts',
    );
  });

  it('prefers word starts (camelCase, -, _) over mid-word hits', () => {
    expect(order(['src/xcompletionPopup.tsx', 'src/CompletionPopup.tsx'], 'cp')[0]).toBe(
      'src/CompletionPopup.tsx',
    );
  });

  it('matches a query with a slash against the whole path', () => {
    expect(order(['ui/src/app.ts', 'core/src/app.ts', 'core/app.md'], 'core/src')).toEqual([
      'core/src/app.ts',
    ]);
  });

  it('breaks ties by shorter path, and an empty query lists shorter paths first', () => {
    expect(order(['a/b/c/index.ts', 'index.ts', 'a/index.ts'], 'index')).toEqual([
      'index.ts',
      'a/index.ts',
      'a/b/c/index.ts',
    ]);
    expect(rankPaths(['long/path/x.ts', 'y.ts'], '', 1)).toEqual([
      { path: 'y.ts', score: expect.any(Number) },
    ]);
  });

  it('returns at most limit results, the best ones, from a large list', () => {
    const paths = Array.from({ length: 5000 }, (_, i) => `pkg${i}/src/module${i}.ts`);
    paths.push('target/app.ts');
    const r = rankPaths(paths, 'app', 5);
    expect(r[0]!.path).toBe('target/app.ts');
    expect(r.length).toBeLessThanOrEqual(5);
  });
});
