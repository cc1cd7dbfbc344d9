/**
 * `@` references: completion of paths under a session's folder (a cached, gitignore-aware file
 * index) and resolving attachments of a prompt into the text the model reads.
 */
export {
  FileIndex,
  type CompletionAnswer,
  type CompletionItem,
  type FileIndexOptions,
} from './file-index.js';
export { fuzzyScore, rankPaths, type RankedPath } from './fuzzy.js';
export { listFiles, type ListEngine, type ListOptions } from './list-files.js';
export { withAttachments, ATTACHED_NOTICE } from './render.js';
export {
  AttachmentError,
  capBytes,
  resolveAttachments,
  referenceText,
  type ResolveContext,
  type ResolvedAttachment,
} from './resolve.js';
