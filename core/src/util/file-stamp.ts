/**
 * The identity of a file's current version, for caches that re-read a file only when it changed
 * (config.yaml and `.env` in the daemon, the config cache, the discovery file, a damaged state.db).
 */
import { statSync } from 'node:fs';

/**
 * `dev:ino:size:mtimeNs:ctimeNs` of `path` (nanosecond times), or undefined when it does not
 * exist or cannot be stat'ed. Any write, replace (new inode), `touch` or `cp -p` changes it.
 */
export function fileStamp(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
  } catch {
    return undefined;
  }
}
