import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from './registry.js';
import { gitignoreToGlobs } from './search-js.js';
import { createSearchFilesTool, nameMatcher } from './search-files.js';
import { makeToolContext, ripgrepInstalled, ripgrepSkipNote } from './testing.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;

const FILES: Record<string, string | Buffer> = {
  'src/a.ts': 'export const foo = 1;\nconst bar = foo + 1;\n',
  'src/b.py': 'def foo():\n    pass\n',
  'src/deep/c.ts': '// foo here\n',
  'node_modules/x/index.js': 'foo\n',
  '.git/config': 'foo\n',
  '.hidden/h.ts': 'foo\n',
  'ignored/i.ts': 'foo\n',
  'app.log': 'foo\n',
  '.gitignore': 'ignored/\n*.log\n',
  'bin.dat': Buffer.concat([Buffer.from('foo'), Buffer.from([0, 1, 2]), Buffer.from('foo\n')]),
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-search-'));
  ctx = makeToolContext(root);
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(ctx.cwd, path)), { recursive: true });
    writeFileSync(join(ctx.cwd, path), content);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// The rg half needs ripgrep (CI installs it); without it, it is skipped and its title says why.
for (const engine of ['js', 'rg'] as const) {
  describe.skipIf(engine === 'rg' && !ripgrepInstalled())(
    `search_files (${engine} engine)${engine === 'rg' ? ripgrepSkipNote() : ''}`,
    () => {
      const tool = createSearchFilesTool({ engine });
      const search = (args: Record<string, unknown>) => runTool(tool, JSON.stringify(args), ctx);

      it('finds regex matches as path:line:text, skipping ignored, hidden, vendored and binary files', async () => {
        const r = await search({ pattern: 'foo' });
        expect(r.ok).toBe(true);
        expect(r.content.split('\n')).toEqual([
          'src/a.ts:1:export const foo = 1;',
          'src/a.ts:2:const bar = foo + 1;',
          'src/b.py:1:def foo():',
          'src/deep/c.ts:1:// foo here',
        ]);
      });

      it('filters by file_glob and supports regex syntax', async () => {
        expect((await search({ pattern: 'foo', file_glob: '*.ts' })).content.split('\n')).toEqual([
          'src/a.ts:1:export const foo = 1;',
          'src/a.ts:2:const bar = foo + 1;',
          'src/deep/c.ts:1:// foo here',
        ]);
        expect((await search({ pattern: 'def \\w+\\(\\)' })).content).toBe('src/b.py:1:def foo():');
      });

      it('searches below path, or a single file', async () => {
        expect((await search({ pattern: 'foo', path: 'src/deep' })).content).toBe(
          'src/deep/c.ts:1:// foo here',
        );
        expect((await search({ pattern: 'bar', path: 'src/a.ts' })).content).toBe(
          'src/a.ts:2:const bar = foo + 1;',
        );
      });

      it('stops at limit and says there are more', async () => {
        const r = await search({ pattern: 'foo', limit: 2 });
        const lines = r.content.split('\n');
        expect(lines.slice(0, 2)).toEqual([
          'src/a.ts:1:export const foo = 1;',
          'src/a.ts:2:const bar = foo + 1;',
        ]);
        expect(lines[2]).toContain('[showing the first 2 results; there are more');
        expect(r.summary).toBe('2+ results');
      });

      it('lists files by name glob with target "files"', async () => {
        expect((await search({ pattern: '*.ts', target: 'files' })).content.split('\n')).toEqual([
          'src/a.ts',
          'src/deep/c.ts',
        ]);
        expect((await search({ pattern: 'src/*.py', target: 'files' })).content).toBe('src/b.py');
        expect((await search({ pattern: 'c.t', target: 'files', path: 'src' })).content).toBe(
          'src/deep/c.ts',
        );
        expect((await search({ pattern: '*', target: 'files', file_glob: '*.py' })).content).toBe('src/b.py');
      });

      it('never shows the lines of a secret-bearing .env file, even through a glob that reaches it', async () => {
        writeFileSync(join(ctx.cwd, '.env'), 'API_KEY=sk-secret-foo\n');
        writeFileSync(join(ctx.cwd, 'src/.env.local'), 'TOKEN=foo\n');
        writeFileSync(join(ctx.cwd, '.env.example'), 'API_KEY=foo-placeholder\n');
        for (const file_glob of ['.env*', '*']) {
          const r = await search({ pattern: 'foo', file_glob });
          expect(r.content).not.toContain('sk-secret');
          expect(r.content).not.toContain('TOKEN=');
        }
        expect((await search({ pattern: 'placeholder', file_glob: '.env*' })).content).toMatch(
          /^(\.env\.example:1:API_KEY=foo-placeholder|No matches)/,
        );
        const direct = await search({ pattern: 'KEY', path: '.env' });
        expect(direct.ok).toBe(false);
        expect(direct.content).toMatch(/Access denied: .*secret-bearing environment file/);
      });

      it('reports no matches, bad regexes and missing paths clearly', async () => {
        expect(await search({ pattern: 'nothing-like-this' })).toMatchObject({
          ok: true,
          content: 'No matches for "nothing-like-this" in .',
        });
        const bad = await search({ pattern: '(unclosed' });
        expect(bad.ok).toBe(false);
        expect(bad.content).toMatch(/^search_files: .*(regex|unclosed|group)/is);
        expect((await search({ pattern: 'x', path: 'nope' })).content).toBe(
          'search_files: path nope does not exist',
        );
        expect((await search({ pattern: 'x', target: 'dirs' })).content).toContain('"target" must be one of');
      });
    },
  );
}

describe('search_files with rg forced where rg cannot be found', () => {
  it('says ripgrep is missing, never "No matches"', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'no-such-bin'); // a PATH without rg, on any machine
    try {
      const r = await runTool(
        createSearchFilesTool({ engine: 'rg' }),
        JSON.stringify({ pattern: 'foo' }),
        ctx,
      );
      expect(r.ok).toBe(false);
      expect(r.content).toMatch(/^search_files: ripgrep \(rg\) is not installed or not on PATH/);
      expect(r.content).not.toContain('No matches');
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('search helpers', () => {
  it('nameMatcher: basename globs, path globs and plain words', () => {
    expect(nameMatcher('*.ts')('a/b/c.ts')).toBe(true);
    expect(nameMatcher('*.ts')('a/b/c.tsx')).toBe(false);
    expect(nameMatcher('a/*/c.ts')('a/b/c.ts')).toBe(true);
    expect(nameMatcher('conf')('etc/my.config.yaml')).toBe(true);
  });

  it('gitignoreToGlobs translates simple patterns', () => {
    expect(gitignoreToGlobs('# c\n\nbuild/\n/dist\n*.log\n!keep.log\na/b\n')).toEqual([
      '**/build',
      '**/build/**',
      'dist',
      'dist/**',
      '**/*.log',
      '**/*.log/**',
      'a/b',
      'a/b/**',
    ]);
  });
});
