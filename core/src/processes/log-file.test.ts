import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLog, trimLog } from './log-file.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-log-'));
  file = join(dir, 'p.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('log file', () => {
  it('leaves a file under the cap alone', () => {
    writeFileSync(file, 'short\n');
    expect(trimLog(file, 100, 50)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('short\n');
  });

  it('trims to the tail from a line start and reads with logical offsets', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('');
    writeFileSync(file, lines);
    const dropped = trimLog(file, 500, 200);
    const kept = readFileSync(file, 'utf8');
    expect(dropped + kept.length).toBe(lines.length);
    expect(kept.startsWith('line ')).toBe(true);
    expect(lines.endsWith(kept)).toBe(true);
    // an offset from before the trim still names the same byte
    const at = lines.lastIndexOf('line 99');
    expect(readLog(file, dropped, at).text).toBe('line 99\n');
    const old = readLog(file, dropped, 0);
    expect(old.skipped).toBe(dropped);
    expect(old.text).toBe(kept);
    expect(readLog(file, dropped, -8).text).toBe('line 99\n');
  });

  it('never cuts a UTF-8 character between two reads', () => {
    writeFileSync(file, 'aé€😀z');
    let offset = 0;
    let text = '';
    for (let i = 0; i < 20 && offset < 11; i++) {
      const c = readLog(file, 0, offset, 4);
      text += c.text;
      offset = c.next_offset;
    }
    expect(text).toBe('aé€😀z');
  });

  it('reads nothing from a missing file', () => {
    expect(readLog(join(dir, 'none'), 0, 0)).toEqual({ text: '', next_offset: 0, skipped: 0, total: 0 });
  });

  it('an offset past the end (a guess, or from another process) gives next_offset at the end, so the next poll sees new output', () => {
    const file = join(dir, 'past.log');
    writeFileSync(file, 'hello\n');
    const c = readLog(file, 0, 1e15);
    expect(c).toEqual({ text: '', next_offset: 6, skipped: 0, total: 6 });
    writeFileSync(file, 'hello\nworld\n');
    expect(readLog(file, 0, c.next_offset).text).toBe('world\n');
  });

  it('never follows a log replaced by a symbolic link (the process may point it at any file)', () => {
    const target = join(dir, 'precious.txt');
    const body = 'secret line\n'.repeat(100);
    writeFileSync(target, body);
    symlinkSync(target, file);
    expect(trimLog(file, 100, 50)).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(body);
    expect(readLog(file, 0, 0).text).toBe('');
    expect(readLog(file, 0, -50).text).toBe('');
  });
});
