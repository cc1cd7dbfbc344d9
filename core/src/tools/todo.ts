/**
 * The `todo` tool: the session's task list (issue 2 "Tools"; the original's tools/todo_tool.py).
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
import { boolArg, toolError } from './args.js';
import type { TodoItem, ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Largest list, items. */
export const TODO_MAX_ITEMS = 256;
/** Longest item text, chars. */
export const TODO_MAX_CONTENT_CHARS = 4_000;

const STATUSES: readonly TodoItem['status'][] = ['pending', 'in_progress', 'completed', 'cancelled'];

function asStatus(v: unknown): TodoItem['status'] | undefined {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return (STATUSES as readonly string[]).includes(s) ? (s as TodoItem['status']) : undefined;
}

function capContent(v: unknown): string {
  const s = typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v).trim();
  return s.length > TODO_MAX_CONTENT_CHARS ? `${s.slice(0, TODO_MAX_CONTENT_CHARS - 1)}…` : s;
}

function parseTodos(raw: unknown): Record<string, unknown>[] {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw new Error(
        'argument "todos" must be an array of {id, content, status} objects (got a string that is not JSON)',
      );
    }
  }
  if (!Array.isArray(v))
    throw new Error('argument "todos" must be an array of {id, content, status} objects');
  return v.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new Error(`todos[${i}] must be an object with id, content and status`);
    }
    return item as Record<string, unknown>;
  });
}

/**
 * Computes the new list. Pure: does not touch `current`.
 * @throws Error naming the item when an item is not an object, or lacks an `id` when merging.
 */
export function applyTodos(current: readonly TodoItem[], raw: unknown, merge: boolean): TodoItem[] {
  const items = parseTodos(raw);
  const next: TodoItem[] = merge ? current.map((t) => ({ ...t })) : [];
  items.forEach((item, i) => {
    const id = String(item.id ?? '').trim() || (merge ? '' : String(i + 1));
    if (id === '') throw new Error(`todos[${i}] needs an "id" when merge is true`);
    const at = next.findIndex((t) => t.id === id);
    if (merge && at !== -1) {
      const t = next[at]!;
      const content = capContent(item.content);
      if (content) t.content = content;
      t.status = asStatus(item.status) ?? t.status;
      return;
    }
    const fresh: TodoItem = {
      id,
      content: capContent(item.content) || '(no description)',
      status: asStatus(item.status) ?? 'pending',
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

async function handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  if (args.todos !== undefined && args.todos !== null) {
    let next: TodoItem[];
    try {
      next = applyTodos(ctx.todos, args.todos, boolArg(args, 'merge') ?? false);
    } catch (err) {
      return toolError('todo', (err as Error).message);
    }
    ctx.todos.splice(0, ctx.todos.length, ...next);
  }
  const done = ctx.todos.filter((t) => t.status === 'completed').length;
  return { ok: true, content: renderTodos(ctx.todos), summary: `${done}/${ctx.todos.length} done` };
}

/** The `todo` tool definition. Parameters follow the original: todos, merge. */
export const todoTool: ToolDefinition = {
  name: 'todo',
  description:
    'Keep a task list for multi-step work (3+ steps, or several tasks from the user). Call with no ' +
    'arguments to read the list. Write the whole list (merge false), or update items by id (merge true). ' +
    'List order is priority; keep only one item in_progress; mark an item completed only once it is ' +
    'verified done; if something fails, cancel it and add a revised item.',
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'Items to write. Omit to read the current list.',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'Unique item id.' },
            content: { type: 'string', description: 'What to do.' },
            status: { type: 'string', enum: [...STATUSES], description: 'Item status.' },
          },
          required: ['id'],
        },
      },
      merge: {
        type: 'boolean',
        description: 'true: update items by id and append new ones; false (default): replace the list.',
        default: false,
      },
    },
    required: [],
  },
  readOnly: false,
  summarize: (args) => (Array.isArray(args.todos) ? `${args.todos.length} items` : 'read'),
  handler,
};
