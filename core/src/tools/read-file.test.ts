import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_DEFAULT_LIMIT, READ_MAX_LINE_CHARS, readFileTool } from './read-file.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-read-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const read = (args: Record<string, unknown>) => runTool(readFileTool, JSON.stringify(args), ctx);
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('numbers lines like the original ("     1|text")', async () => {
    writeFileSync(join(ctx.cwd, 'a.txt'), 'alpha\nbeta\r\n\ngamma');
    const r = await read({ path: 'a.txt' });
    expect(r.ok).toBe(true);
    expect(r.content).toBe('     1|alpha\n     2|beta\n     3|\n     4|gamma');
  });

  it('reads a window with offset (1-based) and limit, and says where to read on', async () => {
    writeFileSync(join(ctx.cwd, 'big.txt'), lines(30));
    const r = await read({ path: 'big.txt', offset: 10, limit: 3 });
    expect(r.content.split('\n').slice(0, 3)).toEqual(['    10|line 10', '    11|line 11', '    12|line 12']);
    expect(r.content).toContain('[lines 10-12 of 30; read on with offset=13]');
    const tail = await read({ path: 'big.txt', offset: 29 });
    expect(tail.content).toContain('    30|line 30');
    expect(tail.content).toContain('[lines 29-30 of 30; end of file]');
  });

  it(`reads ${READ_DEFAULT_LIMIT} lines by default and caps limit at 2000`, async () => {
    writeFileSync(join(ctx.cwd, 'huge.txt'), lines(3000));
    const r = await read({ path: 'huge.txt' });
    expect(r.content).toContain(
      `[lines 1-${READ_DEFAULT_LIMIT} of 3000; read on with offset=${READ_DEFAULT_LIMIT + 1}]`,
    );
    const capped = await read({ path: 'huge.txt', limit: 5000 });
    expect(capped.content).toContain('[lines 1-2000 of 3000; read on with offset=2001]');
    expect(capped.content).toContain('[limit capped at 2000 lines]');
  });

  it('refuses an offset past the end, and bad numbers, naming the field', async () => {
    writeFileSync(join(ctx.cwd, 'a.txt'), lines(3));
    const past = await read({ path: 'a.txt', offset: 9 });
    expect(past.ok).toBe(false);
    expect(past.content).toContain('offset 9 is past the end of a.txt, which has 3 lines');
    expect((await read({ path: 'a.txt', offset: 0 })).content).toContain('"offset" must be >= 1');
    expect((await read({ path: 'a.txt', limit: 'many' })).content).toContain(
      '"limit" must be of type integer',
    );
  });

  it('truncates very long lines', async () => {
    writeFileSync(join(ctx.cwd, 'min.js'), 'x'.repeat(READ_MAX_LINE_CHARS + 500));
    const r = await read({ path: 'min.js' });
    expect(r.content).toContain(
      `[line truncated: ${(READ_MAX_LINE_CHARS + 500).toLocaleString('en-US')} chars]`,
    );
    expect(r.content.length).toBeLessThan(READ_MAX_LINE_CHARS + 100);
  });

  it('refuses binary files, by content and by extension', async () => {
    writeFileSync(join(ctx.cwd, 'blob.dat2'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
    writeFileSync(join(ctx.cwd, 'pic.png'), 'not really a png');
    for (const path of ['blob.dat2', 'pic.png']) {
      const r = await read({ path });
      expect(r.ok).toBe(false);
      expect(r.content).toMatch(/looks like a binary file/);
    }
  });

  it('refuses directories, missing files and endless devices', async () => {
    mkdirSync(join(ctx.cwd, 'dir'));
    expect((await read({ path: 'dir' })).content).toContain('is a directory');
    expect((await read({ path: 'missing.txt' })).content).toContain('missing.txt does not exist');
    expect((await read({ path: '/dev/zero' })).content).toContain('never ends');
  });

  it('reads absolute paths and reports an empty file', async () => {
    const abs = join(root, 'outside.txt');
    writeFileSync(abs, '');
    const r = await read({ path: abs });
    expect(r).toMatchObject({ ok: true, content: `(${abs} is empty)` });
  });
});
