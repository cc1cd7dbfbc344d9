/**
 * Keeping the files of earlier bundles a while (bin/scripts/bundle.mjs): a daemon started from an
 * earlier build loads its lazy chunks by name long after it started, so a rebuild (`npm run
 * build`, or `npm start` after a `git pull`) must not delete them under it — else the daemon's
 * next lazy import fails (an `always` approval not saved, a command that no longer loads).
 * Chunk names carry a hash of their content, so files of several builds live side by side.
 *
 * `<outdir>/.superseded.json` records when each file stopped being part of the newest build; a
 * file superseded more than `keepMs` ago is deleted.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** How long a file of an earlier build is kept after a newer build stopped using it, ms (30 days). */
export const KEEP_SUPERSEDED_MS = 30 * 24 * 3600 * 1000;

const MANIFEST = '.superseded.json';

/**
 * Deletes the files of `outdir` that the newest build did not write and that were superseded
 * more than `keepMs` ago; records the newly superseded ones.
 * @param outdir the bundle folder.
 * @param written paths (absolute or relative) of the files the newest build wrote.
 * @param now current time, ms since the epoch.
 * @returns the names deleted.
 */
export function pruneSuperseded(outdir, written, now = Date.now(), keepMs = KEEP_SUPERSEDED_MS) {
  const current = new Set([...written].map((p) => basename(p)));
  const file = join(outdir, MANIFEST);
  let since = {};
  try {
    if (existsSync(file)) since = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    since = {}; // a broken record: start counting again (nothing is deleted early)
  }
  const next = {};
  const deleted = [];
  for (const name of readdirSync(outdir)) {
    if (name === MANIFEST || current.has(name)) continue;
    const at = typeof since[name] === 'number' ? since[name] : now;
    if (now - at > keepMs) {
      rmSync(join(outdir, name), { recursive: true, force: true });
      deleted.push(name);
    } else next[name] = at;
  }
  writeFileSync(file, `${JSON.stringify(next, null, 1)}\n`);
  return deleted;
}
