import { describe, expect, it } from 'vitest';
import { applyJournalMode, type PragmaTarget } from './connection.js';

/** A connection whose `journal_mode=WAL` behaves like a network file system. */
function fakeDb(onWal: () => string): PragmaTarget & { calls: string[] } {
  let mode = 'delete';
  const calls: string[] = [];
  return {
    calls,
    pragma(source: string) {
      calls.push(source);
      if (source === 'journal_mode') return mode;
      if (source === 'journal_mode = WAL') return (mode = onWal());
      if (source === 'journal_mode = DELETE') return (mode = 'delete');
      throw new Error(`unexpected pragma ${source}`);
    },
  };
}

describe('applyJournalMode', () => {
  it('falls back to the rollback journal on a known locking error, warning once per file', () => {
    const warnings: string[] = [];
    const nfs = () => {
      throw Object.assign(new Error('locking protocol'), { code: 'SQLITE_PROTOCOL' });
    };
    expect(applyJournalMode(fakeDb(nfs), '/nfs/a/state.db', (w) => warnings.push(w))).toBe('delete');
    expect(applyJournalMode(fakeDb(nfs), '/nfs/a/state.db', (w) => warnings.push(w))).toBe('delete');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\/nfs\/a\/state\.db: WAL is not supported here \(locking protocol\)/);
  });

  it('warns when the file system silently refuses WAL', () => {
    const warnings: string[] = [];
    expect(
      applyJournalMode(
        fakeDb(() => 'delete'),
        '/smb/b/state.db',
        (w) => warnings.push(w),
      ),
    ).toBe('delete');
    expect(warnings[0]).toMatch(/refused WAL mode/);
  });

  it('rethrows errors that are not WAL incompatibilities', () => {
    const busy = () => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    };
    expect(() => applyJournalMode(fakeDb(busy), '/x/state.db', () => {})).toThrow('database is locked');
  });

  it('leaves a WAL database alone', () => {
    const db = fakeDb(() => 'wal');
    expect(applyJournalMode(db, '/x/c.db', () => {})).toBe('wal');
    expect(applyJournalMode({ pragma: () => 'wal' }, '/x/c.db', () => {})).toBe('wal');
  });
});
