/**
 * Finding a home of the Python Hermes. Both programs default to `~/.hermes`, so this hermes must
 * recognise the other's home before it opens or writes anything there (docs/migrate.md "One
 * folder, two programs"). The mark is its `state.db`: an SQLite file whose tables have the
 * original's shape (`schema_version`, `sessions.model_config`). A cheap look at the file's header
 * comes first: ours carries a `user_version` of 1 or more once written back from the WAL, the
 * original's none, so only a header with 0 costs an SQLite open.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { foreignKind } from '../state/foreign.js';
import { headerUserVersion, tildePath } from './offer.js';
import { openPrivateCopy, type PrivateCopy } from './source-db.js';

/** What a `state.db` is: ours, the Python Hermes's, another program's, or none at all. */
export type StateDbKind = 'ours' | 'python-hermes' | 'other' | 'none';

/**
 * Classifies `file`. A header with `user_version` ≥ 1 is ours without opening it; otherwise the
 * tables decide: read through a private copy when its `-wal` holds frames, else through a plain
 * connection that only reads the schema and is closed at once (SQLite's empty `-wal`/`-shm` come
 * and go with it).
 */
export function stateDbKind(file: string): StateDbKind {
  if (!existsSync(file)) return 'none';
  const version = headerUserVersion(file);
  if (version !== undefined && version >= 1) return 'ours';
  // a -wal with frames is never opened in place: a last connection would write them back
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    let copy: PrivateCopy | undefined;
    try {
      copy = openPrivateCopy(file);
      return foreignKind(copy.db) ?? 'ours';
    } catch {
      return version === undefined ? 'other' : 'ours';
    } finally {
      copy?.dispose();
    }
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 2000 });
    return foreignKind(db) ?? 'ours';
  } catch {
    return version === undefined ? 'other' : 'ours';
  } finally {
    db?.close();
  }
}

/**
 * The message for a root that is a home of the Python Hermes: this hermes does not work in it,
 * and how to bring it over.
 */
export function pythonRootMessage(root: string, userHome: string = homedir()): string {
  const r = tildePath(root, userHome);
  const cmd = resolve(root) === join(userHome, '.hermes') ? 'hermes migrate' : `hermes migrate --from ${r}`;
  return [
    `${r} is a home of the Python Hermes (its state.db), the folder this hermes uses too; this hermes does not open or change it as it is.`,
    `  ${cmd} --dry-run   shows what would come`,
    `  ${cmd}   brings it into this hermes's layout here: everything is copied and checked first, then the`,
    `    original files move, unchanged, into ${r}/python-hermes-backup-<time>/ (the Python Hermes keeps working from there with HERMES_HOME set to it)`,
    `Or keep the two apart, with a folder of this hermes's own: HERMES_HOME=${r}-ts hermes migrate --from ${r}. See docs/migrate.md.`,
  ].join('\n');
}

/** Thrown when the root of this hermes is a home of the Python Hermes. */
export class PythonHomeError extends Error {
  constructor(readonly root: string) {
    super(pythonRootMessage(root));
    this.name = 'PythonHomeError';
  }
}

/**
 * Throws when `root` (this hermes's root) is a home of the Python Hermes.
 * @throws PythonHomeError with the way out.
 */
export function assertNotPythonHome(root: string): void {
  if (stateDbKind(join(root, 'state.db')) === 'python-hermes') throw new PythonHomeError(root);
}
