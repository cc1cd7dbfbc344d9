import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { colorDiff, editDiff, looksLikeDiff } from './diff.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

describe('diffs', () => {
  it('builds a diff from patch arguments', () => {
    expect(editDiff('patch', { path: 'a.ts', old_string: 'x = 1', new_string: 'x = 2\ny = 3' })).toBe(
      '--- a/a.ts\n+++ b/a.ts\n-x = 1\n+x = 2\n+y = 3',
    );
  });

  it('shows written content as additions, capped', () => {
    const content = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const d = editDiff('write_file', { path: 'n.txt', content }, 5)!;
    expect(d.split('\n')).toEqual([
      '+++ n.txt',
      '+line 0',
      '+line 1',
      '+line 2',
      '+line 3',
      '… +46 more lines',
    ]);
  });

  it('is null for tools that do not edit files', () => {
    expect(editDiff('terminal', { command: 'ls' })).toBeNull();
  });

  it('colours additions, deletions and hunks', () => {
    chalk.level = 1;
    const text = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same';
    expect(looksLikeDiff(text)).toBe(true);
    expect(colorDiff(text).split('\n')).toEqual([
      '\u001b[1m--- a/x\u001b[22m',
      '\u001b[1m+++ b/x\u001b[22m',
      '\u001b[36m@@ -1 +1 @@\u001b[39m',
      '\u001b[31m-old\u001b[39m',
      '\u001b[32m+new\u001b[39m',
      ' same',
    ]);
  });
});
