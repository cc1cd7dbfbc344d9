import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildFtsQuery, hasCjk, MAX_TERMS } from './fts-query.js';

describe('buildFtsQuery', () => {
  const m = (q: string) => buildFtsQuery(q)?.match ?? null;

  it('quotes every term; hyphenated terms stay one phrase', () => {
    expect(m('deploy api')).toBe('"deploy" "api"');
    expect(m('gpt-4o')).toBe('"gpt-4o"');
    expect(buildFtsQuery('gpt-4o mini')?.terms).toEqual(['gpt-4o', 'mini']);
  });

  it('keeps balanced phrases and ignores unbalanced quotes (also curly ones)', () => {
    expect(m('"exit code" 127')).toBe('"exit code" "127"');
    expect(m('say "hello')).toBe('"say" "hello"');
    expect(m('\u201cnew york\u201d')).toBe('"new york"');
  });

  it('keeps AND/OR/NOT only between terms', () => {
    expect(m('cats AND dogs')).toBe('"cats" AND "dogs"');
    expect(m('cats OR')).toBe('"cats"');
    expect(m('AND cats')).toBe('"cats"');
    expect(m('cats AND OR dogs')).toBe('"cats" OR "dogs"');
    expect(m('NOT cats')).toBe('"cats"');
    expect(m('cats and dogs')).toBe('"cats" "and" "dogs"');
    expect(m('AND OR NOT')).toBeNull();
  });

  it('drops punctuation-only terms, supports prefixes, escapes inner quotes', () => {
    expect(m('( ) - ** ;')).toBeNull();
    expect(m('')).toBeNull();
    expect(m('deploy*')).toBe('"deploy"*');
    expect(m('"deplo"*')).toBe('"deplo"*');
    expect(m('it"s')).toBe('"it" "s"');
    expect(m('(staging)')).toBe('"(staging)"');
  });

  it('caps the number of terms', () => {
    const q = buildFtsQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));
    expect(q?.terms).toHaveLength(MAX_TERMS);
  });

  it('produces valid FTS5 syntax for hostile input', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x); INSERT INTO t VALUES ('hello gpt-4o world (x)')`);
    const inputs = [
      'a AND',
      'OR a',
      '"',
      '"a',
      'a"',
      '(a',
      'a)',
      'a:b',
      '^a',
      '+a',
      '-a',
      'a -b',
      'NEAR(a b)',
      'a * b',
      '*a',
      '{a b}',
      'a AND (b OR',
      '""""',
      "'; DROP TABLE t; --",
      'x\u0000y',
      'ü-ß',
      '∑∫',
    ];
    for (const input of inputs) {
      const q = buildFtsQuery(input);
      if (q) expect(() => db.prepare('SELECT * FROM t WHERE t MATCH ?').all(q.match), input).not.toThrow();
    }
    expect(db.prepare('SELECT * FROM t WHERE t MATCH ?').all(buildFtsQuery('gpt-4o')!.match)).toHaveLength(1);
    db.close();
  });

  it('detects CJK text', () => {
    expect(hasCjk('数据库')).toBe(true);
    expect(hasCjk('データ')).toBe(true);
    expect(hasCjk('gpt-4o')).toBe(false);
  });
});
