/**
 * Block shapes of the terminal markdown that copy cleanly: headings without the literal `#`
 * (bold, the first level also underlined; without colour, setext underlines of `=` / `-`, which
 * are markdown again when copied), and fenced code between a label line and a rule line, the code
 * lines themselves only indented by spaces, so a selection of them copies as the code.
 */
import chalk from 'chalk';
import stringWidth from 'string-width';

/** Spaces before each code line. */
export const CODE_INDENT = '  ';

/**
 * One heading: `text` (already rendered inline, may carry styles) for a level `depth` (1–6).
 * Ends without a newline.
 */
export function formatHeading(text: string, depth: number): string {
  if (chalk.level === 0) {
    if (depth > 2) return text;
    const width = Math.max(3, stringWidth(text));
    return `${text}\n${(depth === 1 ? '=' : '-').repeat(width)}`;
  }
  return depth === 1 ? chalk.bold.underline(text) : chalk.bold(text);
}

/**
 * A fenced code block: `── lang ───` above, `────` below (muted), the code lines indented by
 * `CODE_INDENT`. The rules are as wide as the longest code line plus the indent (at least 12,
 * at most `width`). `code` may carry colours; ends without a newline.
 */
export function frameCode(code: string, lang: string, width: number): string {
  const lines = code.split('\n');
  const longest = Math.max(0, ...lines.map((l) => stringWidth(l)));
  const label = lang ? `── ${lang} ` : '';
  const ruleWidth = Math.max(12, Math.min(width, longest + CODE_INDENT.length), stringWidth(label) + 3);
  const top = label + '─'.repeat(Math.max(0, ruleWidth - stringWidth(label)));
  const bottom = '─'.repeat(ruleWidth);
  const body = lines.map((l) => (l ? CODE_INDENT + l : l)).join('\n');
  return `${chalk.gray(top)}\n${body}\n${chalk.gray(bottom)}`;
}
