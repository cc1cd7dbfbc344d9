import { mkdtempSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp } from './file-stamp.js';

describe('fileStamp', () => {
  it('changes on a rewrite, a rename over the file and a touch; is undefined for no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-stamp-'));
    const file = join(dir, 'config.yaml');
    writeFileSync(file, 'a: 1\n');
    const s0 = fileStamp(file);
    writeFileSync(file, 'a: 22\n');
    const s1 = fileStamp(file);
    expect(s1).not.toBe(s0);
    writeFileSync(`${file}.tmp`, 'a: 22\n'); // an editor's save: same size, new inode
    renameSync(`${file}.tmp`, file);
    const s2 = fileStamp(file);
    expect(s2).not.toBe(s1);
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(fileStamp(file)).not.toBe(s2);
    expect(fileStamp(join(dir, 'nope.yaml'))).toBeUndefined();
  });
});
