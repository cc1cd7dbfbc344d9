/**
 * The `write_file` tool: replaces a file's whole content.
 *
 * Creates missing parent folders; writes atomically (temp file + fsync + rename, so a crash
 * leaves the old or the new content, never a mix); keeps the permission bits of an existing file;
 * writes through a symlink to its target instead of replacing the link. Refuses directories,
 * Hermes's own `config.yaml` / `.env` (see `paths.ts`), and content in read_file's numbered
 * display form (`     1|text` on every line): the model copied the display, not the file.
 */
import { realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';
import { toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import { readText, viaNote, writeText } from './editor-files.js';
import { displayPath, protectedWriteReason, resolveToolPath } from './paths.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';
import { confirmEdit } from './edit-confirm.js';

/** The file's text as it is now ('' for a new or unreadable file), for the approval's diff. */
async function currentText(ctx: ToolContext, file: string): Promise<string> {
  try {
    return (await readText(ctx, file)).text; // the editor's buffer when one serves the file
  } catch {
    return '';
  }
}

/**
 * Writes `content` to `file` atomically, creating folders, keeping an existing file's mode and
 * following a symlink to its target.
 * @returns the number of bytes written (UTF-8).
 */
export function writeTextFile(file: string, content: string): number {
  let target = file;
  let mode = 0o644;
  try {
    target = realpathSync(file);
    mode = statSync(target).mode & 0o7777;
  } catch {
    /* a new file */
  }
  const data = Buffer.from(content, 'utf8');
  writeFileAtomic(target, data, mode);
  return data.length;
}

/**
 * True when every non-blank line of `content` carries read_file's line-number prefix (spaces, a
 * number, `|`) and the numbers count up by one: the display form of a file, not a file. Data with
 * a leading number and a pipe (`1|alice`) has no leading spaces and is not matched.
 */
export function looksLineNumbered(content: string): boolean {
  const lines = content.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return false;
  let prev: number | undefined;
  for (const line of lines) {
    const m = /^ +(\d+)\|/.exec(line);
    if (!m) return false;
    const n = Number(m[1]);
    if (prev !== undefined && n !== prev + 1) return false;
    prev = n;
  }
  return true;
}

const parameters = (z: Zod) =>
  z.object({
    path: nonEmpty(z).describe('Path of the file (absolute, ~/…, or relative to the working directory).'),
    content: z.string().describe('The complete new content of the file.'),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const { path: raw, content } = args;
  const file = resolveToolPath(ctx.cwd, raw);
  const shown = displayPath(ctx.cwd, file);
  const refused = protectedWriteReason(ctx, file);
  if (refused) return toolError('write_file', refused);
  if (looksLineNumbered(content))
    return toolError(
      'write_file',
      `content has read_file's line-number prefixes ("     1|…") on every line; nothing was written to ${shown}. ` +
        'Send the file text itself, without the numbers and the "|".',
    );
  try {
    if (statSync(file).isDirectory()) return toolError('write_file', `${shown} is a directory`);
  } catch {
    /* does not exist yet */
  }
  if (ctx.checkEdit) {
    const refusedEdit = await confirmEdit(ctx, 'write_file', shown, await currentText(ctx, file), content);
    if (refusedEdit) return refusedEdit;
  }
  await ctx.beforeFileChange?.(file);
  const { bytes, via } = await writeText(ctx, file, content, writeTextFile);
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return {
    ok: true,
    content: `Wrote ${bytes} bytes (${lines} lines) to ${shown}${viaNote(via)}`,
    summary: `${shown}: ${bytes} bytes`,
  };
}

/** The `write_file` tool definition. Parameters follow the original: path, content. */
export const writeFileTool: ToolDefinition = defineTool({
  name: 'write_file',
  description:
    'Write a file, replacing its whole content (parent folders are created). Use it for new files or full ' +
    'rewrites; for small changes to an existing file use patch. Use this instead of echo/cat redirection in ' +
    'the terminal.',
  parameters,
  readOnly: false,
  toolsets: ['file'],
  inScripts: true,
  verb: ['Wrote', 'Writing'],
  summarize: (args) => String(args.path ?? ''),
  run,
});
