/**
 * Tables for the terminal, fitted to the width: a table wider than the pane was wrapped by the
 * terminal, its borders broken. Columns get the width their longest line needs when the table
 * fits; else each gets at least its longest word (or the least width, `MIN_COLUMN`) and the room
 * left is shared by how much more each needs, cell text wrapped inside its column. When even the
 * least widths do not fit, each row is printed as `header: value` lines instead.
 */
import chalk from 'chalk';
import stringWidth from 'string-width';
import { wrapText } from './wrap.js';

/** A column's alignment, as marked gives it. */
export type Align = 'left' | 'right' | 'center' | null;

/** A table's cells, rendered inline already (they may carry styles). */
export interface TableCells {
  header: string[];
  rows: string[][];
  align: Align[];
}

/** The least width of a column whose text is wider, in columns. */
const MIN_COLUMN = 6;

/** The widest line of `text`, in columns. */
function lineWidth(text: string): number {
  return Math.max(0, ...text.split(/\r\n?|\n/).map((l) => stringWidth(l)));
}

/** The widest word of `text`, in columns. */
function wordWidth(text: string): number {
  return Math.max(0, ...text.split(/\s+/).map((w) => stringWidth(w)));
}

/**
 * The widths of the columns (text only, without padding and borders) for `room` columns of text
 * in all, or null when the columns do not fit even at their least widths.
 */
export function columnWidths(cells: string[][], room: number): number[] | null {
  const count = Math.max(0, ...cells.map((r) => r.length));
  const col = (c: number): string[] => cells.map((r) => r[c] ?? '');
  const natural = Array.from({ length: count }, (_, c) => Math.max(1, ...col(c).map(lineWidth)));
  const sum = (ws: number[]): number => ws.reduce((a, b) => a + b, 0);
  if (sum(natural) <= room) return natural;
  const least = natural.map((n) => Math.min(n, MIN_COLUMN));
  if (sum(least) > room) return null;
  // each column's longest word first (no word cut), when they all fit
  const words = natural.map((n, c) => Math.min(n, Math.max(least[c]!, ...col(c).map(wordWidth))));
  const base = sum(words) <= room ? words : least;
  const goal = sum(words) <= room ? natural : words;
  return share(base, goal, room);
}

/** `base` widths grown toward `goal` by shares of `room - sum(base)` (by what each still needs). */
function share(base: number[], goal: number[], room: number): number[] {
  const out = [...base];
  let left = room - base.reduce((a, b) => a + b, 0);
  const need = goal.map((g, c) => g - base[c]!);
  const total = need.reduce((a, b) => a + b, 0);
  if (total <= 0) return out;
  const spare = left;
  need.forEach((n, c) => {
    const add = Math.min(n, Math.floor((spare * n) / total));
    out[c]! += add;
    left -= add;
  });
  // what rounding left: one column at a time, the ones that need the most first
  const order = need.map((_, c) => c).sort((a, b) => goal[b]! - out[b]! - (goal[a]! - out[a]!));
  for (const c of order) {
    if (left <= 0) break;
    if (out[c]! < goal[c]!) {
      out[c]!++;
      left--;
    }
  }
  return out;
}

/** `text` padded to `width` columns by `align`. */
function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - stringWidth(text));
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') return ' '.repeat(gap >> 1) + text + ' '.repeat(gap - (gap >> 1));
  return text + ' '.repeat(gap);
}

/**
 * The table as box-drawn lines at most `width` columns wide (header bold and borders grey when
 * colours are on), or as `header: value` lines per row when its columns cannot fit. No trailing
 * newline.
 */
export function formatTable(table: TableCells, width: number): string {
  const color = chalk.level > 0;
  const border = (s: string): string => (color ? chalk.gray(s) : s);
  const head = (s: string): string => (color && s ? chalk.bold(s) : s);
  const count = Math.max(table.header.length, ...table.rows.map((r) => r.length));
  const all = [table.header, ...table.rows];
  const widths = count > 0 ? columnWidths(all, width - 3 * count - 1) : null;
  if (!widths) return asRecords(table, width);
  const rule = (l: string, m: string, r: string): string =>
    border(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r);
  const row = (cells: string[], style: (s: string) => string): string[] => {
    const wrapped = widths.map((w, c) => wrapText(cells[c] ?? '', w).split('\n'));
    const height = Math.max(1, ...wrapped.map((l) => l.length));
    return Array.from({ length: height }, (_, i) => {
      const line = widths.map((w, c) => ` ${style(pad(wrapped[c]![i] ?? '', w, table.align[c] ?? null))} `);
      return border('│') + line.join(border('│')) + border('│');
    });
  };
  const out = [rule('┌', '┬', '┐'), ...row(table.header, head)];
  for (const r of table.rows) out.push(rule('├', '┼', '┤'), ...row(r, (s) => s));
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}

/** Each row as `header: value` lines, the value's further lines indented; rows apart by a blank line. */
function asRecords(table: TableCells, width: number): string {
  const color = chalk.level > 0;
  return table.rows
    .map((r) =>
      r
        .map((cell, c) => {
          const name = table.header[c] ?? '';
          const label = name ? `${color ? chalk.bold(name) : name}: ` : '';
          const lines = wrapText(label + cell, width - 2).split('\n');
          return lines.map((l, i) => (i === 0 ? l : `  ${l}`)).join('\n');
        })
        .join('\n'),
    )
    .join('\n\n');
}
