/**
 * Resolving the references of a prompt (`prompt.submit` `attachments`) into the text the model
 * reads, in the session's working folder. The daemon does this itself: a client's paths are
 * only names.
 *
 * - `file`: a regular text file. A relative path must stay inside the folder (also after
 *   symlinks); an absolute or `~/` path is allowed by `read_file`'s rules (never Hermes's keys,
 *   tokens or another profile's files). Binary files are refused.
 * - `folder`: a listing of the files under it (ignored files left out, as for completion).
 * - `diff` / `staged`: `git diff` / `git diff --cached` in the folder (refused outside a repo).
 * - `url`: the page through `web_extract`'s fetch (SSRF guard, size and time caps).
 *
 * Each content is cut at `references.max_file_bytes` and all of them together at
 * `references.max_total_bytes` (UTF-8 bytes), with a note; each goes inside a fence with a random
 * nonce and is scanned by the content scanner — a finding is a warning on its chip and in its
 * fence, never a reason to follow it. Any reference that cannot be resolved refuses the whole
 * prompt (`AttachmentError`, naming the reference).
 */
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import type { AttachmentChip } from '../protocol/attachment-text.js';
import type { PromptAttachment } from '../protocol/attachments.js';
import { MAX_SCAN_CHARS, scanContent } from '../security/content-scan.js';
import { protectedReadReason, resolveToolPath } from '../tools/paths.js';
import { looksBinary } from '../tools/read-file.js';
import { extractOne } from '../tools/web/web-extract.js';
import { isInside } from '../util/paths.js';
import { listFiles } from './list-files.js';

/** A reference that cannot be attached; the prompt is not sent. */
export class AttachmentError extends Error {
  constructor(
    /** The reference as written (`@src/x.ts`). */
    readonly ref: string,
    why: string,
  ) {
    super(`${ref}: ${why}`);
    this.name = 'AttachmentError';
  }
}

/** What resolving needs. */
export interface ResolveContext {
  /** The session's working folder (absolute). */
  cwd: string;
  home: HermesHome;
  config: Pick<HermesConfig, 'references' | 'web'>;
  signal?: AbortSignal;
}

/** One resolved reference. */
export interface ResolvedAttachment {
  chip: AttachmentChip;
  /** The content (already capped), before fencing. */
  content: string;
  /** Notes for the model (truncation). */
  notes: string[];
}

/** Most entries of a folder listing. */
export const FOLDER_MAX_ENTRIES = 2_000;
/** Longest a `git diff` may run, ms. */
const GIT_TIMEOUT_MS = 10_000;

/** The reference as the user wrote it, for chips and errors. */
export function referenceText(a: PromptAttachment): string {
  switch (a.kind) {
    case 'file':
    case 'folder':
      return a.path;
    case 'url':
      return a.url;
    default:
      return a.kind;
  }
}

/**
 * Resolves every attachment in order, applying the caps.
 * @throws AttachmentError for the first one that cannot be resolved.
 */
export async function resolveAttachments(
  attachments: readonly PromptAttachment[],
  ctx: ResolveContext,
): Promise<ResolvedAttachment[]> {
  const { max_file_bytes: perFile, max_total_bytes: total } = ctx.config.references;
  // fetched concurrently (pages, diffs); the caps are applied in order afterwards
  const raw = await Promise.all(attachments.map((a) => resolveOne(a, ctx, perFile)));
  let left = total;
  return raw.map((r) => {
    const cut = capBytes(r.content, Math.min(perFile, left));
    const bytes = Buffer.byteLength(cut.text);
    left -= bytes;
    const notes = [...r.notes];
    if (cut.cut) {
      const which = cut.limit < perFile ? 'references.max_total_bytes' : 'references.max_file_bytes';
      const of = Math.max(cut.of, r.size ?? 0);
      notes.push(
        `truncated: showing the first ${bytes.toLocaleString('en-US')} of ${of.toLocaleString('en-US')} bytes (${which})`,
      );
    }
    const chip: AttachmentChip = {
      ...r.chip,
      bytes,
      ...(cut.cut || r.chip.truncated ? { truncated: true } : {}),
    };
    const finding = scanContent(cut.text.slice(0, MAX_SCAN_CHARS), 'context').find(
      (f) => f.threatClass !== 'too_large',
    );
    if (finding) chip.warning = `looks like ${finding.threatClass}`;
    return { chip, content: cut.text, notes };
  });
}

async function resolveOne(
  a: PromptAttachment,
  ctx: ResolveContext,
  perFile: number,
): Promise<{ chip: AttachmentChip; content: string; notes: string[]; size?: number }> {
  const ref = referenceText(a);
  const fail = (why: string): never => {
    throw new AttachmentError(`@${ref}`, why);
  };
  switch (a.kind) {
    case 'file': {
      const abs = checkedPath(a.path, ctx, fail);
      const st = statOr(abs, fail);
      if (st.isDirectory())
        fail('is a folder; attach it as @' + (a.path.endsWith('/') ? a.path : `${a.path}/`));
      if (!st.isFile()) fail('is not a regular file');
      if (looksBinary(abs))
        fail(`is a binary file (${st.size.toLocaleString('en-US')} bytes); only text can be attached`);
      // read at most a little more than the cap: the rest is cut anyway
      const content = readHead(abs, Math.min(st.size, perFile + 4));
      return { chip: { kind: 'file', ref }, content, notes: [], size: st.size };
    }
    case 'folder': {
      const abs = checkedPath(a.path, ctx, fail);
      if (!statOr(abs, fail).isDirectory()) fail('is not a folder');
      const entries: string[] = [];
      const { capped } = await listFiles(abs, (b) => entries.push(...b), {
        maxFiles: FOLDER_MAX_ENTRIES,
        ...(isInside(ctx.cwd, abs) ? { ignoreFrom: ctx.cwd } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      entries.sort();
      const notes = capped ? [`listing cut at ${FOLDER_MAX_ENTRIES} entries`] : [];
      const ref2 = ref.endsWith('/') ? ref : `${ref}/`;
      return {
        chip: { kind: 'folder', ref: ref2, entries: entries.length, ...(capped ? { truncated: true } : {}) },
        content: entries.length ? entries.join('\n') : '(no files)',
        notes,
      };
    }
    case 'diff':
    case 'staged': {
      const args = ['diff', '--no-color', '--no-ext-diff', ...(a.kind === 'staged' ? ['--cached'] : [])];
      const out = await git(args, ctx.cwd, fail);
      const none = a.kind === 'staged' ? '(nothing staged)' : '(no unstaged changes in the working tree)';
      return { chip: { kind: a.kind, ref }, content: out || none, notes: [] };
    }
    case 'image':
      // images are checked and stored by the daemon's image path (core/src/images), never as text
      return fail('is an image, not a reference');
    case 'url': {
      const page = await extractOne(
        a.url,
        { config: ctx.config as HermesConfig, signal: ctx.signal ?? new AbortController().signal },
        perFile,
      );
      if (page.error) fail(page.error);
      return { chip: { kind: 'url', ref }, content: page.content ?? '', notes: page.notes };
    }
  }
}

/** The absolute path of a file or folder reference, refused when it may not be read. */
function checkedPath(p: string, ctx: ResolveContext, fail: (why: string) => never): string {
  const abs = resolveToolPath(ctx.cwd, p);
  if (!isAbsolute(p) && p !== '~' && !p.startsWith('~/')) {
    let real = abs;
    try {
      real = realpathSync(abs);
    } catch {
      /* missing: reported by the stat */
    }
    let root = ctx.cwd;
    try {
      root = realpathSync(ctx.cwd);
    } catch {
      /* keep as given */
    }
    if (!isInside(ctx.cwd, abs) || !isInside(root, real))
      fail(`is outside the session's folder (${ctx.cwd}); write its absolute path to attach it`);
  }
  const refused = protectedReadReason({ home: ctx.home }, abs);
  if (refused) fail(refused.replace(/the agent may not read it\.?/, 'it cannot be attached.'));
  return abs;
}

function statOr(abs: string, fail: (why: string) => never): Stats {
  try {
    return statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'no such file or folder' : (err as Error).message);
  }
}

/** The first `bytes` bytes of a file as UTF-8 (the rest is never read). */
function readHead(abs: string, bytes: number): string {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function git(args: string[], cwd: string, fail: (why: string) => never): Promise<string> {
  return new Promise((done, reject) => {
    execFile(
      'git',
      args,
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return done(stdout);
        const msg = /not a git repository/i.test(stderr)
          ? `${cwd} is not inside a git repository`
          : (err as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'git is not installed'
            : stderr.trim().split('\n')[0] || err.message;
        try {
          fail(msg);
        } catch (e) {
          reject(e as Error);
        }
      },
    );
  });
}

/**
 * `text` cut to at most `limit` UTF-8 bytes on a character boundary.
 * @returns the text, whether it was cut, its full size and the limit applied.
 */
export function capBytes(
  text: string,
  limit: number,
): { text: string; cut: boolean; of: number; limit: number } {
  const of = Buffer.byteLength(text);
  if (of <= limit) return { text, cut: false, of, limit };
  let out = Buffer.from(text).subarray(0, Math.max(0, limit)).toString('utf8');
  // a character split by the cut decodes as U+FFFD: drop it
  if (out.endsWith('\uFFFD')) out = out.slice(0, -1);
  return { text: out, cut: true, of, limit };
}
