import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';
import { looksLineNumbered, writeFileTool } from './write-file.js';

let root: string;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-write-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (args: Record<string, unknown>) => runTool(writeFileTool, JSON.stringify(args), ctx);

describe('write_file', () => {
  it('creates parent folders and reports the bytes written', async () => {
    const r = await write({ path: 'a/b/c.txt', content: 'héllo\nworld\n' });
    expect(r.ok).toBe(true);
    expect(r.content).toBe('Wrote 13 bytes (2 lines) to a/b/c.txt');
    expect(readFileSync(join(ctx.cwd, 'a/b/c.txt'), 'utf8')).toBe('héllo\nworld\n');
    expect(readdirSync(join(ctx.cwd, 'a/b'))).toEqual(['c.txt']); // no temp files left
  });

  it('replaces an existing file and keeps its mode', async () => {
    const file = join(ctx.cwd, 'run.sh');
    writeFileSync(file, 'old');
    chmodSync(file, 0o755);
    await write({ path: 'run.sh', content: '#!/bin/sh\necho new\n' });
    expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(file).mode & 0o777).toBe(0o755);
  });

  it('writes through a symlink to its target', async () => {
    const target = join(ctx.cwd, 'real.txt');
    writeFileSync(target, 'old');
    symlinkSync(target, join(ctx.cwd, 'link.txt'));
    await write({ path: 'link.txt', content: 'new' });
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it("refuses directories and Hermes's own config.yaml and .env", async () => {
    mkdirSync(join(ctx.cwd, 'd'));
    expect((await write({ path: 'd', content: 'x' })).content).toContain('is a directory');
    for (const file of [ctx.home.configFile, ctx.home.envFile]) {
      const r = await write({ path: file, content: 'approvals: {mode: off}\n' });
      expect(r.ok).toBe(false);
      expect(r.content).toContain("inside Hermes's own home");
    }
  });

  // The original's tests/tools/test_file_tools.py: read_file's display form is not file content.
  it("refuses content in read_file's numbered display form; data with pipes is fine", async () => {
    const r = await write({ path: 'config.yaml', content: ' 1|setting: new_value\n 2|other: thing\n' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/line-number prefixes.*nothing was written/);
    expect(readdirSync(ctx.cwd)).toEqual([]);
    expect(looksLineNumbered('     7|  x = 1\n     8|  y = 2\n\n     9|')).toBe(true);
    for (const ok of ['1|alice\n2|bob\n', ' 1|a\n 3|b\n', 'a | b\n', '', '  \n'])
      expect(looksLineNumbered(ok), JSON.stringify(ok)).toBe(false);
    expect((await write({ path: 'users.psv', content: '1|alice\n2|bob\n' })).ok).toBe(true);
    expect((await write({ path: 'empty.txt', content: '' })).ok).toBe(true);
  });

  it('requires content, naming the field', async () => {
    const r = await write({ path: 'x.txt' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('missing required argument: "content"');
  });
});

describe('the Hermes home is off limits to the file tools', () => {
  it('refuses cron/jobs.json and state.db but allows workspace/; read_file refuses .env', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { makeToolContext } = await import('./testing.js');
    const { runTool } = await import('./registry.js');
    const { writeFileTool } = await import('./write-file.js');
    const { readFileTool } = await import('./read-file.js');
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'hermes-home-guard-')));
    for (const rel of ['cron/jobs.json', 'state.db', 'profiles/work/.env']) {
      const r = await runTool(
        writeFileTool,
        JSON.stringify({ path: join(ctx.home.root, rel), content: 'x' }),
        ctx,
      );
      expect(r.ok, rel).toBe(false);
    }
    const ok = await runTool(
      writeFileTool,
      JSON.stringify({ path: join(ctx.home.dir, 'workspace', 'notes.md'), content: 'x' }),
      ctx,
    );
    expect(ok.ok).toBe(true);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(ctx.home.envFile, 'OPENAI_API_KEY=sk-abcdefgh12345\n');
    const read = await runTool(readFileTool, JSON.stringify({ path: ctx.home.envFile }), ctx);
    expect(read.ok).toBe(false);
    expect(read.content).toMatch(/keys or tokens/);
  });
});
