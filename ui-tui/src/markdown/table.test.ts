import chalk from 'chalk';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown, renderMarkdown } from './render.js';
import { columnWidths, formatTable } from './table.js';

const level = chalk.level;
beforeAll(async () => {
  await loadMarkdown();
  chalk.level = 0;
});
afterAll(() => {
  chalk.level = level;
});

const WIDE_TABLE = [
  '| name | description | notes |',
  '|---|---|---|',
  `| alpha | ${'a long description of the thing '.repeat(3).trim()} | short |`,
  '| beta | brief | a note that is longer than it needs to be |',
].join('\n');

describe('columnWidths', () => {
  it('gives each column what its longest line needs when the table fits', () => {
    expect(
      columnWidths(
        [
          ['a', 'bb'],
          ['ccc', 'd'],
        ],
        20,
      ),
    ).toEqual([3, 2]);
  });

  it('keeps whole words and shares the room left by what each column still needs', () => {
    const ws = columnWidths(
      [
        ['name', 'x '.repeat(30).trim()],
        ['alpha', 'y'],
      ],
      30,
    )!;
    expect(ws.reduce((a, b) => a + b, 0)).toBe(30);
    expect(ws[0]).toBe(5);
  });

  it('is null when even the least widths do not fit', () => {
    expect(columnWidths([['alpha', 'beta', 'gamma', 'delta']], 12)).toBeNull();
  });
});

describe('a table wider than the pane', () => {
  it('fits the pane: every line within the width, borders whole, cell text wrapped in its column', () => {
    const lines = renderMarkdown(WIDE_TABLE, 50).split('\n');
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(50);
    const width = stringWidth(lines[0]!);
    expect(lines[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    expect(lines.at(-1)).toMatch(/^└─+┴─+┴─+┘$/);
    for (const l of lines) expect(stringWidth(l)).toBe(width);
    for (const l of lines.slice(1, -1)) expect(l).toMatch(/^[│├].*[│┤]$/);
    const words = lines.join(' ').replace(/[│├┼┤─]/g, ' ');
    expect(words.split(/\s+/).filter((w) => w === 'description').length).toBe(4);
  });

  it('is drawn as `header: value` lines when its columns cannot fit', () => {
    const md =
      '| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| alpha beta | gamma | delta | epsilon | zeta | eta |';
    expect(renderMarkdown(md, 24)).toBe(
      ['a: alpha beta', 'b: gamma', 'c: delta', 'd: epsilon', 'e: zeta', 'f: eta'].join('\n'),
    );
  });

  it('keeps its alignment and a narrow table as it was', () => {
    expect(
      formatTable(
        {
          header: ['n', 'v'],
          rows: [
            ['a', '1'],
            ['bb', '22'],
          ],
          align: [null, 'right'],
        },
        40,
      ),
    ).toBe(
      [
        '┌────┬────┐',
        '│ n  │  v │',
        '├────┼────┤',
        '│ a  │  1 │',
        '├────┼────┤',
        '│ bb │ 22 │',
        '└────┴────┘',
      ].join('\n'),
    );
  });
});
