/**
 * Diffs for the terminal: colouring unified diffs, and building a short diff from the arguments of
 * a file-editing tool call (`patch`: old_string → new_string; `write_file`: the new content).
 */
import chalk from 'chalk';

/** Most lines of a diff built from tool arguments. */
export const DIFF_MAX_LINES = 40;

/** True when a text looks like a unified diff. */
export function looksLikeDiff(text: string): boolean {
  return /^(--- |\+\+\+ |@@ )/m.test(text) && /^[+-]/m.test(text);
}

/** Colours a unified diff: additions green, deletions red, hunk headers cyan, file headers bold. */
export function colorDiff(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return chalk.bold(line);
      if (line.startsWith('@@')) return chalk.cyan(line);
      if (line.startsWith('+')) return chalk.green(line);
      if (line.startsWith('-')) return chalk.red(line);
      return line;
    })
    .join('\n');
}

function capLines(lines: string[], max: number): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `… +${lines.length - max} more lines`];
}

/**
 * A unified-style diff of what a file-editing tool call changes, or null when the call is not a
 * file edit. Built from the arguments alone (the TUI never reads files).
 */
export function editDiff(
  name: string,
  args: Record<string, unknown>,
  maxLines = DIFF_MAX_LINES,
): string | null {
  const path = typeof args.path === 'string' ? args.path : '';
  if (typeof args.diff === 'string' && looksLikeDiff(args.diff)) {
    return capLines(args.diff.split('\n'), maxLines).join('\n');
  }
  if (name === 'patch' && typeof args.old_string === 'string' && typeof args.new_string === 'string') {
    const lines = [
      `--- a/${path}`,
      `+++ b/${path}`,
      ...args.old_string.split('\n').map((l) => `-${l}`),
      ...args.new_string.split('\n').map((l) => `+${l}`),
    ];
    if (args.new_string === '') lines.pop();
    return capLines(lines, maxLines).join('\n');
  }
  if (name === 'write_file' && typeof args.content === 'string') {
    const body = args.content.replace(/\n$/, '').split('\n');
    return capLines([`+++ ${path}`, ...body.map((l) => `+${l}`)], maxLines).join('\n');
  }
  return null;
}
