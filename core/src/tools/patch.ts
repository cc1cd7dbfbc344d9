/**
 * The `patch` tool: find-and-replace in one file (the original's `patch` in
 * replace mode, tools/file_tools.py + tools/fuzzy_match.py).
 *
 * - `old_string` must match exactly once, unless `replace_all` is true (then every occurrence
 *   is replaced). Zero or several matches is an error saying how many and how to fix the call;
 *   the file is not touched.
 * - When the exact text is not found, whitespace-tolerant matching is tried (see
 *   `fuzzy-match.ts`); the same uniqueness rule applies, the result names the strategy used, and
 *   the replacement is re-indented to the file's indentation.
 * - A file with CRLF line ends gets CRLF in the inserted text too.
 * - The write is atomic and keeps the file's mode; the result shows a unified-diff-style snippet.
 */
import { readFileSync, statSync } from 'node:fs';
import { capHeadTail } from '../util/head-tail.js';
import { toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import { adaptReplacement, applySpans, diffSnippet, findMatches, type MatchSpan } from './fuzzy-match.js';
import { displayPath, protectedWriteReason, resolveToolPath } from './paths.js';
import { looksBinary } from './read-file.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';
import { writeTextFile } from './write-file.js';

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

  const before = readFileSync(file, 'utf8');
  const { strategy, spans } = findMatches(before, oldString);
  if (strategy === null) {
    return toolError(
      'patch',
      `old_string was not found in ${shown} (also tried whitespace-insensitive matching). Nothing was changed. ` +
        'Read the file again with read_file and copy the exact text, including indentation.',
    );
  }
  if (spans.length > 1 && !replaceAll) {
    return toolError(
      'patch',
      `old_string matches ${spans.length} times in ${shown}${strategy === 'exact' ? '' : ` (${strategy} matching)`}; ` +
        'it must match exactly once. Include more surrounding lines in old_string to make it unique, or set ' +
        'replace_all to true to change every occurrence. Nothing was changed.',
    );
  }

  const crlf = before.includes('\r\n');
  const toFile = (s: string): string => (crlf ? s.replace(/\r?\n/g, '\r\n') : s);
  const replacement = (s: MatchSpan): string =>
    strategy === 'exact'
      ? toFile(newString)
      : toFile(adaptReplacement(newString.replace(/\r\n/g, '\n'), oldString, before.slice(s.start, s.end)));
  const after = applySpans(before, spans, replacement);
  await ctx.beforeFileChange?.(file);
  writeTextFile(file, after);

  const how =
    strategy === 'exact' ? '' : ` (old_string matched with ${strategy} whitespace-tolerant matching)`;
  const count = `${spans.length} occurrence${spans.length === 1 ? '' : 's'}`;
  const diff = capHeadTail(
    diffSnippet(before, spans, replacement).replace(/\r/g, ''),
    PATCH_MAX_DIFF_CHARS,
  ).text;
  return {
    ok: true,
    content: `Patched ${shown}: replaced ${count}${how}.\n--- a/${shown}\n+++ b/${shown}\n${diff}`,
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
