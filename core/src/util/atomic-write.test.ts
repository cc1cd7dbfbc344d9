import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepDamagedCopy, writeFileAtomic } from './atomic-write.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'hermes-atomic-'));
  dirs.push(d);
  return d;
};

describe('writeFileAtomic', () => {
  it('replaces a file whole with the given mode and leaves no temp file', () => {
    const d = tmp();
    const file = join(d, 'sub', 'state.json');
    writeFileAtomic(file, 'old');
    writeFileAtomic(file, 'new', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(d, 'sub'))).toEqual(['state.json']);
  });
});

describe('keepDamagedCopy', () => {
  it('copies the file aside under a .damaged-<ms> name with its bytes', () => {
    const d = tmp();
    const file = join(d, 'record.json');
    writeFileSync(file, '[{"pid": 12');
    const copy = keepDamagedCopy(file)!;
    expect(copy).toMatch(/record\.json\.damaged-\d+$/);
    expect(readFileSync(copy, 'utf8')).toBe('[{"pid": 12');
  });

  it('answers undefined when there is nothing to copy', () => {
    expect(keepDamagedCopy(join(tmp(), 'missing.json'))).toBeUndefined();
  });
});
