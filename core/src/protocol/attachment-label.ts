/**
 * How an attachment reads on a chip (TUI composer and transcript, `hermes sessions show`):
 * `[image shot.png · 12.3 KB]`. Zod-free (offered by `@hermes/core/constants`).
 */

/** Bytes as people read them: `69 B`, `12.3 KB`, `4.0 MB` (1 KB = 1024 B). */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The chip text of one attachment (`kind`, `name`, and its size when known). */
export function attachmentLabel(a: { kind: string; name: string; bytes?: number }): string {
  return `[${a.kind} ${a.name}${a.bytes !== undefined ? ` · ${sizeText(a.bytes)}` : ''}]`;
}
