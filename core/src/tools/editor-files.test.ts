/**
 * The file tools with an editor attached (`ToolContext.editorFiles`): reads see its buffer,
 * writes of existing files go into it, new files and an editor that cannot serve go to disk.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { EditorFiles, ToolContext } from './types.js';
import { writeFileTool } from './write-file.js';

let root: string;
let ctx: ToolContext;
let file: string;
/** The editor's open buffers by absolute path; `down` makes every call fail as a lost editor would. */
let buffers: Map<string, string>;
let down: boolean;
const writes: string[] = [];

const editor: EditorFiles = {
  read: async (path) => (down ? undefined : buffers.get(path)),
  write: async (path, content) => {
    if (down) return false;
    writes.push(path);
    buffers.set(path, content);
    return true;
  },
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-editor-files-'));
  ctx = makeToolContext(root, { editorFiles: editor });
  file = join(ctx.cwd, 'notes.txt');
  writeFileSync(file, 'on disk\n');
  buffers = new Map([[file, 'in the buffer, unsaved\n']]);
  down = false;
  writes.length = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (tool: typeof readFileTool, args: Record<string, unknown>) =>
  runTool(tool, JSON.stringify(args), ctx);

describe('file tools with an editor attached', () => {
  it('read_file reads the editor’s buffer and says so', async () => {
    const r = await run(readFileTool, { path: 'notes.txt' });
    expect(r.ok).toBe(true);
    expect(r.content).toContain('in the buffer, unsaved');
    expect(r.content).toContain("[read from the editor's buffer of notes.txt]");
  });

  it('patch matches the buffer’s text and writes the result into the editor, not the disk', async () => {
    const r = await run(patchTool, { path: 'notes.txt', old_string: 'unsaved', new_string: 'edited' });
    expect(r.ok, r.content).toBe(true);
    expect(r.content).toContain('Patched notes.txt (in the editor)');
    expect(buffers.get(file)).toBe('in the buffer, edited\n');
    expect(readFileSync(file, 'utf8')).toBe('on disk\n');
  });

  it('write_file of an existing file goes into the editor; a new file is created on disk', async () => {
    expect((await run(writeFileTool, { path: 'notes.txt', content: 'replaced\n' })).content).toContain(
      '(in the editor)',
    );
    expect(buffers.get(file)).toBe('replaced\n');
    const fresh = join(ctx.cwd, 'new', 'file.txt');
    const r = await run(writeFileTool, { path: 'new/file.txt', content: 'new\n' });
    expect(r.content).not.toContain('(in the editor)');
    expect(readFileSync(fresh, 'utf8')).toBe('new\n');
    expect(writes).toEqual([file]);
  });

  it('an editor that cannot serve leaves the tools on the disk', async () => {
    down = true;
    const read = await run(readFileTool, { path: 'notes.txt' });
    expect(read.content).toContain('on disk');
    expect(read.content).not.toContain('editor');
    const p = await run(patchTool, { path: 'notes.txt', old_string: 'on disk', new_string: 'patched' });
    expect(p.ok, p.content).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('patched\n');
    expect(existsSync(file)).toBe(true);
  });
});
