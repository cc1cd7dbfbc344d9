/** How a tool call reads on one line: a verb and a short summary of its arguments. */
import { TOOL_VERBS } from '@hermes/core/constants';
import { oneLine } from './format.js';

/**
 * The verb of a tool call: `Ran`, `Edited` … (or `Running`, `Editing` … while it runs), from the
 * tools' own definitions (the generated, zod-free `TOOL_VERBS`); a tool without one shows its name.
 */
export function toolVerb(name: string, running = false): string {
  const v = TOOL_VERBS[name];
  if (v) return running ? v[1] : v[0];
  return name;
}

const ARG_KEYS = ['command', 'path', 'pattern', 'query', 'url', 'name', 'question', 'task', 'goal', 'action'];

/** A short summary of the arguments: the daemon's summary, else the most telling argument. */
export function argsSummary(args: Record<string, unknown>, summary?: string): string {
  if (summary && summary.trim()) return oneLine(summary);
  // a script reads as its language and length, not as its first characters
  if (typeof args.code === 'string') {
    const lines = args.code.split('\n').length;
    const lang = typeof args.language === 'string' && args.language ? args.language : 'script';
    return `${lang} script, ${lines} line${lines === 1 ? '' : 's'}`;
  }
  if (Array.isArray(args.urls) && args.urls.length) {
    const urls = args.urls.filter((u): u is string => typeof u === 'string');
    return oneLine(urls.length > 1 ? `${urls[0]} +${urls.length - 1} more` : (urls[0] ?? ''));
  }
  for (const k of ARG_KEYS) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) return oneLine(v);
  }
  const first = Object.entries(args).find(([, v]) => typeof v === 'string' || typeof v === 'number');
  return first ? `${first[0]}=${oneLine(String(first[1]))}` : '';
}

const TODO_MARK: Record<string, string> = { pending: '☐', in_progress: '◐', completed: '☒', cancelled: '⊘' };

/**
 * The task list a `todo` call left, one line per item with its status mark (`☐ pending`,
 * `◐ in progress`, `☒ done`, `⊘ cancelled`): from the result (the whole list) when the daemon sent
 * it, else from the arguments of a call that wrote the whole list. Null when neither tells.
 */
export function todoList(args: Record<string, unknown>, detail: string | undefined): string | null {
  let items: unknown = undefined;
  if (detail) {
    try {
      items = (JSON.parse(detail) as { todos?: unknown }).todos;
    } catch {
      /* a cut or foreign result: fall back to the arguments */
    }
  }
  if (!Array.isArray(items) && args.merge !== true) items = args.todos;
  if (!Array.isArray(items) || items.length === 0) return null;
  return items
    .map((raw) => {
      const t = (raw ?? {}) as { content?: unknown; status?: unknown };
      const status = typeof t.status === 'string' ? t.status : 'pending';
      const text =
        typeof t.content === 'string' && t.content.trim() ? oneLine(t.content) : '(no description)';
      return `${TODO_MARK[status] ?? TODO_MARK.pending} ${text}`;
    })
    .join('\n');
}
