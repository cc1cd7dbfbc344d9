/**
 * Edits shown before written (`approvals.edits: ask`, through `ctx.checkEdit`): `write_file` and
 * `patch` ask with the unified diff of the change and write only when approved; a refusal of any
 * kind (deny, timeout, nobody to ask) leaves the file as it was and the result says so.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalVerdict } from '../approvals/types.js';
import { EDIT_DIFF_MAX_CHARS, editDiff } from './edit-confirm.js';
import { patchTool } from './patch.js';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext } from './types.js';
import { writeFileTool } from './write-file.js';

let root: string;
let asked: Array<{ tool: string; path: string; diff: string }>;
let answer: ApprovalVerdict;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-edit-confirm-'));
  asked = [];
  answer = { allowed: true, reason: 'approved' };
  ctx = makeToolContext(root, {
    checkEdit: (tool, edit) => {
      asked.push({ tool, ...edit });
      return Promise.resolve(answer);
    },
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const file = (): string => join(ctx.cwd, 'notes.txt');

describe('edits shown before written', () => {
  it('patch asks with a unified diff and writes when approved', async () => {
    writeFileSync(file(), 'one\ntwo\nthree\n');
    const r = await runTool(
      patchTool,
      JSON.stringify({ path: 'notes.txt', old_string: 'two', new_string: 'TWO' }),
      ctx,
    );
    expect(r.ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'patch', path: 'notes.txt' });
    expect(asked[0]!.diff).toContain('--- a/notes.txt\n+++ b/notes.txt\n@@');
    expect(asked[0]!.diff).toContain('-two\n+TWO');
    expect(readFileSync(file(), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('a denied patch or write_file leaves the file untouched and says so', async () => {
    writeFileSync(file(), 'keep me\n');
    answer = { allowed: false, reason: 'denied', message: 'the user denied it' };
    const p = await runTool(
      patchTool,
      JSON.stringify({ path: 'notes.txt', old_string: 'keep', new_string: 'lose' }),
      ctx,
    );
    expect(p.ok).toBe(false);
    expect(p.content).toContain('notes.txt was not written: the user denied it');
    const w = await runTool(writeFileTool, JSON.stringify({ path: 'notes.txt', content: 'gone\n' }), ctx);
    expect(w.ok).toBe(false);
    expect(readFileSync(file(), 'utf8')).toBe('keep me\n');
    // a new file is not created either (timeout)
    answer = { allowed: false, reason: 'timeout', message: 'no answer in 300 s' };
    const n = await runTool(writeFileTool, JSON.stringify({ path: 'new.txt', content: 'x\n' }), ctx);
    expect(n.content).toContain('not written: no answer in 300 s');
    expect(existsSync(join(ctx.cwd, 'new.txt'))).toBe(false);
    expect(asked.at(-1)!.diff).toContain('+x');
  });

  it('without checkEdit nothing is asked', async () => {
    const plain = makeToolContext(root);
    const w = await runTool(writeFileTool, JSON.stringify({ path: 'a.txt', content: 'a\n' }), plain);
    expect(w.ok).toBe(true);
    expect(asked).toHaveLength(0);
  });

  it('caps a huge diff, keeping its head and tail', async () => {
    const before = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace(/line/g, 'LINE');
    const d = await editDiff('big.txt', before, after);
    expect(d.length).toBeLessThanOrEqual(EDIT_DIFF_MAX_CHARS + 200);
    expect(d.startsWith('--- a/big.txt')).toBe(true);
    expect(d).toContain('+LINE 4999');
    expect(d).toContain('(whole file replaced)');
  });
});
