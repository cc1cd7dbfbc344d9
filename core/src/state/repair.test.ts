import { existsSync, readdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { repairStateDb, verifyFts } from './repair.js';
import { useStateDbFile } from './testing.js';
import { SessionDBError } from './session-db.js';

const fx = useStateDbFile('hermes-repair-');
const open = fx.open;

/** A database with 3 sessions × 40 messages; returns the ids of one session. */
function seed(): string {
  const d = open();
  let first = '';
  for (let s = 0; s < 3; s++) {
    const id = d.createSession({ source: 'cli', title: `s${s}` }).id;
    first ||= id;
    for (let i = 0; i < 40; i++) {
      d.appendMessage(id, {
        role: i % 2 ? 'assistant' : 'tool',
        content: `message ${i} of session ${s} mentions pelican${i} and gpt-4o`,
        ...(i % 2 ? {} : { tool_name: 'terminal', tool_call_id: `c${i}` }),
      });
    }
  }
  d.close();
  return first;
}

/** Everything stored in the data tables, to prove the repair never touched them. */
function snapshot(): string {
  const raw = new Database(fx.file, { readonly: true });
  try {
    return JSON.stringify([
      raw.prepare('SELECT * FROM sessions ORDER BY id').all(),
      raw.prepare('SELECT * FROM messages ORDER BY id').all(),
    ]);
  } finally {
    raw.close();
  }
}

/** Runs `fn` on a raw connection with defensive mode off (shadow tables and schema writable). */
function damage(fn: (raw: Database.Database) => void): void {
  const raw = new Database(fx.file);
  raw.unsafeMode(true);
  try {
    fn(raw);
  } finally {
    raw.close();
  }
}

const deleteIndexBlocks = (raw: Database.Database) => raw.exec(`DELETE FROM messages_fts_data WHERE id > 10`); // keeps the structure record, loses segments

describe('self-repair of the search index', () => {
  it('rebuilds a corrupted index in place on search, after a backup, without touching messages', () => {
    seed();
    const before = snapshot();
    damage(deleteIndexBlocks);
    const d = open();
    const hits = d.search('pelican7');
    expect(hits).toHaveLength(3);
    expect(hits[0]!.snippet).toContain('[pelican7]');
    expect(snapshot()).toBe(before);
    expect(fx.warnings.join('\n')).toMatch(/search index damaged .*repaired \(rebuild: .*backup at .*\.bak/);
    expect(readdirSync(fx.dir).some((f) => /^state\.db\.repair-.*\.bak$/.test(f))).toBe(true);
  });

  it('repairs when a write hits the damaged index, and the write then succeeds', () => {
    const sid = seed();
    damage(deleteIndexBlocks);
    const d = open();
    const id = d.appendMessage(sid, { role: 'user', content: 'after the damage: albatross' });
    expect(d.getMessage(id)?.content).toContain('albatross');
    expect(d.search('albatross').map((h) => h.message_id)).toEqual([id]);
    expect(d.countMessages()).toBe(121);
  });

  it('recreates a dropped FTS table on open and repopulates it', () => {
    seed();
    const before = snapshot();
    damage((raw) => raw.exec('DROP TABLE messages_fts'));
    const d = open();
    expect(d.search('pelican3')).toHaveLength(3);
    expect(snapshot()).toBe(before);
    expect(fx.warnings.join('\n')).toMatch(/search index was missing; rebuilt/);
  });

  it('recovers from an FTS table dropped under a running writer (drop and recreate)', () => {
    const sid = seed();
    const d = open();
    damage((raw) => raw.exec('DROP TABLE messages_fts'));
    const id = d.appendMessage(sid, { role: 'user', content: 'cormorant' });
    expect(d.search('cormorant').map((h) => h.message_id)).toEqual([id]);
    expect(d.search('pelican3')).toHaveLength(3);
    expect(fx.warnings.join('\n')).toMatch(/repaired \(recreate-fts: /);
  });

  it('removes a duplicate schema entry that breaks every statement', () => {
    seed();
    const before = snapshot();
    damage((raw) => {
      const row = raw.prepare(`SELECT * FROM sqlite_master WHERE name = 'messages_fts'`).get() as Record<
        string,
        unknown
      >;
      raw.pragma('writable_schema = ON');
      raw
        .prepare('INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)')
        .run(row.type, row.name, row.tbl_name, row.rootpage, row.sql);
      raw.pragma('writable_schema = OFF');
    });
    const probe = new Database(fx.file);
    expect(() => probe.prepare('SELECT count(*) FROM messages').get()).toThrow(/malformed database schema/);
    probe.close();

    const d = open();
    expect(d.search('pelican1')).toHaveLength(3);
    expect(snapshot()).toBe(before);
    expect(fx.warnings.join('\n')).toMatch(/repaired \(dedupe-schema: removed 1 duplicate schema entry/);
  });

  it('drops and recreates the FTS schema when a shadow table is gone', () => {
    seed();
    const before = snapshot();
    damage((raw) => {
      raw.pragma('writable_schema = ON');
      raw.exec(`DELETE FROM sqlite_master WHERE name = 'messages_fts_data'`);
      raw.pragma('writable_schema = OFF');
    });
    const report = repairStateDb(fx.file);
    expect(report.repaired).toBe(true);
    expect(report.steps.map((s) => `${s.step}:${s.ok}`)).toEqual([
      'backup:true',
      'rebuild:false',
      'dedupe-schema:false',
      'recreate-fts:true',
    ]);
    expect(report.backup && existsSync(report.backup)).toBeTruthy();
    expect(snapshot()).toBe(before);
    const raw = new Database(fx.file);
    expect(() => verifyFts(raw)).not.toThrow();
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    expect(open().search('pelican9')).toHaveLength(3);
  });

  it('repairs at most once per process', () => {
    const sid = seed();
    damage(deleteIndexBlocks);
    const d = open();
    expect(d.search('pelican2')).toHaveLength(3);
    damage(deleteIndexBlocks);
    expect(() => d.search('pelican2')).toThrow(SessionDBError);
    expect(() => d.search('pelican2')).toThrow(/corruption found/);
    expect(d.countMessages(sid)).toBe(40);
    expect(fx.warnings.filter((w) => w.includes('search index damaged'))).toHaveLength(1);
  });

  it('a read-only connection never repairs: it falls back to a substring search', () => {
    seed();
    damage(deleteIndexBlocks);
    const r = open({ readonly: true });
    const hits = r.search('pelican5');
    expect(hits).toHaveLength(3);
    expect(hits[0]!.snippet).toContain('[pelican5]');
    expect(fx.warnings).toEqual([]);
    expect(readdirSync(fx.dir).some((f) => f.includes('.repair-'))).toBe(false);
  });
});
