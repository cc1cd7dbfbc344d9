/**
 * The `read_file` tool: a window of a text file with numbered lines (the original's
 * tools/file_tools.py).
 *
 * - Lines are numbered from 1 and shown as `     7|text` (number right-aligned in 6 columns, a
 *   `|`, the line), like the original, so `patch` can quote them back.
 * - `offset` is the first line (1-based, default 1); `limit` the number of lines (default 500,
 *   at most 2,000). A footer says which lines were shown and the offset to read on from.
 * - Lines over 2,000 chars are cut with a marker; the whole answer stops at 100,000 chars (the
 *   footer then gives the next offset).
 * - Files over 50 MB, binary files (known binary extension, or a NUL byte in the first 8 KB),
 *   directories and endless devices (`/dev/zero`, `/dev/stdin` …) are refused with a message.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import { readText, viaNote } from './editor-files.js';
import { displayPath, protectedReadReason, resolveToolPath } from './paths.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Default and largest `limit`, lines. */
export const READ_DEFAULT_LIMIT = 500;
export const READ_MAX_LIMIT = 2_000;
/** Files larger than this are refused, bytes. */
export const READ_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Longest line shown in full, chars. */
export const READ_MAX_LINE_CHARS = 2_000;
/** Cap on one answer, chars. */
export const READ_MAX_OUTPUT_CHARS = 100_000;

const BLOCKED_DEVICES = new Set([
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/full',
  '/dev/stdin',
  '/dev/tty',
  '/dev/console',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/0',
  '/dev/fd/1',
  '/dev/fd/2',
]);

/** Extensions of files that are never text. */
export const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff tif psd heic avif mp3 mp4 m4a wav flac ogg opus mov avi mkv webm ' +
    'zip gz tgz bz2 xz zst 7z rar tar jar war whl pdf doc docx xls xlsx ppt pptx odt ods exe dll so dylib ' +
    'a o obj lib bin dat class pyc pyo wasm node sqlite sqlite3 db woff woff2 ttf otf eot iso img dmg'
  ).split(' '),
);

/**
 * True when the file looks binary: a known binary extension, or a NUL byte in its first 8 KB.
 * @throws Error from the file system when the file cannot be opened.
 */
export function looksBinary(file: string): boolean {
  if (BINARY_EXTENSIONS.has(extname(file).slice(1).toLowerCase())) return true;
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).includes(0);
  } finally {
    closeSync(fd);
  }
}

/** Formats one numbered line: number right-aligned in 6 columns, `|`, the text. */
export function numberedLine(n: number, text: string): string {
  const cut =
    text.length > READ_MAX_LINE_CHARS
      ? `${text.slice(0, READ_MAX_LINE_CHARS)}… [line truncated: ${text.length.toLocaleString('en-US')} chars]`
      : text;
  return `${String(n).padStart(6)}|${cut}`;
}

const parameters = (z: Zod) =>
  z.object({
    path: nonEmpty(z).describe('Path of the file (absolute, ~/…, or relative to the working directory).'),
    offset: z.int().min(1).describe('First line to read, 1-based (default 1).').optional(),
    limit: z
      .int()
      .min(1)
      // a larger limit is capped, not refused: the bound is stated, not enforced
      .meta({ maximum: READ_MAX_LIMIT })
      .describe(`Number of lines to read (default ${READ_DEFAULT_LIMIT}, max ${READ_MAX_LIMIT}).`)
      .optional(),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const { path: raw, offset = 1, limit = READ_DEFAULT_LIMIT } = args;
  const file = resolveToolPath(ctx.cwd, raw);
  const shown = displayPath(ctx.cwd, file);
  if (BLOCKED_DEVICES.has(file))
    return toolError('read_file', `${file} is a device that never ends; not read`);
  const refused = protectedReadReason(ctx, file);
  if (refused) return toolError('read_file', refused);

  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) {
      return toolError(
        'read_file',
        `${shown} is a directory; use search_files with target "files" to list it`,
      );
    }
    if (!st.isFile()) return toolError('read_file', `${shown} is not a regular file`);
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return toolError(
      'read_file',
      code === 'ENOENT' ? `${shown} does not exist` : `${shown}: ${(err as Error).message}`,
    );
  }
  if (size > READ_MAX_FILE_BYTES) {
    return toolError(
      'read_file',
      `${shown} is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${READ_MAX_FILE_BYTES / 1024 / 1024} MB limit; ` +
        'use search_files or terminal (head, sed -n) to look inside it',
    );
  }
  if (looksBinary(file)) {
    return toolError(
      'read_file',
      `${shown} looks like a binary file (${size} bytes); not read. Only text files can be read`,
    );
  }

  const { text, via } = await readText(ctx, file);
  if (text.length === 0) return { ok: true, content: `(${shown} is empty)`, summary: 'empty file' };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  if (offset > total) {
    return toolError('read_file', `offset ${offset} is past the end of ${shown}, which has ${total} lines`);
  }

  const wanted = Math.min(limit, READ_MAX_LIMIT);
  const end = Math.min(total, offset - 1 + wanted);
  const out: string[] = [];
  let chars = 0;
  let last = offset - 1;
  for (let i = offset - 1; i < end; i++) {
    const line = numberedLine(i + 1, lines[i]!.replace(/\r$/, ''));
    if (chars + line.length + 1 > READ_MAX_OUTPUT_CHARS && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
    last = i + 1;
  }
  let footer = '';
  if (last < total) {
    const why = last < end ? ` (stopped at ${READ_MAX_OUTPUT_CHARS.toLocaleString('en-US')} chars)` : '';
    footer = `\n[lines ${offset}-${last} of ${total}${why}; read on with offset=${last + 1}]`;
  } else if (offset > 1) {
    footer = `\n[lines ${offset}-${last} of ${total}; end of file]`;
  }
  if (limit > READ_MAX_LIMIT) footer += `\n[limit capped at ${READ_MAX_LIMIT} lines]`;
  // the editor's buffer may differ from the disk (unsaved edits): say which was read
  if (via === 'editor') footer += `\n[read from the editor's buffer of ${shown}]`;
  return {
    ok: true,
    content: out.join('\n') + footer,
    summary: `${shown}: lines ${offset}-${last} of ${total}${viaNote(via)}`,
  };
}

/** The `read_file` tool definition. Parameters follow the original: path, offset, limit. */
export const readFileTool: ToolDefinition = defineTool({
  name: 'read_file',
  description:
    'Read a text file with numbered lines ("LINE|text"). Use this instead of cat/head/tail in the terminal. ' +
    `Reads ${READ_DEFAULT_LIMIT} lines from offset by default (at most ${READ_MAX_LIMIT}); for large files, ` +
    'page with offset and limit. Binary files are refused.',
  parameters,
  readOnly: true,
  toolsets: ['file'],
  inScripts: true,
  verb: ['Read', 'Reading'],
  summarize: (args) => String(args.path ?? ''),
  run,
});
