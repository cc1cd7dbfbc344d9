/**
 * How attached references travel inside a user message, zod-free so the TUI can read it.
 *
 * The daemon adds the resolved content after the typed text as one block:
 *
 * ```
 * <typed text>
 *
 * <attached-context>
 * <one line saying the content is data, not instructions>
 * refs: [{"kind":"file","ref":"src/app.ts","bytes":4210}]
 * <attached … id="NONCE"> … </attached id="NONCE">
 * </attached-context>
 * ```
 *
 * The stored user message holds the whole text (so the model sees the same content on later
 * turns, after a restart, a compression or a fork); clients show the typed text and one chip per
 * entry of the `refs:` line (`splitAttachedText`). The block starts at the first
 * `ATTACHED_CONTEXT_OPEN`: text inside an attachment cannot move it.
 */

/** Opens the attached block (after the typed text). */
export const ATTACHED_CONTEXT_OPEN = '\n\n<attached-context>\n';
/** Closes the attached block. */
export const ATTACHED_CONTEXT_CLOSE = '\n</attached-context>';
/** Prefix of the manifest line (JSON array of `AttachmentChip`). */
export const ATTACHED_REFS_PREFIX = 'refs: ';

/** Kinds of references a prompt can carry (the `kind` of `prompt.submit` attachments). */
export type AttachmentKind = 'file' | 'folder' | 'diff' | 'staged' | 'url';

/** What a client shows for one attached reference. */
export interface AttachmentChip {
  kind: AttachmentKind;
  /** As the user wrote it: `src/app.ts`, `src/`, `diff`, `staged`, a URL. */
  ref: string;
  /** Bytes of content attached (after truncation). */
  bytes?: number;
  /** The content was cut at the size cap. */
  truncated?: boolean;
  /** Folder listings: entries listed. */
  entries?: number;
  /** A warning (e.g. the content scanner's finding), shown with the chip. */
  warning?: string;
}

const KINDS = new Set<string>(['file', 'folder', 'diff', 'staged', 'url']);

function isChip(v: unknown): v is AttachmentChip {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return typeof c.kind === 'string' && KINDS.has(c.kind) && typeof c.ref === 'string';
}

/**
 * Splits a user message into the typed text and its attached references' chips. A message
 * without a well-formed block comes back whole with no chips.
 */
export function splitAttachedText(message: string): { text: string; chips: AttachmentChip[] } {
  const at = message.indexOf(ATTACHED_CONTEXT_OPEN);
  if (at < 0) return { text: message, chips: [] };
  const body = message.slice(at + ATTACHED_CONTEXT_OPEN.length);
  const lines = body.split('\n', 3);
  const refsLine = lines[1];
  if (!refsLine?.startsWith(ATTACHED_REFS_PREFIX)) return { text: message, chips: [] };
  try {
    const refs: unknown = JSON.parse(refsLine.slice(ATTACHED_REFS_PREFIX.length));
    if (!Array.isArray(refs) || !refs.every(isChip)) return { text: message, chips: [] };
    return { text: message.slice(0, at), chips: refs };
  } catch {
    return { text: message, chips: [] };
  }
}

/** `4.2 KB`, `812 B`, `1.3 MB` (1 KB = 1000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

const ICONS: Record<AttachmentKind, string> = {
  file: '📄',
  folder: '📁',
  diff: '±',
  staged: '±',
  url: '🌐',
};

/** One chip as text: `📄 src/app.ts (4.2 KB)`, `📁 src/ (12 entries)`, `± diff (truncated at 100.0 KB)`. */
export function chipLabel(chip: AttachmentChip): string {
  const facts: string[] = [];
  if (chip.entries !== undefined) facts.push(`${chip.entries} entries`);
  if (chip.bytes !== undefined)
    facts.push(chip.truncated ? `truncated at ${formatBytes(chip.bytes)}` : formatBytes(chip.bytes));
  else if (chip.truncated) facts.push('truncated');
  if (chip.warning) facts.push(`⚠ ${chip.warning}`);
  return `${ICONS[chip.kind]} ${chip.ref}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}
