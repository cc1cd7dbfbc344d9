import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadPositionFile } from './read-position.js';

describe('ReadPositionFile', () => {
  it('keeps the positions across instances (0600), and reads junk as nothing', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hermes-dc-pos-')), 'platforms', 'discord.json');
    expect(new ReadPositionFile(file).load().size).toBe(0);
    new ReadPositionFile(file).save(new Map([['111', '222']]));
    expect([...new ReadPositionFile(file).load()]).toEqual([['111', '222']]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '{"taken": {"../x": "1", "5": 7, "6": "9"}}');
    expect([...new ReadPositionFile(file).load()]).toEqual([['6', '9']]);
    writeFileSync(file, 'not json');
    expect(new ReadPositionFile(file).load().size).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});
