import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InboundSpool, manifestFromJson } from './inbound-spool.js';

const spoolIn = () => new InboundSpool(join(mkdtempSync(join(tmpdir(), 'hermes-spool-unit-')), 'inbound'));
const image = (text: string, name = 'a.png') => ({
  kind: 'image' as const,
  data: Buffer.from(text).toString('base64'),
  name,
  mime: 'image/png',
});

describe('InboundSpool', () => {
  it('keeps images and files as private files and gives them back, images picked by index', () => {
    const spool = spoolIn();
    const m = spool.save('in-1', {
      images: [image('one'), image('two', 'b.png'), { kind: 'image', path: '/elsewhere.png' }],
      files: [{ name: 'n.txt', data: Buffer.from('notes'), kind: 'document' }],
    })!;
    expect(m.images.map((i) => i.name)).toEqual(['a.png', 'b.png']); // a path is not spooled
    expect(statSync(join(spool.dir, 'in-1')).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(join(spool.dir, 'in-1')))
      expect(statSync(join(spool.dir, 'in-1', f)).mode & 0o777).toBe(0o600);
    const all = spool.load('in-1', m);
    expect(all.images.map((i) => Buffer.from(i.data!, 'base64').toString())).toEqual(['one', 'two']);
    expect(all.files).toEqual([{ name: 'n.txt', data: Buffer.from('notes'), kind: 'document' }]);
    expect(all.lost).toEqual([]);
    const picked = spool.load('in-1', m, [1]);
    expect(picked.images.map((i) => i.name)).toEqual(['b.png']);
    expect(picked.files).toEqual([]);
  });

  it('keeps nothing for a message without bytes, and refuses an id that is not a plain name', () => {
    const spool = spoolIn();
    expect(spool.save('in-2', { images: [], files: [] })).toBeUndefined();
    expect(() => spool.save('../x', { images: [image('x')] })).toThrow('invalid inbound message id "../x"');
    expect(
      spool.load('../x', { images: [{ file: 'image-0', name: 'x', bytes: 1, kind: 'image' }], files: [] })
        .lost,
    ).toEqual([{ name: 'x', bytes: 1, kind: 'image' }]);
  });

  it('names what is gone as lost; drop and sweep remove spools', () => {
    const spool = spoolIn();
    const m = spool.save('in-3', { images: [image('x')] })!;
    spool.save('in-4', { images: [image('y')] });
    spool.drop('in-3');
    expect(spool.load('in-3', m)).toEqual({
      images: [],
      files: [],
      lost: [{ name: 'a.png', bytes: 1, kind: 'image' }],
    });
    writeFileSync(join(spool.dir, 'stray'), '');
    spool.save('in-5', { images: [image('z')] });
    expect(spool.sweep(new Set(['in-5']))).toBe(2);
    expect(readdirSync(spool.dir)).toEqual(['in-5']);
  });
});

describe('manifestFromJson', () => {
  it('takes a well-formed manifest and refuses a damaged one or one naming another path', () => {
    const ok = {
      images: [{ file: 'image-0', name: 'a', bytes: 2, mime: 'image/png', kind: 'image' }],
      files: [],
    };
    expect(manifestFromJson(ok)).toEqual(ok);
    expect(
      manifestFromJson({ images: [{ file: '../../.env', name: 'a', bytes: 2 }], files: [] }),
    ).toBeUndefined();
    expect(manifestFromJson({ images: [{ file: 'image-0', name: 5, bytes: 2 }], files: [] })).toBeUndefined();
    expect(manifestFromJson({ images: [] })).toBeUndefined();
    expect(manifestFromJson(null)).toBeUndefined();
  });
});
