/**
 * How a Hermes tool call reads in an editor: its ACP kind, title, the files it touches
 * (locations, absolute paths), a diff for file edits, and the `todo` tool's list as a plan.
 */
import { isAbsolute, resolve } from 'node:path';
import type { PlanEntry, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { TOOL_VERBS } from '@hermes/core/constants';

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: 'read',
  skill_view: 'read',
  skills_list: 'read',
  write_file: 'edit',
  patch: 'edit',
  terminal: 'execute',
  execute_code: 'execute',
  process: 'execute',
  search_files: 'search',
  web_search: 'search',
  web_extract: 'fetch',
  todo: 'think',
  clarify: 'think',
  delegate_task: 'think',
};

/** The ACP kind of a tool (`other` for tools without one, e.g. MCP tools). */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** The title of a call: the tool's running verb and its one-line summary (`Reading src/a.ts`). */
export function toolTitle(name: string, summary: string | undefined, done = false): string {
  const verb = TOOL_VERBS[name]?.[done ? 0 : 1] ?? name;
  const s = (summary ?? '').trim();
  return s ? `${verb} ${s.length > 200 ? `${s.slice(0, 199)}…` : s}` : verb;
}

/** `p` made absolute against the session's folder (ACP paths are absolute). */
function absolute(p: string, cwd: string): string {
  return isAbsolute(p) ? p : resolve(cwd, p);
}

/** The files a call touches: its `path` argument, with `offset` as the line of a read. */
export function toolLocations(name: string, args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const path = args.path;
  if (typeof path !== 'string' || path === '' || path.startsWith('~')) return [];
  const loc: ToolCallLocation = { path: absolute(path, cwd) };
  if (name === 'read_file' && typeof args.offset === 'number') loc.line = args.offset;
  return [loc];
}

/**
 * The diff an edit shows before it runs: `patch` its replaced fragment (`old_string` →
 * `new_string`); `write_file` the whole new content (`oldText` unknown here: the tool runs in the
 * daemon, which may have written the file before this is read, so none is claimed). Empty for
 * other tools.
 */
export function toolDiff(name: string, args: Record<string, unknown>, cwd: string): ToolCallContent[] {
  const [loc] = toolLocations(name, args, cwd);
  if (!loc) return [];
  if (name === 'patch' && typeof args.old_string === 'string' && typeof args.new_string === 'string')
    return [{ type: 'diff', path: loc.path, oldText: args.old_string, newText: args.new_string }];
  if (name === 'write_file' && typeof args.content === 'string')
    return [{ type: 'diff', path: loc.path, oldText: null, newText: args.content }];
  return [];
}

/**
 * The plan in a `todo` result (the JSON the model receives: `{todos: [{id, content, status}]}`),
 * or null when it is not one. `cancelled` items count as completed (ACP plans have no such state).
 */
export function planFromTodo(detail: string | undefined): PlanEntry[] | null {
  if (!detail) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return null;
  }
  const todos = (parsed as { todos?: unknown }).todos;
  if (!Array.isArray(todos)) return null;
  return todos.flatMap((t): PlanEntry[] => {
    if (!t || typeof t !== 'object') return [];
    const { content, status } = t as { content?: unknown; status?: unknown };
    if (typeof content !== 'string') return [];
    const s =
      status === 'in_progress' || status === 'completed'
        ? status
        : status === 'cancelled'
          ? 'completed'
          : 'pending';
    return [{ content, status: s, priority: 'medium' }];
  });
}
