/**
 * The file of running tool processes: written 0600, read back; a damaged file (garbage, cut
 * short, not a list, a bad entry) gives its whole entries and problems naming the file, and is
 * copied aside unchanged.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  keepDamagedToolRecord,
  loadToolRecord,
  salvageObjects,
  toolProcessesFile,
  writeToolRecord,
  type ToolProcessEntry,
} from './tool-record.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function root(): string {
  const r = mkdtempSync(join(tmpdir(), 'tool-record-'));
  roots.push(r);
  return r;
}

const entry = (pid: number, command = 'sleep 300'): ToolProcessEntry => ({
  pid,
  start: '12345',
  session: 's1',
  profile: 'default',
  command,
  owner: 4242,
  owner_start: '999',
});

function writeRaw(r: string, text: string): string {
  const file = toolProcessesFile(r);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

describe('tool process record file', () => {
  it('writes 0600 and reads the entries back; a missing file is an empty record', () => {
    const r = root();
    expect(loadToolRecord(r)).toEqual({ entries: [], problems: [], damaged: false });
    writeToolRecord(r, [entry(10), entry(11)]);
    expect(statSync(toolProcessesFile(r)).mode & 0o777).toBe(0o600);
    expect(loadToolRecord(r)).toEqual({ entries: [entry(10), entry(11)], problems: [], damaged: false });
  });

  it('a file cut short keeps its whole entries and names the file', () => {
    const r = root();
    const whole = JSON.stringify([entry(10, 'echo "}{" {x}'), entry(11), entry(12)], null, 2);
    const file = writeRaw(r, whole.slice(0, whole.lastIndexOf('"session"'))); // the third cut off
    const loaded = loadToolRecord(r);
    expect(loaded.entries).toEqual([entry(10, 'echo "}{" {x}'), entry(11)]);
    expect(loaded.damaged).toBe(true);
    expect(loaded.problems).toEqual([expect.stringMatching(/is damaged .*: 2 whole entries read from it$/)]);
    expect(loaded.problems[0]).toContain(file);
  });

  it('garbage and a non-list are damaged, with no entries and the file named', () => {
    const r = root();
    const file = writeRaw(r, '\u0000\u0001 not json');
    expect(loadToolRecord(r)).toEqual({
      entries: [],
      problems: [expect.stringContaining(`${file} is damaged`)],
      damaged: true,
    });
    writeRaw(r, '{"pid": 3}');
    expect(loadToolRecord(r).problems).toEqual([`${file} is damaged: it is not a JSON list`]);
  });

  it('drops an entry with a wrong field alone, naming the file, the entry and the field', () => {
    const r = root();
    const file = writeRaw(
      r,
      JSON.stringify([entry(10), { ...entry(11), start: 'soon' }, { ...entry(12), owner: -1 }, 7]),
    );
    const loaded = loadToolRecord(r);
    expect(loaded.entries).toEqual([entry(10)]);
    expect(loaded.problems).toEqual([
      `${file}: entry 1 (pid 11) is dropped: field start is not a number string or null`,
      `${file}: entry 2 (pid 12) is dropped: field owner is not a positive integer`,
      `${file}: entry 3 is dropped: it is not an object`,
    ]);
  });

  it('copies a damaged file aside unchanged (0600)', () => {
    const r = root();
    const text = '[{"pid": 10, "sta';
    writeRaw(r, text);
    const copy = keepDamagedToolRecord(r)!;
    expect(copy).toMatch(/tool-processes\.json\.damaged-\d+$/);
    expect(readFileSync(copy, 'utf8')).toBe(text);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
  });

  it('salvageObjects respects strings and escapes', () => {
    expect(salvageObjects('[{"a":"}\\"{"},{"b":{"c":1}},{"d":')).toEqual([{ a: '}"{' }, { b: { c: 1 } }]);
  });
});
