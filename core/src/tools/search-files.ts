/**
 * The `search_files` tool: regex over file contents, or glob over file names (the
 * original's `search_files`, tools/file_tools.py).
 *
 * - `target: "content"` (default): lines matching the regex `pattern`, as `path:line:text`.
 *   `target: "files"`: files whose name matches the glob `pattern` (`*.ts`; a pattern with a `/`
 *   matches the path below `path`; a plain word `foo` means `*foo*`), one path per line.
 * - `path` is the folder (or file) to search, default the working directory; `file_glob` keeps
 *   only files whose name matches it; `limit` caps the results (default 50, at most 1,000).
 * - Uses ripgrep (`rg`) when it is on `PATH` (respects `.gitignore`, skips hidden files and
 *   binaries), else a JavaScript engine with the same defaults (`search-js.ts`). Both skip
 *   `node_modules` and `.git` and return results in path order. `createSearchFilesTool({engine})`
 *   forces one engine (tests use it to cover both).
 * - Paths are shown relative to the working directory when inside it; long lines are cut at
 *   300 chars.
 * - Another profile's home is never searched or shown (`foreignProfileReason`): a `path` inside
 *   one is refused, and results inside one are dropped when a wider folder is searched.
 * - Contents of secret-bearing environment files (`.env`, `.env.local`, `.envrc` …) are never
 *   shown, as `read_file` never reads them: such a file as `path` is refused, and its lines are
 *   dropped from results (a `file_glob` like `.env*` reaches hidden files).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';
import { isInside } from '../util/paths.js';
import { toolError } from './args.js';
import { defineTool, type ToolArgs, type Zod } from './define.js';
import { displayPath, foreignProfileReason, mayHoldForeignProfiles, resolveToolPath } from './paths.js';
import { secretEnvReadReason } from './sensitive-paths.js';
import { listFilesJs, searchContentJs, type ContentHit } from './search-js.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Which engine to use: `auto` picks rg when installed. */
export type SearchEngine = 'auto' | 'rg' | 'js';

/** Default and largest `limit`. */
export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_MAX_LIMIT = 1_000;
/** Longest result line shown in full, chars. */
export const SEARCH_MAX_LINE_CHARS = 300;

let rgCache: boolean | undefined;

/** True when an executable `rg` is on `PATH` (checked once per process). */
export function hasRipgrep(env: NodeJS.ProcessEnv = process.env): boolean {
  if (rgCache !== undefined) return rgCache;
  rgCache = (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, 'rg'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return rgCache;
}

let picomatch: typeof picomatchType | undefined;

/** A name filter for `target: "files"` and `file_glob`: basename match unless the glob has a `/`. */
export function nameMatcher(glob: string): (relPath: string) => boolean {
  const g = /[*?[\]{}]/.test(glob) ? glob : `*${glob}*`;
  // required on first use, not at start-up (every agent loads this module with the tool set)
  picomatch ??= createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  return picomatch(g, { basename: !g.includes('/'), dot: true });
}

interface Query {
  root: string;
  pattern: string;
  target: 'content' | 'files';
  fileGlob: string | undefined;
  /** Results wanted; one more is collected to know whether more exist. */
  max: number;
}

function rgBaseArgs(q: Query): string[] {
  const args = [
    '--sort',
    'path',
    '--no-messages',
    '--no-require-git',
    '--glob',
    '!node_modules',
    '--glob',
    '!.git',
  ];
  if (q.fileGlob) args.push('--glob', q.fileGlob);
  return args;
}

async function runRg(
  args: string[],
  ctx: ToolContext,
  max: number,
): Promise<{ lines: string[]; error?: string }> {
  const { execa } = await import('execa'); // loaded on first use: start-up speed
  const child = execa('rg', args, {
    cwd: ctx.cwd,
    stdin: 'ignore',
    reject: false,
    buffer: { stdout: false, stderr: true },
    cancelSignal: ctx.signal,
  });
  const lines: string[] = [];
  for await (const line of child) {
    lines.push(line);
    if (lines.length >= max) break;
  }
  if (lines.length >= max) child.kill();
  const result = await child;
  // rg never started (not installed, not executable): an error, never "no matches"
  if (result.exitCode === undefined && !result.isTerminated && !result.isCanceled && lines.length === 0) {
    const code = (result.cause as NodeJS.ErrnoException | undefined)?.code;
    return {
      lines,
      error:
        code === 'ENOENT'
          ? 'ripgrep (rg) is not installed or not on PATH; install it (e.g. apt install ripgrep) or search without forcing rg'
          : `could not run ripgrep (rg): ${result.shortMessage}`,
    };
  }
  if (result.exitCode === 2 && lines.length === 0) {
    return { lines, error: String(result.stderr ?? '').trim() || 'ripgrep failed' };
  }
  return { lines };
}

async function contentRg(q: Query, ctx: ToolContext): Promise<ContentHit[] | string> {
  const args = [
    ...rgBaseArgs(q),
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--null',
    '--color',
    'never',
  ];
  args.push('--max-columns', '2000', '--max-columns-preview', '-e', q.pattern, '--', q.root);
  const { lines, error } = await runRg(args, ctx, q.max);
  if (error) return error;
  return lines.map((l) => {
    const nul = l.indexOf('\0');
    const rest = l.slice(nul + 1);
    const colon = rest.indexOf(':');
    return {
      file: resolve(ctx.cwd, l.slice(0, nul)),
      line: Number(rest.slice(0, colon)),
      text: rest.slice(colon + 1),
    };
  });
}

async function filesRg(q: Query, ctx: ToolContext): Promise<string[] | string> {
  // rg lists everything (respecting ignores); the name filter runs here, like the JS engine.
  const { lines, error } = await runRg(
    [...rgBaseArgs(q), '--files', '--', q.root],
    ctx,
    Number.MAX_SAFE_INTEGER,
  );
  if (error) return error;
  return lines.map((l) => resolve(ctx.cwd, l));
}

function filterNames(files: string[], q: Query): string[] {
  const isFile = statSync(q.root).isFile();
  const byName = nameMatcher(q.pattern);
  const byGlob = q.fileGlob ? nameMatcher(q.fileGlob) : () => true;
  return files
    .filter((f) => {
      const rel = isFile ? f.split('/').pop()! : relative(q.root, f);
      return byName(rel) && byGlob(rel);
    })
    .slice(0, q.max);
}

function cut(text: string): string {
  return text.length > SEARCH_MAX_LINE_CHARS ? `${text.slice(0, SEARCH_MAX_LINE_CHARS)}…` : text;
}

async function search(engine: 'rg' | 'js', q: Query, ctx: ToolContext): Promise<string[] | string> {
  if (q.target === 'files') {
    const all = engine === 'rg' ? await filesRg(q, ctx) : await listFilesJs(q.root);
    if (typeof all === 'string') return all;
    const own = mayHoldForeignProfiles(ctx, q.root) ? all.filter((f) => !foreignProfileReason(ctx, f)) : all;
    return filterNames(own, q).map((f) => displayPath(ctx.cwd, f));
  }
  let hits: ContentHit[] | string;
  if (engine === 'rg') {
    hits = await contentRg(q, ctx);
  } else {
    let files = await listFilesJs(q.root);
    if (q.fileGlob) {
      const byGlob = nameMatcher(q.fileGlob);
      files = files.filter((f) => byGlob(relative(q.root, f) || f.split('/').pop()!));
    }
    try {
      hits = await searchContentJs(files, q.pattern, q.max, ctx.signal);
    } catch (err) {
      return `invalid regex: ${(err as Error).message}`;
    }
  }
  if (typeof hits === 'string') return hits;
  const check = mayHoldForeignProfiles(ctx, q.root);
  return hits
    .filter((h) => !check || !foreignProfileReason(ctx, h.file))
    .filter((h) => !secretEnvReadReason(h.file)) // read_file would refuse them (a glob can reach hidden .env files)
    .map((h) => `${displayPath(ctx.cwd, h.file)}:${h.line}:${cut(h.text)}`);
}

const parameters = (z: Zod) =>
  z.object({
    pattern: z
      .string()
      .refine((s) => s !== '', { message: 'must not be empty' })
      .describe(
        'Regex to find in file contents (target "content"), or glob for file names (target "files").',
      ),
    target: z
      .enum(['content', 'files'])
      .default('content')
      .describe('What to search: "content" (default) or "files".'),
    path: z.string().describe('Folder or file to search (default: the working directory).').optional(),
    file_glob: z.string().describe('Only search files whose name matches this glob, e.g. "*.py".').optional(),
    limit: z
      .int()
      .min(1)
      // a larger limit is capped, not refused: the bound is stated, not enforced
      .meta({ maximum: SEARCH_MAX_LIMIT })
      .describe(`Maximum results (default ${SEARCH_DEFAULT_LIMIT}, max ${SEARCH_MAX_LIMIT}).`)
      .optional(),
  });

/**
 * Creates the `search_files` tool.
 * @param opts.engine `auto` (default: rg when installed), or force `rg` / `js`.
 */
export function createSearchFilesTool(opts: { engine?: SearchEngine } = {}): ToolDefinition {
  async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
    const { pattern, target, limit = SEARCH_DEFAULT_LIMIT } = args;
    const root = resolveToolPath(ctx.cwd, args.path || '.');
    try {
      statSync(root);
    } catch {
      return toolError('search_files', `path ${displayPath(ctx.cwd, root)} does not exist`);
    }
    // a folder holding the own profile (the root, for a named one) is searched, others' files dropped
    const refused = foreignProfileReason(ctx, root);
    const holdsOwn = isInside(root, ctx.home.dir);
    if (refused && !holdsOwn) return toolError('search_files', refused);
    if (target !== 'files') {
      const secret = secretEnvReadReason(root);
      if (secret) return toolError('search_files', secret);
    }
    const wanted = Math.min(limit, SEARCH_MAX_LIMIT);
    const q: Query = {
      root,
      pattern,
      target,
      fileGlob: args.file_glob || undefined,
      max: wanted + 1,
    };
    const engine = opts.engine === 'rg' || (opts.engine !== 'js' && hasRipgrep()) ? 'rg' : 'js';

    const found = await search(engine, q, ctx);
    if (typeof found === 'string') return toolError('search_files', found);
    const where = displayPath(ctx.cwd, root);
    if (found.length === 0) {
      const what = target === 'files' ? 'No files named' : 'No matches for';
      return { ok: true, content: `${what} ${JSON.stringify(pattern)} in ${where}`, summary: '0 results' };
    }
    const more = found.length > wanted;
    const shown = found.slice(0, wanted);
    const footer = more
      ? `\n[showing the first ${wanted} results; there are more: narrow pattern, path or file_glob, or raise limit]`
      : '';
    return {
      ok: true,
      content: shown.join('\n') + footer,
      summary: `${shown.length}${more ? '+' : ''} results`,
    };
  }

  return defineTool({
    name: 'search_files',
    description:
      'Search files. target "content" (default): lines matching the regex pattern, as path:line:text. ' +
      'target "files": files whose name matches the glob pattern (e.g. "*.ts"). Skips node_modules, .git, ' +
      'hidden and git-ignored files. Use this instead of grep/find in the terminal.',
    parameters,
    readOnly: true,
    toolsets: ['file'],
    inScripts: true,
    verb: ['Searched', 'Searching'],
    summarize: (args) => `${String(args.pattern ?? '')}${args.path ? ` in ${String(args.path)}` : ''}`,
    run,
  });
}

/** The `search_files` tool definition (engine: auto). */
export const searchFilesTool: ToolDefinition = createSearchFilesTool();
