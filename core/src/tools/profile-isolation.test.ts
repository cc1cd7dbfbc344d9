/**
 * Profiles never see each other's data through the file tools: a session of profile `work` must
 * not read the default profile's memories (or another profile's files) with read_file or
 * search_files.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { readFileTool } from './read-file.js';
import { runTool } from './registry.js';
import { createSearchFilesTool } from './search-files.js';
import { makeToolContext, ripgrepInstalled, ripgrepSkipNote } from './testing.js';
import type { ToolContext } from './types.js';

let base: string;
let rootDir: string;
let defaultHome: HermesHome;
let workHome: HermesHome;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'hermes-xprofile-'));
  rootDir = join(base, 'hroot'); // deliberately not named .hermes
  defaultHome = new HermesHome(rootDir).ensure();
  workHome = new HermesHome(rootDir, 'work').ensure();
  new HermesHome(rootDir, 'play').ensure();
  writeFileSync(defaultHome.memoryFile, 'DEFAULT PRIVATE MEMORY: pin 1234\n');
  writeFileSync(workHome.memoryFile, 'WORK MEMORY\n');
  writeFileSync(new HermesHome(rootDir, 'play').memoryFile, 'PLAY PRIVATE MEMORY\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const ctxFor = (home: HermesHome, cwd?: string): ToolContext =>
  makeToolContext(base, { home, ...(cwd ? { cwd } : {}) });
const read = (ctx: ToolContext, path: string) => runTool(readFileTool, JSON.stringify({ path }), ctx);

describe('read_file across profiles', () => {
  it("a named profile cannot read the root (default) profile's files or another profile's", async () => {
    const ctx = ctxFor(workHome);
    for (const path of [
      defaultHome.memoryFile,
      defaultHome.configFile,
      join(rootDir, 'profiles', 'play', 'memories', 'MEMORY.md'),
    ]) {
      writeFileSync(defaultHome.configFile, 'model: {}\n');
      const r = await read(ctx, path);
      expect(r.ok, path).toBe(false);
      expect(r.content).toMatch(/belongs to another Hermes profile/);
    }
    const own = await read(ctx, workHome.memoryFile);
    expect(own).toMatchObject({ ok: true });
    expect(own.content).toContain('WORK MEMORY');
  });

  it('the default profile cannot read profiles/*, but reads its own files', async () => {
    const ctx = ctxFor(defaultHome);
    const r = await read(ctx, workHome.memoryFile);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/belongs to another Hermes profile/);
    expect((await read(ctx, defaultHome.memoryFile)).content).toContain('DEFAULT PRIVATE MEMORY');
  });

  it('a symlink from the working folder into another profile is refused too', async () => {
    const ctx = ctxFor(workHome);
    const link = join(ctx.cwd, 'notes.md');
    symlinkSync(defaultHome.memoryFile, link);
    const r = await read(ctx, link);
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/another Hermes profile/);
  });
});

describe('search_files across profiles', () => {
  for (const engine of ['js', 'rg'] as const) {
    const skip = engine === 'rg' && !ripgrepInstalled();
    const title = `refuses another profile's folder and drops its files from wider searches (${engine})`;
    it.skipIf(skip)(engine === 'rg' ? title + ripgrepSkipNote() : title, async () => {
      const tool = createSearchFilesTool({ engine });
      const search = (ctx: ToolContext, args: Record<string, unknown>) =>
        runTool(tool, JSON.stringify(args), ctx);
      const work = ctxFor(workHome, base);
      const refused = await search(work, { pattern: 'MEMORY', path: defaultHome.memoriesDir });
      expect(refused.ok).toBe(false);
      expect(refused.content).toMatch(/another Hermes profile/);

      const wide = await search(work, { pattern: 'MEMORY', path: rootDir });
      expect(wide.content).toContain('WORK MEMORY');
      expect(wide.content).not.toContain('DEFAULT PRIVATE');
      expect(wide.content).not.toContain('PLAY PRIVATE');

      const names = await search(ctxFor(defaultHome, base), {
        pattern: 'MEMORY.md',
        target: 'files',
        path: base,
      });
      expect(names.content).toContain(join('hroot', 'memories', 'MEMORY.md'));
      expect(names.content).not.toContain('profiles');
    });
  }

  it('searches outside the Hermes root are unaffected', async () => {
    const ctx = ctxFor(workHome);
    mkdirSync(join(ctx.cwd, 'src'), { recursive: true });
    writeFileSync(join(ctx.cwd, 'src', 'a.ts'), 'const MEMORY = 1;\n');
    const r = await runTool(
      createSearchFilesTool({ engine: 'js' }),
      JSON.stringify({ pattern: 'MEMORY' }),
      ctx,
    );
    expect(r.content).toBe('src/a.ts:1:const MEMORY = 1;');
  });
});
