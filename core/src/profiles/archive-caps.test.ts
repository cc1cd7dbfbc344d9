/** The size and member caps of a profile import: each one refuses the archive naming itself. */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { importProfile } from './import.js';

function tarGz(files: Array<[string, number]>): Buffer {
  const blocks: Buffer[] = [];
  const head = (path: string, size: number, type: 'File' | 'Directory'): void => {
    const b = Buffer.alloc(512);
    new Header({ path, size, type, mode: 0o644, mtime: new Date(0) }).encode(b);
    blocks.push(b);
  };
  head('work/', 0, 'Directory');
  for (const [path, size] of files) {
    head(path, size, 'File');
    blocks.push(Buffer.alloc(Math.ceil(size / 512) * 512, 0x61));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

describe('import caps', () => {
  const caps = { maxMembers: 4, maxMemberBytes: 4096, maxTotalBytes: 10_000 };
  const cases: Array<[string, Array<[string, number]>, RegExp]> = [
    ['member count', [1, 2, 3, 4].map((i) => [`work/f${i}`, 10]), /more than 4 members \(member count cap\)/],
    ['member size', [['work/big', 5000]], /member "work\/big" is 5000 bytes, over the member size cap/],
    [
      'total',
      [
        ['work/a', 4000],
        ['work/b', 4000],
        ['work/c', 3000],
      ],
      /total inflated size cap/,
    ],
  ];
  for (const [name, files, message] of cases) {
    it(`refuses an archive over the ${name} cap, naming it and the archive; nothing left behind`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'hermes-caps-'));
      const file = join(dir, 'work.tar.gz');
      writeFileSync(file, tarGz(files));
      const home = new HermesHome(join(dir, 'root'));
      expect(() => importProfile(home, file, { caps })).toThrow(message);
      expect(() => importProfile(home, file, { caps })).toThrow(file);
      const profiles = join(dir, 'root', 'profiles');
      expect(existsSync(profiles) ? readdirSync(profiles) : []).toEqual([]);
    });
  }

  it('imports an archive within the caps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-caps-'));
    const file = join(dir, 'work.tar.gz');
    writeFileSync(
      file,
      tarGz([
        ['work/a', 3000],
        ['work/b', 3000],
      ]),
    );
    const r = importProfile(new HermesHome(join(dir, 'root')), file, { caps });
    expect(r.name).toBe('work');
  });
});
