import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTool } from './registry.js';
import { makeToolContext } from './testing.js';
import { TODO_MAX_CONTENT_CHARS, TODO_MAX_ITEMS, todoTool } from './todo.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-todo-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const todo = async (args: Record<string, unknown>) => {
  const r = await runTool(todoTool, JSON.stringify(args), ctx);
  return { ...r, data: r.ok ? JSON.parse(r.content) : undefined };
};

describe('todo', () => {
  it('replaces the list, and reads it back with no arguments', async () => {
    const list = ctx.todos;
    await todo({
      todos: [
        { id: '1', content: 'write code', status: 'in_progress' },
        { id: '2', content: 'test it', status: 'pending' },
      ],
    });
    expect(ctx.todos).toBe(list); // changed in place: the loop's reference stays valid
    const r = await todo({});
    expect(r.data.todos).toEqual([
      { id: '1', content: 'write code', status: 'in_progress' },
      { id: '2', content: 'test it', status: 'pending' },
    ]);
    expect(r.data.summary).toEqual({ total: 2, pending: 1, in_progress: 1, completed: 0, cancelled: 0 });
    expect(r.summary).toBe('0/2 done');
  });

  it('merges by id: updates given fields, appends new ids', async () => {
    await todo({
      todos: [
        { id: 'a', content: 'one' },
        { id: 'b', content: 'two' },
      ],
    });
    const r = await todo({
      merge: true,
      todos: [
        { id: 'a', status: 'completed' },
        { id: 'c', content: 'three' },
      ],
    });
    expect(r.data.todos).toEqual([
      { id: 'a', content: 'one', status: 'completed' },
      { id: 'b', content: 'two', status: 'pending' },
      { id: 'c', content: 'three', status: 'pending' },
    ]);
  });

  it('without merge, the new list replaces the old one', async () => {
    await todo({ todos: [{ id: 'a', content: 'one' }] });
    const r = await todo({ todos: [{ id: 'z', content: 'only', status: 'bogus' }] });
    expect(r.data.todos).toEqual([{ id: 'z', content: 'only', status: 'pending' }]);
  });

  it('accepts todos sent as a JSON string, and rejects other shapes naming the field', async () => {
    const r = await runTool(todoTool, JSON.stringify({ todos: '[{"id":"1","content":"x"}]' }), ctx);
    expect(JSON.parse(r.content).todos).toEqual([{ id: '1', content: 'x', status: 'pending' }]);
    const str = await todo({ todos: 'not json' });
    expect(str.ok).toBe(false);
    expect(str.content).toContain('"todos" must be of type array');
    const bad = await todo({ todos: [{ id: '1' }, 'oops'] });
    expect(bad.ok).toBe(false);
    expect(bad.content).toContain('argument "todos[1]" must be an object');
  });

  it('caps item count and content length', async () => {
    const many = Array.from({ length: TODO_MAX_ITEMS + 10 }, (_, i) => ({ id: String(i), content: 'x' }));
    expect((await todo({ todos: many })).data.todos).toHaveLength(TODO_MAX_ITEMS);
    const long = await todo({ todos: [{ id: '1', content: 'y'.repeat(TODO_MAX_CONTENT_CHARS + 100) }] });
    expect(long.data.todos[0].content).toHaveLength(TODO_MAX_CONTENT_CHARS);
  });
});
