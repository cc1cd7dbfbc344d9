import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ripgrepInstalled, ripgrepSkipNote } from '../tools/testing.js';
import { listFiles, type ListEngine } from './list-files.js';

let root: string;
const put = (rel: string, text = 'x'): void => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};
const list = async (engine: ListEngine, dir = root, maxFiles?: number): Promise<string[]> => {
  const out: string[] = [];
  await listFiles(dir, (b) => out.push(...b), { engine, ...(maxFiles ? { maxFiles } : {}) });
  return out.sort();
};
const gitOk = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
const gitSkipNote = gitOk ? '' : ' [skipped: git is not installed]';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-list-'));
  put('src/app.ts');
  put('src/gen/out.js');
  put('src/keep.log');
  put('debug.log');
  put('.github/ci.yml');
  put('node_modules/pkg/index.js');
  put('docs/.gitignore', 'draft*.md\n');
  put('docs/draft-1.md');
  put('docs/guide.md');
  put('.gitignore', '*.log\n!src/keep.log\nsrc/gen/\n');
  if (gitOk) execFileSync('git', ['init', '-q'], { cwd: root });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const expected = [
  '.github/ci.yml',
  '.gitignore',
  'docs/.gitignore',
  'docs/guide.md',
  'src/app.ts',
  'src/keep.log',
];

describe('listing files for completion', () => {
  it('js: applies every .gitignore on the way (negation, folders, nested), skips node_modules and .git', async () => {
    expect(await list('js')).toEqual(expected);
  });

  it.runIf(gitOk)(`git: tracked and untracked files that are not ignored${gitSkipNote}`, async () => {
    expect(await list('git')).toEqual(expected);
  });

  it.runIf(ripgrepInstalled())(`rg: the same files${ripgrepSkipNote()}`, async () => {
    expect(await list('rg')).toEqual(expected);
  });

  it('js: a sub-folder listed alone still follows the .gitignore files above it', async () => {
    const out: string[] = [];
    await listFiles(join(root, 'src'), (b) => out.push(...b), { engine: 'js', ignoreFrom: root });
    expect(out.sort()).toEqual(['app.ts', 'keep.log']); // not gen/ (src/gen/ above), keep.log re-included
    const docs: string[] = [];
    await listFiles(join(root, 'docs'), (b) => docs.push(...b), { engine: 'js', ignoreFrom: root });
    expect(docs.sort()).toEqual(['.gitignore', 'guide.md']);
  });

  it('js: stops at the cap', async () => {
    expect((await list('js', root, 2)).length).toBe(2);
  });
});
