import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseDamagedError, isCorruptionError, locateDamage } from './damage.js';
import { resetRepairClaimsForTests } from './repair.js';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-damage-', resetRepairClaimsForTests);
const open = fx.open;

/** A real database (3 sessions × 150 messages) checkpointed into the main fx.file; its page map. */
function seed(): { pages: { name: string; pageno: number; pagetype: string }[]; pageSize: number } {
  const d = open();
  for (let s = 0; s < 3; s++) {
    const id = d.createSession({ source: 'cli', title: `s${s}` }).id;
    for (let i = 0; i < 150; i++)
      d.appendMessage(id, {
        role: 'assistant',
        content: `message ${i} of ${s} mentions pelican${i}. `.repeat(8),
      });
  }
  d.close();
  const raw = new Database(fx.file);
  try {
    raw.pragma('wal_checkpoint(TRUNCATE)');
    return {
      pages: raw.prepare('SELECT name, pageno, pagetype FROM dbstat ORDER BY pageno').all() as {
        name: string;
        pageno: number;
        pagetype: string;
      }[],
      pageSize: raw.pragma('page_size', { simple: true }) as number,
    };
  } finally {
    raw.close();
  }
}

/** Writes a page of garbage bytes over page `pageno` (1-based) of the fx.file. */
function garbleLastLeafOf(table: string): void {
  const { pages, pageSize } = seed();
  const page = [...pages].reverse().find((p) => p.name === table && p.pagetype === 'leaf');
  if (!page) throw new Error(`no leaf page of ${table}`);
  const junk = Buffer.alloc(pageSize);
  for (let i = 0; i < pageSize; i++) junk[i] = (i * 7919 + 13) & 0xff;
  const fd = openSync(fx.file, 'r+');
  try {
    writeSync(fd, junk, 0, pageSize, (page.pageno - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

const digest = (): string => createHash('sha256').update(readFileSync(fx.file)).digest('hex');
const backups = (): string[] => readdirSync(fx.dir).filter((n) => n.includes('.repair-'));

function expectDamaged(fn: () => unknown, where: string): DatabaseDamagedError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DatabaseDamagedError);
  const e = err as DatabaseDamagedError;
  expect(e.code).toBe('ECORRUPT');
  expect(e.file).toBe(fx.file);
  expect(e.damaged.join(' ')).toContain(where);
  expect(e.message).toContain(`${fx.file} is damaged`);
  expect(e.message).toContain('nothing was deleted or changed');
  expect(e.message).toMatch(new RegExp(`mv "${fx.file}" "${fx.file}\\.corrupt-\\d{4}-\\d\\d-\\d\\dT`));
  expect(e.message).not.toMatch(/search index damaged/);
  return e;
}

describe('damage outside the search index is reported, never "repaired"', () => {
  it('a garbage page in messages: a clear error naming the table, no repair, fx.file untouched', () => {
    garbleLastLeafOf('messages');
    const before = digest();
    const d = open(); // the damaged page is not read at open
    const session = d.listSessions()[0]!;
    expectDamaged(() => {
      for (const s of d.listSessions()) d.getMessages(s.id);
    }, 'table "messages"');
    expectDamaged(() => d.search('pelican149'), 'table "messages"'); // its row is on the damaged page
    expect(fx.warnings.filter((w) => w.includes('search index'))).toEqual([]);
    expect(backups()).toEqual([]);
    expect(d.getSession(session.id)?.title).toBe(session.title); // the intact table still reads
    d.close();
    expect(digest()).toBe(before);
  });

  it('a garbage page in sessions: reported for writers and read-only connections alike', () => {
    garbleLastLeafOf('sessions');
    expectDamaged(() => open().listSessions(), 'table "sessions"');
    expectDamaged(() => open({ readonly: true }).listSessions(), 'table "sessions"');
    expect(backups()).toEqual([]);
  });

  it('a fx.file that is not SQLite at all: refused at open, naming the fx.file, left as it was', () => {
    writeFileSync(fx.file, 'these are my notes, not a database\n'.repeat(200));
    const before = digest();
    const e = expectDamaged(() => open(), 'file header');
    expect(e.message).toContain('file is not a database');
    expectDamaged(() => open({ readonly: true }), 'file header');
    expect(digest()).toBe(before);
    expect(readdirSync(fx.dir).sort()).toEqual(['state.db']);
  });

  it('a garbage fx.file header: refused at open', () => {
    seed();
    const fd = openSync(fx.file, 'r+');
    writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    closeSync(fd);
    expectDamaged(() => open(), 'file header');
  });

  it('names the -wal fx.file in the recovery command when there is one', () => {
    garbleLastLeafOf('messages');
    const d = open();
    d.createSession({ source: 'cli' }); // leaves a -wal beside the fx.file
    const e = expectDamaged(() => {
      for (const s of d.listSessions()) d.getMessages(s.id);
    }, 'messages');
    expect(e.message).toContain(`mv "${fx.file}-wal" "${fx.file}.corrupt-`);
  });
});

describe('damage inside the search index is still repaired', () => {
  it('a garbage page of the FTS index: rebuilt from messages, search works, messages intact', () => {
    garbleLastLeafOf('messages_fts_data');
    expect(locateDamage(fx.file)).toEqual([]);
    const d = open();
    expect(d.search('pelican7').length).toBeGreaterThan(0);
    expect(fx.warnings.some((w) => w.includes('search index damaged') && w.includes('repaired'))).toBe(true);
    expect(backups().length).toBeGreaterThan(0);
    for (const s of d.listSessions()) expect(d.getMessages(s.id)).toHaveLength(150);
  });
});

describe('isCorruptionError', () => {
  it('matches corruption codes and messages only', () => {
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT_VTAB' }))).toBe(true);
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_NOTADB' }))).toBe(true);
    expect(isCorruptionError(new Error('database disk image is malformed'))).toBe(true);
    expect(isCorruptionError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(
      false,
    );
    expect(isCorruptionError(new Error('no such table: messages_fts'))).toBe(false);
  });
});

describe('a store that reported damage', () => {
  it('refuses every later write with the same error, and writes nothing', () => {
    garbleLastLeafOf('messages');
    const d = open();
    const session = d.listSessions()[0]!;
    const first = expectDamaged(() => {
      for (const s of d.listSessions()) d.getMessages(s.id);
    }, 'table "messages"');
    let refused: unknown;
    try {
      d.setSessionState(session.id, 'ended'); // the sessions table is intact: it would succeed
    } catch (e) {
      refused = e;
    }
    expect(refused).toBe(first);
    d.close();
    const again = open({ readonly: true });
    expect(again.getSession(session.id)?.state).toBe(session.state);
  });
});
