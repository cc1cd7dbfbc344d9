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
    expect(r.content).toMatch(/Could not find a match for old_string in app\.py .*Nothing was changed/);
    expect(r.content).toMatch(/Did you mean one of these lines\?\n {2}\d+\| {5}print\(x\)/);
    expect(content()).toBe(SOURCE);
  });

  it('edits a project .env without showing its lines back (no diff, no closest-lines hint)', async () => {
    const env = join(ctx.cwd, '.env');
    writeFileSync(env, 'API_KEY=sk-secret-1234\nDEBUG=false\n');
    const onEnv = (args: Record<string, unknown>) =>
      runTool(patchTool, JSON.stringify({ path: '.env', ...args }), ctx);
    const r = await onEnv({ old_string: 'DEBUG=false', new_string: 'DEBUG=true' });
    expect(r.ok).toBe(true);
    expect(readFileSync(env, 'utf8')).toBe('API_KEY=sk-secret-1234\nDEBUG=true\n');
    expect(r.content).toMatch(/Patched \.env: replaced 1 occurrence\. \(No diff: .*secret-bearing/);
    expect(r.content).not.toContain('sk-secret');
    const miss = await onEnv({ old_string: 'API_KEY=sk-secret-9999', new_string: 'API_KEY=x' });
    expect(miss.ok).toBe(false);
    expect(miss.content).toMatch(/Could not find a match/);
    expect(miss.content).not.toContain('sk-secret-1234');
  });

  it('refuses several matches, says how many and suggests more context', async () => {
    writeFileSync(file, SOURCE);
    const r = await patch({ old_string: '    print(x)', new_string: '    print(x + 1)' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Found 2 matches for old_string in app.py');
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
    expect(r.content).toContain('Found 2 matches');
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

describe('patch: the matching table (file, old_string, new_string → file after)', () => {
  type Row = [title: string, before: string, oldString: string, newString: string, after: string | RegExp];
  const rows: Row[] = [
    [
      'extra spaces inside a line',
      'def  foo(  x,  y  ):\n',
      'def foo( x, y ):',
      'def bar(x, y):',
      'def bar(x, y):\n',
    ],
    ['the boundary space after a match survives', 'foo   bar baz\n', 'foo bar', 'XY', 'XY baz\n'],
    [
      'a code edit keeps the space before the next operator',
      'result = compute(a,  b) + tail\n',
      'compute(a, b)',
      'compute(a, b, c)',
      'result = compute(a, b, c) + tail\n',
    ],
    ['a match ending in a space takes the whole run', 'a = foo   + bar\n', 'foo +', 'XY', /XY.*bar/],
    [
      'other indentation is re-indented to the file',
      '    def foo():\n        pass\n',
      'def foo():\n    pass',
      'def bar():\n    return 1',
      '    def bar():\n        return 1\n',
    ],
    [
      'unindented input lands at 8 columns',
      'class C:\n    def add(self, a, b):\n        result = a + b\n        return result\n',
      'result = a + b\nreturn result',
      'result = a + b\nresult *= 2\nreturn result',
      'class C:\n    def add(self, a, b):\n        result = a + b\n        result *= 2\n        return result\n',
    ],
    [
      'blank lines of new_string stay blank',
      '    a = 1\n    b = 2\n',
      'a = 1\nb = 2',
      'a = 1\n\nb = 99',
      '    a = 1\n\n    b = 99\n',
    ],
    [
      'CRLF file, LF old_string, right indentation',
      'if (x) go;\r\n        a();\r\n        b();\r\n',
      'if (x) go;\n        a();\n        b();',
      'if (x) go;\n        c();\n        b();',
      'if (x) go;\r\n        c();\r\n        b();\r\n',
    ],
    [
      'a nested block opened in new_string, CRLF',
      'def f():\r\n    a = 1\r\n    b = 2\r\n',
      'a = 1\nb = 2',
      'a = 1\nif a > 0:\n    b = 2',
      'def f():\r\n    a = 1\r\n    if a > 0:\r\n        b = 2\r\n',
    ],
    [
      'em dash matched by --',
      'return value—fallback\n',
      'return value--fallback',
      'return value or fallback',
      'return value or fallback\n',
    ],
    [
      'ellipsis kept around an edit',
      'Wait for it…and done\n',
      'Wait for it...and done',
      'Wait for it...then done',
      'Wait for it…then done\n',
    ],
    [
      'dash and quotes kept over several lines',
      'Line 1 — with dash\nLine 2 “quoted” text\nLine 3 plain\n',
      'Line 1 -- with dash\nLine 2 "quoted" text\nLine 3 plain',
      'Line 1 -- with dash\nLine 2 "quoted" text\nLine 3 changed',
      'Line 1 — with dash\nLine 2 “quoted” text\nLine 3 changed\n',
    ],
    [
      'U+2212 minus kept',
      'offset = value − 1\nprint(offset)\n',
      'offset = value - 1',
      'offset = delta - 1',
      'offset = delta − 1\nprint(offset)\n',
    ],
    [
      'ideographic space kept',
      '標題\u3000第一章\nbody text\n',
      '標題 第一章',
      '標題 第二章',
      '標題\u3000第二章\nbody text\n',
    ],
    [
      'plain text edits as is',
      'plain text here\n',
      'plain text here',
      'plain text there',
      'plain text there\n',
    ],
  ];
  it.each(rows)('%s', async (_t, before, oldString, newString, after) => {
    writeFileSync(file, before);
    const r = await patch({ old_string: oldString, new_string: newString });
    expect(r.ok, r.content).toBe(true);
    if (typeof after === 'string') expect(content()).toBe(after);
    else expect(content()).toMatch(after);
  });

  it.each<[string, string, string, string]>([
    [
      '16-column typo in an 8-column CRLF block',
      'if (x) go;\r\n        a();\r\n        b();\r\n',
      'if (x) go;\n        a();\n        b();',
      'if (x) go;\n                c();\n        b();',
    ],
    [
      'a deeper line after a line-trimmed match',
      '    x = 1\n    y = 2\n',
      'x = 1\ny = 2',
      'x = 1\n    y = 3',
    ],
    ['whitespace-only old_string', 'alpha\n   \nbeta\n', '   ', 'XXX'],
    ['newline-only old_string', 'alpha\n\nbeta\n', '\n', 'XXX'],
  ])('refuses: %s, the file untouched', async (_t, before, oldString, newString) => {
    writeFileSync(file, before);
    const r = await patch({ old_string: oldString, new_string: newString });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/Nothing was changed/);
    expect(content()).toBe(before);
  });
});
