/**
 * The `todo` tool: the session's task list (the original's tools/todo_tool.py).
 *
 * - Without `todos` it returns the list. With `todos` and `merge: false` (default) the list is
 *   replaced; with `merge: true` items are updated by `id` (only the fields given) and new ids
 *   are appended. Every call returns the whole list and counts per status, as JSON.
 * - The list lives in `ctx.todos`, which the agent loop keeps for the whole session; it is
 *   changed in place so the loop's reference stays valid.
 * - Limits (as the original): 256 items, 4,000 chars per item. Unknown statuses become `pending`;
 *   duplicate ids keep the last one.
 * - `readOnly: false`: the call changes session state, so it must not run concurrently with
 *   another `todo` call of the same response (their order matters).
 */
import type { z } from 'zod';
import { toolError } from './args.js';
import { defineTool, type ToolArgs, type Zod } from './define.js';
import type { TodoItem, ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Largest list, items. */
export const TODO_MAX_ITEMS = 256;
/** Longest item text, chars. */
export const TODO_MAX_CONTENT_CHARS = 4_000;

const STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'cancelled',
] as const satisfies readonly TodoItem['status'][];

function capContent(v: string | undefined): string {
  const t = (v ?? '').trim();
  return t.length > TODO_MAX_CONTENT_CHARS ? `${t.slice(0, TODO_MAX_CONTENT_CHARS - 1)}…` : t;
}

/**
 * One item as the model sends it, read leniently: a missing or odd `id` becomes `''` (the
 * position, when not merging), an unknown `status` or a content that is not text counts as not
 * given; numbers are taken as their text (models number items). Only an item that is not an
 * object is refused.
 */
function todoInput(z: Zod) {
  const text = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());
  return z.object(
    {
      id: text.catch('').describe('Unique item id.'),
      content: text.describe('What to do.').optional().catch(undefined),
      status: z.enum(STATUSES).describe('Item status.').optional().catch(undefined),
    },
    { error: 'must be an object with id, content and status' },
  );
}

/** One item of a `todo` call, as parsed. */
export type TodoInput = z.output<ReturnType<typeof todoInput>>;

/**
 * Computes the new list. Pure: does not touch `current`.
 * @throws Error naming the item when it lacks an `id` while merging.
 */
export function applyTodos(
  current: readonly TodoItem[],
  items: readonly TodoInput[],
  merge: boolean,
): TodoItem[] {
  const next: TodoItem[] = merge ? current.map((t) => ({ ...t })) : [];
  items.forEach((item, i) => {
    const id = item.id.trim() || (merge ? '' : String(i + 1));
    if (id === '') throw new Error(`todos[${i}] needs an "id" when merge is true`);
    const at = next.findIndex((t) => t.id === id);
    if (merge && at !== -1) {
      const t = next[at]!;
      const content = capContent(item.content);
      if (content) t.content = content;
      t.status = item.status ?? t.status;
      return;
    }
    const fresh: TodoItem = {
      id,
      content: capContent(item.content) || '(no description)',
      status: item.status ?? 'pending',
    };
    if (at !== -1) next[at] = fresh;
    else next.push(fresh);
  });
  return next.slice(0, TODO_MAX_ITEMS);
}

/** The JSON the model receives: the list and counts per status. */
export function renderTodos(todos: readonly TodoItem[]): string {
  const summary: Record<string, number> = { total: todos.length };
  for (const s of STATUSES) summary[s] = todos.filter((t) => t.status === s).length;
  return JSON.stringify({ todos, summary });
}

const parameters = (z: Zod) =>
  z.object({
    todos: z.array(todoInput(z)).describe('Items to write. Omit to read the current list.').optional(),
    merge: z
      .boolean()
      .default(false)
      .describe('true: update items by id and append new ones; false (default): replace the list.'),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  if (args.todos !== undefined) {
    let next: TodoItem[];
    try {
      next = applyTodos(ctx.todos, args.todos, args.merge);
    } catch (err) {
      return toolError('todo', (err as Error).message);
    }
    ctx.todos.splice(0, ctx.todos.length, ...next);
  }
  const done = ctx.todos.filter((t) => t.status === 'completed').length;
  return { ok: true, content: renderTodos(ctx.todos), summary: `${done}/${ctx.todos.length} done` };
}

/** The `todo` tool definition. Parameters follow the original: todos, merge. */
export const todoTool: ToolDefinition = defineTool({
  name: 'todo',
  description:
    'Keep a task list for multi-step work (3+ steps, or several tasks from the user). Call with no ' +
    'arguments to read the list. Write the whole list (merge false), or update items by id (merge true). ' +
    'List order is priority; keep only one item in_progress; mark an item completed only once it is ' +
    'verified done; if something fails, cancel it and add a revised item.',
  parameters,
  readOnly: false,
  toolsets: ['todo'],
  verb: ['Updated todos', 'Updating todos'],
  summarize: (args) => (Array.isArray(args.todos) ? `${args.todos.length} items` : 'read'),
  run,
});
