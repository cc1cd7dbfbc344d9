/**
 * `approvals.edits: ask` through `hermes acp`: a `patch` becomes a `session/request_permission`
 * whose tool call carries the change as a `diff` item (absolute path, old and new text) and the
 * unified diff as text; allowing it writes the file, rejecting it leaves the file as it was.
 * Run `npm run build` first.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons, tempRoot } from './support/gateway-process.js';
import { writeConfig } from './support/gateway-session-kit.js';
import { initializeEditor, startAcpEditor, type AcpEditor } from './support/acp-editor.js';

let root: string;
let work: string;
let model: FakeModelServer;
let ed: AcpEditor;

beforeAll(async () => {
  root = tempRoot('hermes-acp-edit-');
  work = tempRoot('hermes-acp-edit-project-');
  model = await startFakeModelServer();
  writeConfig(root, model.url, 'approvals:\n  edits: ask\n');
  ed = await startAcpEditor(root, { cwd: work });
});

afterAll(async () => {
  await ed?.close();
  if (root) killDaemons(root);
  await model?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('hermes acp with approvals.edits: ask', () => {
  it('asks with the diff; allowed it writes, rejected it does not', async () => {
    await initializeEditor(ed);
    const sid = (await ed.conn.agent.request('session/new', { cwd: work, mcpServers: [] })).sessionId;
    writeFileSync(join(work, 'a.txt'), 'hello world\n');
    const patch = (from: string, to: string) => ({
      toolCalls: [{ name: 'patch', arguments: { path: 'a.txt', old_string: from, new_string: to } }],
    });
    model.push(patch('hello', 'goodbye'), patch('world', 'moon'), { text: 'Edited.' });
    let n = 0;
    ed.onPermission(() => ({ outcome: { outcome: 'selected', optionId: n++ === 0 ? 'once' : 'deny' } }));
    const res = await ed.prompt(sid, 'edit a.txt twice');
    expect(res.stopReason).toBe('end_turn');
    expect(ed.permissions).toHaveLength(2);
    const asked = ed.permissions[0]!;
    expect(asked.toolCall).toMatchObject({ title: 'Write a.txt', kind: 'edit' });
    expect(asked.options.map((o) => o.optionId)).toEqual(['once', 'deny']);
    expect(asked.toolCall.content).toEqual(
      expect.arrayContaining([
        { type: 'diff', path: join(work, 'a.txt'), oldText: 'hello world', newText: 'goodbye world' },
        expect.objectContaining({
          type: 'content',
          content: expect.objectContaining({ text: expect.stringContaining('-hello world\n+goodbye world') }),
        }),
      ]),
    );
    // the first edit was allowed, the second rejected
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('goodbye world\n');
    const tool = (model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role === 'tool')
      .at(-1);
    expect(tool?.content).toContain('a.txt was not written');
  });
});
