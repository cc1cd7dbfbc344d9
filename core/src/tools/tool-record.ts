/**
 * The file of running tool processes, `<root>/run/tool-processes.json`: a JSON list of
 * `ToolProcessEntry`, 0600, replaced atomically (temp file, fsync, rename). process-registry.ts
 * adds and removes entries; this file only reads, checks and writes it.
 *
 * A damaged file never stops anything and loses nothing:
 * - a file that is not JSON (cut short, garbled) gives up the entries that are still whole (each
 *   complete `{…}` object is parsed on its own), and says so naming the file;
 * - an entry with a wrong field is dropped alone, naming the file, the entry and the field;
 * - before a damaged file is replaced it is copied aside as `<file>.damaged-<ms>`.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepDamagedCopy, writeFileAtomic } from '../util/atomic-write.js';

/** One recorded tool process: the leader of its own process group. */
export interface ToolProcessEntry {
  /** Pid of the leader, which is also the process group id. */
  pid: number;
  /** Start time of the leader (field 22 of `/proc/<pid>/stat`, clock ticks since boot); null when unknown. */
  start: string | null;
  session: string;
  profile: string;
  /** The command (at most 500 chars), or `execute_code (<language>)`. */
  command: string;
  /** The process that started it (a daemon or `hermes chat`) and that process's start time. */
  owner: number;
  owner_start: string | null;
}

/** The file of recorded tool processes under `root`. */
export function toolProcessesFile(root: string): string {
  return join(root, 'run', 'tool-processes.json');
}

/** What `loadToolRecord` found. */
export interface LoadedToolRecord {
  /** The well-formed entries (all of them, or those that could be saved from a damaged file). */
  entries: ToolProcessEntry[];
  /** One sentence per problem, each naming the file. Empty for a good or missing file. */
  problems: string[];
  /** True when the file is not as written (not JSON, not a list, an entry dropped). */
  damaged: boolean;
}

const isPid = (v: unknown): boolean => Number.isInteger(v) && (v as number) > 0;
const isStart = (v: unknown): boolean => v === null || (typeof v === 'string' && /^\d+$/.test(v));

/** Why `x` is not a well-formed entry (the field at fault), or undefined when it is one. */
function entryProblem(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'it is not an object';
  const e = x as Record<string, unknown>;
  if (!isPid(e.pid)) return 'field pid is not a positive integer';
  if (!isStart(e.start)) return 'field start is not a number string or null';
  for (const f of ['session', 'profile', 'command'] as const)
    if (typeof e[f] !== 'string') return `field ${f} is not a string`;
  if (!isPid(e.owner)) return 'field owner is not a positive integer';
  if (!isStart(e.owner_start)) return 'field owner_start is not a number string or null';
  return undefined;
}

/**
 * The complete top-level `{…}` objects in `text`, each parsed on its own (strings and escapes
 * respected); the unparsable ones are skipped. Saves the whole entries of a file cut short.
 */
export function salvageObjects(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let begin = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) begin = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      try {
        out.push(JSON.parse(text.slice(begin, i + 1)));
      } catch {
        /* not an object after all: skipped */
      }
    }
  }
  return out;
}

/**
 * Reads the record under `root`: every well-formed entry, and what is wrong with the rest (a
 * missing file is an empty record, no problem). Never throws.
 */
export function loadToolRecord(root: string): LoadedToolRecord {
  const file = toolProcessesFile(root);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { entries: [], problems: [], damaged: false };
    return { entries: [], problems: [`cannot read ${file}: ${(err as Error).message}`], damaged: false };
  }
  const problems: string[] = [];
  let list: unknown[];
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) list = v;
    else {
      list = [];
      problems.push(`${file} is damaged: it is not a JSON list`);
    }
  } catch (err) {
    list = salvageObjects(text);
    problems.push(
      `${file} is damaged (${(err as Error).message}): ${list.length} whole entr${list.length === 1 ? 'y' : 'ies'} read from it`,
    );
  }
  const entries: ToolProcessEntry[] = [];
  list.forEach((raw, i) => {
    const why = entryProblem(raw);
    if (why === undefined) entries.push(raw as ToolProcessEntry);
    else {
      const pid = isPid((raw as { pid?: unknown } | null)?.pid)
        ? ` (pid ${(raw as { pid: number }).pid})`
        : '';
      problems.push(`${file}: entry ${i}${pid} is dropped: ${why}`);
    }
  });
  return { entries, problems, damaged: problems.length > 0 };
}

/**
 * Copies the damaged record under `root` aside as `<file>.damaged-<ms>` (0600), so nothing in it
 * is lost when it is replaced.
 * @returns the copy's path, or undefined when it could not be made.
 */
export function keepDamagedToolRecord(root: string): string | undefined {
  return keepDamagedCopy(toolProcessesFile(root));
}

/**
 * Replaces the record under `root` with `entries` (0600, atomically; `run/` made 0700 when
 * missing).
 * @throws Error when the root's `run/` folder cannot be written.
 */
export function writeToolRecord(root: string, entries: readonly ToolProcessEntry[]): void {
  mkdirSync(join(root, 'run'), { recursive: true, mode: 0o700 });
  writeFileAtomic(toolProcessesFile(root), `${JSON.stringify(entries, null, 2)}\n`, 0o600);
}
