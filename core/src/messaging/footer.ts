/**
 * The optional runtime footer: one line under a platform reply with the model,
 * how full the context is, and the working directory. A missing item is left out; the line never
 * shows `?` or `NaN`.
 */
import { homedir } from 'node:os';

/** What the footer may show; every field is optional. */
export interface FooterInfo {
  /** Model id, e.g. `gpt-4o`. */
  model?: string | null;
  /** Prompt tokens of the latest model call. */
  contextTokens?: number | null;
  /** The model's context window in tokens. */
  contextWindow?: number | null;
  /** Working directory of the session (the home directory is shown as `~`). */
  cwd?: string | null;
}

const SEPARATOR = ' · ';

function shortenHome(cwd: string, home: string): string {
  if (home && (cwd === home || cwd.startsWith(`${home}/`))) return `~${cwd.slice(home.length)}`;
  return cwd;
}

/**
 * Builds the footer line: `model · 42% ctx · ~/project`. Items without data are skipped: the
 * context share needs both a positive window and a finite, non-negative token count (rounded,
 * capped at 100%).
 * @returns the line, or `''` when nothing is known.
 */
export function buildFooterLine(info: FooterInfo, home = homedir()): string {
  const items: string[] = [];
  const model = info.model?.trim();
  if (model) items.push(model);
  const tokens = info.contextTokens;
  const window = info.contextWindow;
  if (
    typeof tokens === 'number' &&
    Number.isFinite(tokens) &&
    tokens >= 0 &&
    typeof window === 'number' &&
    Number.isFinite(window) &&
    window > 0
  ) {
    items.push(`${Math.min(100, Math.round((tokens / window) * 100))}% ctx`);
  }
  const cwd = info.cwd?.trim();
  if (cwd) items.push(shortenHome(cwd, home));
  return items.join(SEPARATOR);
}

/** Appends the footer to a reply (separated by a blank line); the reply unchanged when the footer is empty. */
export function withFooter(text: string, info: FooterInfo, home = homedir()): string {
  const line = buildFooterLine(info, home);
  return line ? `${text}\n\n— ${line}` : text;
}
