/**
 * The `patch` tool: find-and-replace in one file (the original's `patch` in
 * replace mode, tools/file_tools.py + tools/fuzzy_match.py).
 *
 * - `old_string` must match exactly once, unless `replace_all` is true (then every occurrence
 *   is replaced). Zero or several matches is an error saying how many and how to fix the call;
 *   the file is not touched.
 * - When the exact text is not found, whitespace-tolerant and then Unicode-normalised matching
 *   is tried (see `fuzzy-match.ts`); the same uniqueness rule applies, the result names the
 *   strategy used, and the replacement is re-indented to the file's indentation (line
 *   strategies) or keeps the file's typographic characters where it does not change the text
 *   (Unicode-normalised).
 * - Refused before anything is written: a whitespace-only `old_string` (no anchor), and after a
 *   non-exact match a `new_string` indented deeper than any line of `old_string` without a line
 *   opening a block (an indentation typo); the messages say what to send instead. No match names
 *   the file's closest lines, or escape drift (`\'` in old_string, never in the file). The rules
 *   are in `fuzzy-replace.ts`.
 * - A file with CRLF line ends gets CRLF in the inserted text too.
 * - The write is atomic and keeps the file's mode; the result shows a unified-diff-style snippet,
 *   except for a secret-bearing environment file (`.env`, `.env.local` …), which may be edited
 *   but whose lines never go back to the model (no diff, no closest-lines hint), as read_file
 *   refuses to read it.
 */
import { statSync } from 'node:fs';
import { capHeadTail } from '../util/head-tail.js';
import { toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import { readText, viaNote, writeText } from './editor-files.js';
import { diffSnippet } from './fuzzy-match.js';
import { blankAnchorError } from './fuzzy-normalize.js';
import { fuzzyReplace } from './fuzzy-replace.js';
import { displayPath, protectedWriteReason, resolveToolPath } from './paths.js';
import { secretEnvReadReason } from './sensitive-paths.js';
import { looksBinary } from './read-file.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';
import { writeTextFile } from './write-file.js';
import { confirmEdit } from './edit-confirm.js';

/** Files larger than this are refused, bytes. */
export const PATCH_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Cap on the diff shown in the result, chars. */
export const PATCH_MAX_DIFF_CHARS = 6_000;

const parameters = (z: Zod) =>
  z.object({
    path: nonEmpty(z).describe(
      'Path of the file to edit (absolute, ~/…, or relative to the working directory).',
    ),
    old_string: z
      .string()
      .refine((s) => s !== '', { message: 'must not be empty' })
      .describe('The text to find, copied from the file (without read_file line numbers).'),
    new_string: z.string().describe('The replacement text ("" deletes old_string).'),
    replace_all: z
      .boolean()
      .default(false)
      .describe('Replace every occurrence instead of requiring a unique match (default false).'),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const { path: raw, old_string: oldString, new_string: newString, replace_all: replaceAll } = args;
  if (oldString === newString)
    return toolError('patch', 'old_string and new_string are identical; nothing to change');
  const blank = blankAnchorError(oldString);
  if (blank) return toolError('patch', blank); // before touching the disk

  const file = resolveToolPath(ctx.cwd, raw);
  const shown = displayPath(ctx.cwd, file);
  const refused = protectedWriteReason(ctx, file);
  if (refused) return toolError('patch', refused);
  try {
    const st = statSync(file);
    if (!st.isFile()) return toolError('patch', `${shown} is not a regular file`);
    if (st.size > PATCH_MAX_FILE_BYTES) {
      return toolError(
        'patch',
        `${shown} is over ${PATCH_MAX_FILE_BYTES / 1024 / 1024} MB; edit it another way`,
      );
    }
  } catch {
    return toolError('patch', `${shown} does not exist (use write_file to create a file)`);
  }
  if (looksBinary(file)) return toolError('patch', `${shown} looks like a binary file; not edited`);

  const { text: before } = await readText(ctx, file);
  // a secret-bearing .env may be edited, but its lines never go back to the model (read_file refuses it)
  const secret = secretEnvReadReason(file) !== undefined;
  const result = fuzzyReplace(before, oldString, newString, { replaceAll, where: shown, hint: !secret });
  if (!result.ok) return toolError('patch', result.error);
  const { strategy, spans, replacement, text: after } = result;
  const refusedEdit = await confirmEdit(ctx, 'patch', shown, before, after);
  if (refusedEdit) return refusedEdit;
  await ctx.beforeFileChange?.(file);
  const { via } = await writeText(ctx, file, after, writeTextFile);

  const how =
    strategy === 'exact'
      ? ''
      : strategy === 'unicode-normalized'
        ? ' (old_string matched with unicode-normalized matching; the typographic characters of the file were kept)'
        : strategy === 'escape-normalized'
          ? ' (old_string matched after reading its \\t, \\r and \\n as tab, carriage return and newline)'
          : ` (old_string matched with ${strategy} whitespace-tolerant matching)`;
  const count = `${spans.length} occurrence${spans.length === 1 ? '' : 's'}`;
  if (secret) {
    return {
      ok: true,
      content: `Patched ${shown}${viaNote(via)}: replaced ${count}${how}. (No diff: ${shown} is a secret-bearing environment file.)`,
      summary: `${shown}: ${count} replaced`,
    };
  }
  const diff = capHeadTail(
    diffSnippet(before, spans, replacement).replace(/\r/g, ''),
    PATCH_MAX_DIFF_CHARS,
  ).text;
  return {
    ok: true,
    content: `Patched ${shown}${viaNote(via)}: replaced ${count}${how}.\n--- a/${shown}\n+++ b/${shown}\n${diff}`,
    summary: `${shown}: ${count} replaced`,
  };
}

/** The `patch` tool definition. Parameters follow the original: path, old_string, new_string, replace_all. */
export const patchTool: ToolDefinition = defineTool({
  name: 'patch',
  description:
    'Edit a file by replacing old_string with new_string. old_string must match exactly once (include enough ' +
    'surrounding lines to make it unique) unless replace_all is true. If the exact text is not found, ' +
    'whitespace/indentation-tolerant matching is tried. Returns a diff of the change. Use this instead of ' +
    'sed or awk in the terminal; use write_file to create files or rewrite them completely.',
  parameters,
  readOnly: false,
  toolsets: ['file'],
  inScripts: true,
  verb: ['Edited', 'Editing'],
  summarize: (args) => String(args.path ?? ''),
  run,
});
