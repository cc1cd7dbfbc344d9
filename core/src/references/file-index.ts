/**
 * The daemon's cache of file listings for `@` completion (`files.complete`), one per folder.
 *
 * `complete` never waits: the first call for a folder starts its listing (list-files.ts) in the
 * background and answers from what is listed so far (`ready: false`); later calls rank the files
 * found by then. A listing older than `ttlMs` is refreshed in the background while the old one
 * keeps answering. Folders are derived from the files' paths (`src/`, `src/app/`). At most
 * `maxFolders` listings are kept (least recently used dropped).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { rankPaths } from './fuzzy.js';
import { listFiles, type ListEngine } from './list-files.js';

/** One completion item (the `files.complete` wire item). */
export interface CompletionItem {
  /** Relative to the folder; folders end with `/`. */
  path: string;
  kind: 'file' | 'folder';
  /** Bytes, for files. */
  bytes?: number;
}

/** What `complete` answers. */
export interface CompletionAnswer {
  items: CompletionItem[];
  /** The listing is complete (false: ask again for more). */
  ready: boolean;
  /** Files listed so far. */
  indexed: number;
}

/** Options of `FileIndex`. */
export interface FileIndexOptions {
  /** Age after which a listing is refreshed in the background, ms (default 30,000). */
  ttlMs?: number;
  /** Listings kept (default 8). */
  maxFolders?: number;
  engine?: ListEngine;
  /** Cap on files per listing (default list-files' `LIST_MAX_FILES`). */
  maxFiles?: number;
  now?: () => number;
}

interface Listing {
  files: string[];
  folders: Set<string>;
  done: boolean;
  builtAt: number;
  /** The running refresh, if any. */
  refresh?: Promise<void>;
  /** Resolves when the first listing is complete. */
  first: Promise<void>;
  error?: string;
}

/** File listings by folder, built off the caller's path. */
export class FileIndex {
  private readonly listings = new Map<string, Listing>();
  private readonly ttlMs: number;
  private readonly maxFolders: number;
  private readonly now: () => number;

  constructor(private readonly opts: FileIndexOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxFolders = opts.maxFolders ?? 8;
    this.now = opts.now ?? Date.now;
  }

  /**
   * The best `limit` paths under `root` for `query` (fuzzy; a query ending in `/` lists that
   * folder's entries first). Answers at once from what is listed so far.
   */
  complete(root: string, query: string, limit = 20): CompletionAnswer {
    const listing = this.listing(root);
    const q = query.startsWith('./') ? query.slice(2) : query;
    const candidates = function* (): Generator<string> {
      yield* listing.folders;
      yield* listing.files;
    };
    const ranked = rankPaths(candidates(), q, limit);
    const items = ranked.map(({ path }): CompletionItem => {
      if (path.endsWith('/')) return { path, kind: 'folder' };
      let bytes: number | undefined;
      try {
        bytes = statSync(join(root, path)).size;
      } catch {
        bytes = undefined;
      }
      return { path, kind: 'file', ...(bytes !== undefined ? { bytes } : {}) };
    });
    return { items, ready: listing.done, indexed: listing.files.length };
  }

  /** Waits until the first listing of `root` is complete (starting it when needed). */
  async ready(root: string): Promise<void> {
    await this.listing(root).first;
  }

  /** The listed files of `root` (starting a listing when needed; maybe partial). */
  files(root: string): readonly string[] {
    return this.listing(root).files;
  }

  /** Drops every listing (their running listers finish unobserved). */
  clear(): void {
    this.listings.clear();
  }

  private listing(root: string): Listing {
    let l = this.listings.get(root);
    if (l) {
      // least recently used goes first: move to the end
      this.listings.delete(root);
      this.listings.set(root, l);
      if (l.done && !l.refresh && this.now() - l.builtAt > this.ttlMs) this.refresh(root, l);
      return l;
    }
    const files: string[] = [];
    const folders = new Set<string>();
    let resolveFirst!: () => void;
    l = { files, folders, done: false, builtAt: this.now(), first: new Promise((r) => (resolveFirst = r)) };
    const fresh = l;
    this.listings.set(root, l);
    while (this.listings.size > this.maxFolders) this.listings.delete(this.listings.keys().next().value!);
    this.build(root, (batch) => add(fresh, batch))
      .catch((err: unknown) => (fresh.error = (err as Error).message))
      .finally(() => {
        fresh.done = true;
        fresh.builtAt = this.now();
        resolveFirst();
      });
    return l;
  }

  private refresh(root: string, old: Listing): void {
    const next: Listing = { files: [], folders: new Set(), done: false, builtAt: 0, first: old.first };
    old.refresh = this.build(root, (batch) => add(next, batch))
      .then(() => {
        next.done = true;
        next.builtAt = this.now();
        if (this.listings.get(root) === old) this.listings.set(root, next);
      })
      .catch(() => {
        old.builtAt = this.now(); // keep the old listing; try again after another ttl
      })
      .finally(() => (old.refresh = undefined));
  }

  private async build(root: string, onFiles: (batch: string[]) => void): Promise<void> {
    await listFiles(root, onFiles, {
      ...(this.opts.engine ? { engine: this.opts.engine } : {}),
      ...(this.opts.maxFiles ? { maxFiles: this.opts.maxFiles } : {}),
    });
  }
}

function add(l: Listing, batch: string[]): void {
  for (const f of batch) {
    l.files.push(f);
    for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) l.folders.add(f.slice(0, i + 1));
  }
}
