/**
 * `@` references in the composer's text, without React: the token being typed (for completion),
 * the references a message carries (for `prompt.submit` `attachments`) and accepting a completion.
 *
 * A reference is `@` at the start of the text or after white space, up to the next white space
 * (trailing `, ; : ! ? ) .` left out). `@diff` and `@staged` are git diffs; `@https://…`,
 * `@http://…` and `@url:…` are pages; a token ending in `/` is a folder; any other token is a
 * file when it looks like a path (holds `/`, `.` or `~`) or was accepted from the completion
 * popup — so `@bob` in prose stays text.
 */
import type { PromptAttachment } from '@hermes/core/protocol';

/** The `@` token around the cursor. */
export interface AtToken {
  /** Index of the `@`. */
  start: number;
  /** Index after the token's last character. */
  end: number;
  /** What follows the `@` up to the cursor. */
  query: string;
}

const TRAILING = /[,;:!?).]+$/;

/** The `@` token the cursor is in or just after, or null (never inside a slash command). */
export function activeAtToken(text: string, cursor: number): AtToken | null {
  if (text.startsWith('/')) return null;
  let start = cursor;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  if (text[start] !== '@') return null;
  let end = cursor;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const query = text.slice(start + 1, cursor);
  if (/^(https?:|url:)/i.test(query)) return null;
  return { start, end, query };
}

/** Keyword references offered by completion and recognised in text. */
export const KEYWORD_REFS = [
  { ref: 'diff', description: 'git diff of the working tree' },
  { ref: 'staged', description: 'git diff --cached (staged changes)' },
] as const;

/** The reference a token names, or null when it is plain text. */
export function referenceOf(
  token: string,
  accepted: ReadonlySet<string> = new Set(),
): PromptAttachment | null {
  const t = token.replace(TRAILING, '');
  if (t === '') return null;
  if (t === 'diff' || t === 'staged') return { kind: t };
  if (/^https?:\/\//i.test(t)) return { kind: 'url', url: t };
  if (/^url:/i.test(t)) return t.length > 4 ? { kind: 'url', url: t.slice(4) } : null;
  if (t.endsWith('/')) return { kind: 'folder', path: t };
  if (accepted.has(t) || /[./~]/.test(t)) return { kind: 'file', path: t };
  return null;
}

/** Every reference in `text`, in order, each once (a slash command carries none). */
export function referencesIn(text: string, accepted: ReadonlySet<string> = new Set()): PromptAttachment[] {
  if (text.startsWith('/')) return [];
  const out: PromptAttachment[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const ref = referenceOf(m[1]!, accepted);
    if (!ref) continue;
    const key = JSON.stringify(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref);
  }
  return out;
}

/**
 * The text after accepting `path` for `token`: `@path` replaces the token, followed by a space
 * (none after a folder, whose files may be completed next).
 * @returns the new text and cursor.
 */
export function acceptReference(
  text: string,
  token: AtToken,
  path: string,
): { text: string; cursor: number } {
  const folder = path.endsWith('/');
  const after = text.slice(token.end);
  const glue = folder || after.startsWith(' ') ? '' : ' ';
  const inserted = `@${path}${glue}`;
  const next = text.slice(0, token.start) + inserted + after;
  const cursor = token.start + inserted.length + (!folder && after.startsWith(' ') ? 1 : 0);
  return { text: next, cursor };
}
