import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchTool } from './patch.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;
let file: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-patch-'));
  ctx = makeToolContext(root);
  file = join(ctx.cwd, 'app.py');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const patch = (args: Record<string, unknown>) =>
  runTool(patchTool, JSON.stringify({ path: 'app.py', ...args }), ctx);
const content = () => readFileSync(file, 'utf8');

const SOURCE = [
  'def main():',
  '    x = 1',
  '    print(x)',
  '    return x',
  '',
  'def other():',
  '    print(x)',
  '    return None',
  '',
].join('\n');

describe('patch', () => {
  it('replaces a unique exact match and shows a diff', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: '    x = 1', new_string: '    x = 2' });
    expect(r.ok).toBe(true);
    expect(content()).toBe(SOURCE.replace('x = 1', 'x = 2'));
    expect(r.content).toContain('Patched app.py: replaced 1 occurrence.');
    expect(r.content).toContain(
      '--- a/app.py\n+++ b/app.py\n@@ -1,4 +1,4 @@\n def main():\n-    x = 1\n+    x = 2\n     print(x)\n     return x',
    );
  });

  it('refuses when old_string is not found, and changes nothing', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: 'print(y)', new_string: 'print(z)' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/old_string was not found in app\.py .*Nothing was changed/);
    expect(content()).toBe(SOURCE);
  });

  it('refuses several matches, says how many and suggests more context', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: '    print(x)', new_string: '    print(x + 1)' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('old_string matches 2 times in app.py');
    expect(r.content).toContain('Include more surrounding lines');
    expect(r.content).toContain('replace_all');
    expect(content()).toBe(SOURCE);
  });

  it('a larger old_string makes the match unique', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({
      old_string: '    print(x)\n    return None',
      new_string: '    print(-x)\n    return None',
    });
    expect(r.ok).toBe(true);
    expect(content()).toContain('def other():\n    print(-x)');
    expect(content()).toContain('def main():\n    x = 1\n    print(x)');
  });

  it('replace_all replaces every occurrence', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: 'print(x)', new_string: 'log(x)', replace_all: true });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('replaced 2 occurrences');
    expect(content()).not.toContain('print(');
    expect(content().match(/log\(x\)/g)).toHaveLength(2);
    expect(r.content.match(/^@@ /gm)).toHaveLength(2);
  });

  it('falls back to whitespace-tolerant matching and keeps the file indentation', async () => {
    writeFileSync(file, SOURCE);
    // Wrong indentation (2 spaces instead of 4) and a trailing space.
    const r = await patch({ old_string: '  x = 1 \n  print(x)', new_string: '  x = 10\n  print(x * 2)' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('line-trimmed whitespace-tolerant matching');
    expect(content()).toContain('def main():\n    x = 10\n    print(x * 2)\n    return x');
  });

  it('whitespace-normalized matching tolerates inner spacing', async () => {
    writeFileSync(file, 'a  =   1\nb = 2\n');
    const r = await patch({ old_string: 'a = 1', new_string: 'a = 3' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('whitespace-normalized');
    expect(content()).toBe('a = 3\nb = 2\n');
  });

  it('the fallback also refuses ambiguous matches', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: 'print(x)  \n', new_string: 'print(1)' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('matches 2 times');
    expect(r.content).toContain('line-trimmed matching');
    expect(content()).toBe(SOURCE);
  });

  it('keeps CRLF line ends and the file mode', async () => {
    writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
    chmodSync(file, 0o600);
    const r = await patch({ old_string: 'two', new_string: 'two\nhalf' });
    expect(r.ok).toBe(true);
    expect(content()).toBe('one\r\ntwo\r\nhalf\r\nthree\r\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('deletes text with an empty new_string', async () => {
    writeFileSync(file, 'keep\ndrop me\nkeep too\n');
    const r = await patch({ old_string: 'drop me\n', new_string: '' });
    expect(r.ok).toBe(true);
    expect(content()).toBe('keep\nkeep too\n');
  });

  it('rejects bad calls with clear errors', async () => {
    writeFileSync(file, SOURCE);
    expect((await patch({ old_string: 'x', new_string: 'x' })).content).toContain('identical');
    expect((await patch({ old_string: '', new_string: 'y' })).content).toContain(
      '"old_string" must not be empty',
    );
    expect(
      (await runTool(patchTool, JSON.stringify({ path: 'nope.py', old_string: 'a', new_string: 'b' }), ctx))
        .content,
    ).toContain('nope.py does not exist');
    expect((await patch({ new_string: 'b' })).content).toContain('missing required argument: "old_string"');
  });
});

describe('patch: normalised matches and refusals', () => {
  it('matches whitespace that differs inside a line and changes only the match', async () => {
    writeFileSync(file, 'y = compute(a,  b) + 1\n');
    const r = await patch({ old_string: 'compute(a, b)', new_string: 'compute(a, c)' });
    expect(r.ok, r.content).toBe(true);
    expect(content()).toBe('y = compute(a, c) + 1\n');
    expect(r.content).toContain('inline-whitespace');
  });

  it('matches Unicode look-alikes and keeps the file’s own characters where nothing changed', async () => {
    writeFileSync(file, '# Notes — “draft”…\nsecond line\n');
    const r = await patch({ old_string: '# Notes -- "draft"...', new_string: '# Notes -- "final"...' });
    expect(r.ok, r.content).toBe(true);
    expect(content()).toBe('# Notes — “final”…\nsecond line\n');
    expect(r.content).toMatch(/unicode-normalized.*typographic characters of the file were kept/);
  });

  it('refuses a rogue indent after a whitespace-tolerant match in a CRLF file, changing nothing', async () => {
    const crlf = 'def f():\r\n        a = 1\r\n        b = 2\r\n';
    writeFileSync(file, crlf);
    const r = await patch({
      old_string: '        a = 1\n        b = 2',
      new_string: '        a = 1\n                b = 3',
    });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/indented deeper \(16 columns\).*at most 8.*Nothing was changed/s);
    expect(content()).toBe(crlf);
  });

  it('still takes a deeper line that opens a block in a CRLF file', async () => {
    writeFileSync(file, 'def f():\r\n    a = 1\r\n');
    const r = await patch({ old_string: '    a = 1\n', new_string: '    if a:\n        a = 1\n' });
    expect(r.ok, r.content).toBe(true);
    expect(content()).toBe('def f():\r\n    if a:\r\n        a = 1\r\n');
  });

  it.each([' ', '\n', '  \n\t'])(
    'refuses the whitespace-only old_string %j, changing nothing',
    async (old) => {
      writeFileSync(file, SOURCE);
      const r = await patch({ old_string: old, new_string: 'x' });
      expect(r.ok).toBe(false);
      expect(r.content).toMatch(/old_string is only whitespace.*Nothing was changed.*non-blank line/s);
      expect(content()).toBe(SOURCE);
    },
  );
});
