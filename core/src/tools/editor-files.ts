/**
 * How the file tools read and write text when an editor is attached to the session
 * (`ToolContext.editorFiles`, ACP `fs/*`): a file that exists is read from the editor (its
 * unsaved buffer) and written into it, so the agent sees what the user sees and the user's open
 * buffer is not left behind the disk. No editor, or one that cannot serve the file: the disk. A
 * new file is always created on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ToolContext } from './types.js';

/** Where a text came from or went to. */
export type TextVia = 'editor' | 'disk';

/** The text of `file` (absolute; it exists): the editor's buffer when it serves it, else the disk. */
export async function readText(ctx: ToolContext, file: string): Promise<{ text: string; via: TextVia }> {
  const fromEditor = ctx.editorFiles ? await ctx.editorFiles.read(file) : undefined;
  if (fromEditor !== undefined) return { text: fromEditor, via: 'editor' };
  return { text: readFileSync(file, 'utf8'), via: 'disk' };
}

/**
 * Writes `content` to `file` (absolute): into the editor when the file exists and the editor takes
 * it, else with `toDisk` (write-file.ts `writeTextFile`).
 * @returns bytes written (UTF-8) and where.
 */
export async function writeText(
  ctx: ToolContext,
  file: string,
  content: string,
  toDisk: (file: string, content: string) => number,
): Promise<{ bytes: number; via: TextVia }> {
  if (ctx.editorFiles && existsSync(file) && (await ctx.editorFiles.write(file, content)))
    return { bytes: Buffer.byteLength(content, 'utf8'), via: 'editor' };
  return { bytes: toDisk(file, content), via: 'disk' };
}

/** The suffix a tool's result carries when the editor served the file (' (in the editor)'). */
export function viaNote(via: TextVia): string {
  return via === 'editor' ? ' (in the editor)' : '';
}
