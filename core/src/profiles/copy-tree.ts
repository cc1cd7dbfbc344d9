/**
 * Copying parts of a home into a staging folder for `create --clone/--clone-all`: folders,
 * regular files (mode kept) and symbolic links (link text kept, never followed); sockets, FIFOs
 * and devices are skipped.
 */
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Decides whether to copy an entry.
 * @param rel path relative to the copied tree's top, `/`-separated.
 * @param name the entry's own name.
 */
export type CopyFilter = (rel: string, name: string) => boolean;

/**
 * Copies `src` to `dest` (a file, a link or a whole folder), recursively, skipping what `filter`
 * refuses. Parent folders of `dest` are created.
 * @param rel the path of `src` relative to the tree's top (for `filter` and the result).
 * @returns the relative paths of the files and links copied.
 * @throws Error from the file system, naming the path.
 */
export function copyTree(src: string, dest: string, rel: string, filter: CopyFilter = () => true): string[] {
  const copied: string[] = [];
  const walk = (s: string, d: string, r: string): void => {
    const st = lstatSync(s);
    if (st.isDirectory()) {
      mkdirSync(d, { recursive: true });
      chmodSync(d, st.mode & 0o777);
      for (const name of readdirSync(s).sort()) {
        const childRel = r ? `${r}/${name}` : name;
        if (filter(childRel, name)) walk(join(s, name), join(d, name), childRel);
      }
    } else if (st.isFile()) {
      mkdirSync(dirname(d), { recursive: true });
      copyFileSync(s, d);
      chmodSync(d, st.mode & 0o777);
      copied.push(r);
    } else if (st.isSymbolicLink()) {
      mkdirSync(dirname(d), { recursive: true });
      symlinkSync(readlinkSync(s), d);
      copied.push(r);
    }
  };
  try {
    walk(src, dest, rel);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`cannot copy ${e.path ?? src}: ${e.message}`, { cause: err });
  }
  return copied;
}
