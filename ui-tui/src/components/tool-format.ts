/** How a tool call reads on one line: a verb and a short summary of its arguments. */
import { oneLine } from './format.js';

const VERBS: Record<string, [done: string, running: string]> = {
  terminal: ['Ran', 'Running'],
  read_file: ['Read', 'Reading'],
  write_file: ['Wrote', 'Writing'],
  patch: ['Edited', 'Editing'],
  search_files: ['Searched', 'Searching'],
  todo: ['Updated todos', 'Updating todos'],
  memory: ['Updated memory', 'Updating memory'],
  clarify: ['Asked', 'Asking'],
  skills_list: ['Listed skills', 'Listing skills'],
  skill_view: ['Read skill', 'Reading skill'],
  cronjob: ['Scheduled', 'Scheduling'],
  execute_code: ['Ran code', 'Running code'],
  delegate_task: ['Delegated', 'Delegating'],
  web_search: ['Searched the web', 'Searching the web'],
  web_fetch: ['Fetched', 'Fetching'],
};

/** The verb of a tool call: `Ran`, `Edited` … (or `Running`, `Editing` … while it runs). */
export function toolVerb(name: string, running = false): string {
  const v = VERBS[name];
  if (v) return running ? v[1] : v[0];
  return name;
}

const ARG_KEYS = ['command', 'path', 'pattern', 'query', 'url', 'name', 'question', 'task', 'goal', 'action'];

/** A short summary of the arguments: the daemon's summary, else the most telling argument. */
export function argsSummary(args: Record<string, unknown>, summary?: string): string {
  if (summary && summary.trim()) return oneLine(summary);
  for (const k of ARG_KEYS) {
    const v = args[k];
    if (typeof v === 'string' && v.trim()) return oneLine(v);
  }
  const first = Object.entries(args).find(([, v]) => typeof v === 'string' || typeof v === 'number');
  return first ? `${first[0]}=${oneLine(String(first[1]))}` : '';
}
