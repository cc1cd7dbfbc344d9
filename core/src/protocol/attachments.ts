/**
 * What a prompt can carry besides its text (`prompt.submit` `attachments`): a discriminated union
 * on `kind`. References name what to attach; the daemon resolves each one itself, relative to
 * the session's working folder (core/src/references/resolve.ts), and never trusts a client's
 * bytes or paths. Also the file completion method's records (`files.complete`).
 */
import { z } from 'zod';

/** `@path`: a text file's content (capped, binary files refused). */
export const FileAttachment = z.object({
  kind: z.literal('file'),
  /** As typed after `@`: relative to the session's folder, absolute, or `~/…`. */
  path: z.string().min(1).max(4096),
});
/** `@folder/`: a listing of the folder's files (ignored files left out). */
export const FolderAttachment = z.object({
  kind: z.literal('folder'),
  path: z.string().min(1).max(4096),
});
/** `@diff`: `git diff` of the working tree in the session's folder. */
export const DiffAttachment = z.object({ kind: z.literal('diff') });
/** `@staged`: `git diff --cached` in the session's folder. */
export const StagedAttachment = z.object({ kind: z.literal('staged') });
/** `@url:https://…` / `@https://…`: a web page, fetched with `web_extract`'s guards. */
export const UrlAttachment = z.object({
  kind: z.literal('url'),
  url: z.string().min(1).max(8192),
});

/** One attachment of `prompt.submit`. */
export const PromptAttachment = z.discriminatedUnion('kind', [
  FileAttachment,
  FolderAttachment,
  DiffAttachment,
  StagedAttachment,
  UrlAttachment,
]);
export type PromptAttachment = z.infer<typeof PromptAttachment>;

/** Most attachments of one prompt. */
export const MAX_PROMPT_ATTACHMENTS = 32;

/** `files.complete`: paths under the session's folder matching `query` (fuzzy), best first. */
export const FilesCompleteParams = z.object({
  session_id: z.string().min(1),
  /** What follows `@` (may be empty: the first files of the index). */
  query: z.string().max(1024),
  /** Most items returned (default 20). */
  limit: z.number().int().positive().max(200).optional(),
});
/** One completion: a file, or a folder (`path` ends with `/`). */
export const FileCompletion = z.object({
  path: z.string(),
  kind: z.enum(['file', 'folder']),
  /** Size in bytes for files, when known. */
  bytes: z.number().int().nonnegative().optional(),
});
export type FileCompletion = z.infer<typeof FileCompletion>;
export const FilesCompleteResult = z.object({
  items: z.array(FileCompletion),
  /**
   * False while the folder's index is still being built: `items` come from what is listed so far
   * (maybe none); ask again for more.
   */
  ready: z.boolean(),
  /** Files in the index so far. */
  indexed: z.number().int().nonnegative(),
});
