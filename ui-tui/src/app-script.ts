/**
 * Loads the TUI's bundled app (dist/bundle/app.js, made by scripts/bundle.mjs: the source of one
 * async function, not an ES module) with `vm.Script` and a V8 code cache, so a start after the
 * first skips parsing the bundle and compiling the functions its first frame runs (Node 20 has no
 * code cache for ES modules).
 *
 * The cache lives beside the bundle (`app.js.cache`): a header line (JSON: the bundle's size,
 * mtime and inode, Node's version and arch) and V8's data. It is used only when the header matches
 * the bundle as it is now (V8 itself checks only the source's length, its version and flags); a
 * missing, stale, corrupt or rejected one is ignored and replaced by `saveCache()`. A read-only
 * install just runs without it.
 */
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/** A loaded app script. */
export interface AppScript<T> {
  /** What the script's function returned (its exports). */
  exports: T;
  /** Whether compiling used the cache on disk. */
  cached: boolean;
  /**
   * Writes the code cache beside the bundle (of every function compiled so far) unless the one
   * used was valid: call it once the first frame is drawn. Never throws; false when not written.
   */
  saveCache(): boolean;
}

/** How a script loads the ES module of its lazily loaded packages (`importLazy(name)`). */
export type LazyImporter = (name: string) => Promise<unknown>;

interface CacheHeader {
  size: number;
  mtimeMs: number;
  ino: number;
  node: string;
  arch: string;
}

/**
 * Resolves after the event loop has polled for I/O once: keys that arrived during a synchronous
 * stretch are read (and echoed by the painted first frame). A timer, then an immediate: the
 * immediate alone would run before the next poll when called from an I/O callback.
 */
export function yieldToInput(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));
}

/** The cache's path for a bundle. */
export function cachePath(bundle: string): string {
  return `${bundle}.cache`;
}

function headerOf(bundle: string): CacheHeader {
  const st = statSync(bundle);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, node: process.version, arch: process.arch };
}

/** The cache's V8 data when its header matches `want`, else undefined. */
function readCache(path: string, want: CacheHeader): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const nl = file.indexOf(10);
  if (nl < 0) return undefined;
  try {
    const got = JSON.parse(file.subarray(0, nl).toString('utf8')) as Partial<CacheHeader>;
    const same = (Object.keys(want) as (keyof CacheHeader)[]).every((k) => got[k] === want[k]);
    return same ? file.subarray(nl + 1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs the app script at `bundle` (an absolute path).
 * @param importLazy resolves `importLazy(name)` calls in the script.
 * @throws what reading, compiling or running the script throws (not a bad cache: that is ignored).
 */
export async function loadAppScript<T>(bundle: string, importLazy: LazyImporter): Promise<AppScript<T>> {
  const source = readFileSync(bundle, 'utf8');
  const header = headerOf(bundle);
  const cacheFile = cachePath(bundle);
  const cachedData = readCache(cacheFile, header);
  const script = new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  // between compiling and running (each a synchronous stretch), input that came meanwhile is read
  await yieldToInput();
  const run = script.runInThisContext() as (
    require: NodeJS.Require,
    importLazy: LazyImporter,
    importMetaUrl: string,
  ) => Promise<T>;
  const exports = await run(createRequire(bundle), importLazy, pathToFileURL(bundle).href);
  let saved = cached;
  return {
    exports,
    cached,
    saveCache() {
      if (saved) return false;
      saved = true;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        // the bundle changed since it was read: a cache of the old one must not be labelled new
        const now = headerOf(bundle);
        if (JSON.stringify(now) !== JSON.stringify(header)) return false;
        const data = script.createCachedData();
        writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), data]), {
          mode: 0o644,
        });
        renameSync(tmp, cacheFile); // atomic: a TUI starting meanwhile reads the old file or this one
        return true;
      } catch {
        try {
          unlinkSync(tmp);
        } catch {
          // nothing was written
        }
        return false;
      }
    },
  };
}
