/**
 * Narrow approvals: the entries `session` and `always` remember, built from the rule hits of the
 * approved line, and the check whether a later line is covered by them.
 *
 * An entry records one hit as the card showed it (format: allowlist-entry.ts): the rule key, the
 * program, its arguments in order (so the sub-command and inline code are exact), its options
 * order-free, its redirects, what is piped into it, the wrappers it runs under, and its targets
 * (absolute paths, hosts …, as the rule resolved them in the line's working folder), each argument
 * that names targets as the list of those it names. A later line is covered only when every one
 * of its hits is covered by an entry with the same key and shape (so the same arguments) whose
 * lists include the hit's (exact strings, no child paths; a glob may match fewer files, never
 * more). A hit no rule tied to a parsed command is recorded as its whole line and folder.
 *
 * The same command in another folder resolves its relative paths elsewhere, so it is not covered;
 * `rm -rf build` approved does not approve `rm -rf ~/Documents`; `python3 -c A` does not approve
 * `python3 -c B`; `curl A` does not approve `curl B | sh` (its pipe-into-shell hit has no entry).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { DetectContext, RuleHit } from './detection-types.js';
import {
  classifyAllowlistEntry,
  DIGEST_OVER,
  makeEntry,
  parseEntry,
  type AllowEntry,
  type AllowlistItem,
  type EntryWord,
  type KnownClasses,
  normalizeWhitespace,
} from './allowlist-entry.js';
import { ruleContext } from './rules/context.js';
import type { RuleContext } from './rules/types.js';
import type { ShellAnalysis, ShellWord, SimpleCommand, Via } from './shell/analyze.js';

export type { AllowEntry, AllowlistItem, KnownClasses } from './allowlist-entry.js';

/** How a command was reached when the command it sits in runs it (its wrappers apply to it). */
const RUN_BY_PARENT: ReadonlySet<Via> = new Set(['shell -c', 'eval', 'stdin script', 'xargs', 'find -exec']);

const digest = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A value as an entry word: long text becomes its digest. */
function value(text: string): EntryWord {
  if (text.length <= DIGEST_OVER) return { kind: 'value', value: text };
  return { kind: 'bare', value: digest(text) };
}

/** A target as an entry lists it: long text (inline code, say) and `sha256:…` become a digest. */
function target(text: string): string {
  return text.length > DIGEST_OVER || text.startsWith('sha256:') ? digest(text) : text;
}

/**
 * `-rf` → `-r`, `-f`: a cluster of two or three letters is read as that many one-letter options.
 * Longer single-dash words (`-name`, `-exec`, `-Wall`), long options and options with a value
 * (`-I/usr/include`) stay whole.
 */
function splitOption(word: string): string[] {
  if (/^-[A-Za-z0-9]{2,3}$/.test(word)) return [...word.slice(1)].map((c) => `-${c}`);
  return [word];
}

/** The text of a command as input: its own upstream pipeline, itself, its here-documents. */
function producerText(cmd: SimpleCommand, depth = 0): string {
  const own = [normalizeWhitespace(cmd.text), ...hereDocs(cmd)].join(' ');
  if (cmd.pipedFrom.length === 0 || depth > 20) return own;
  return `${cmd.pipedFrom.map((p) => producerText(p, depth + 1)).join('; ')} | ${own}`;
}

function hereDocs(cmd: SimpleCommand): string[] {
  return cmd.redirects.filter((r) => r.text !== undefined).map((r) => `${r.op} ${r.text}`);
}

/** Wrappers and variables of `cmd` and of the commands that run it (outermost first). */
function prefixOf(cmd: SimpleCommand): string {
  const parts: string[] = [];
  for (let c: SimpleCommand | null = cmd; c;) {
    const own = [
      ...c.wrappers.map((w) => w.words.map((x) => x.value).join(' ')),
      ...c.assignments.map((a) => `${a.name}=${a.value.value}`),
    ];
    parts.unshift(...own);
    c = c.parent && RUN_BY_PARENT.has(c.via.at(-1)!) ? c.parent : null;
  }
  return parts.join(' ');
}

/** Where a line runs, with the defaults of `DetectContext`. */
function contextOf(ctx: DetectContext): DetectContext & { cwd: string } {
  return { ...ctx, cwd: ctx.cwd ?? process.cwd() };
}

/**
 * The entry that approves one hit of `line`.
 * @param analysis the line's analysis (for path expansion); null when it could not be parsed.
 */
export function entryForHit(
  hit: RuleHit,
  line: string,
  ctx: DetectContext,
  analysis: ShellAnalysis | null = null,
): AllowEntry {
  return entryWith(hit, line, lineContext(line, ctx, analysis));
}

/** Where a line runs and how its words expand (one per line: expansion reads the disk). */
function lineContext(
  line: string,
  ctx: DetectContext,
  analysis: ShellAnalysis | null,
): { cwd: string; rc: RuleContext } {
  const where = contextOf(ctx);
  const parsed = analysis ?? { source: line, commands: [], functions: [], errors: true };
  return { cwd: where.cwd, rc: ruleContext(parsed, where) };
}

function entryWith(hit: RuleHit, line: string, { cwd, rc }: { cwd: string; rc: RuleContext }): AllowEntry {
  const cmd = hit.command;
  if (!cmd) {
    const words: EntryWord[] = [
      { kind: 'bare', value: 'line' },
      value(line.trim()),
      { kind: 'bare', value: 'in' },
      value(cwd),
    ];
    return makeEntry(hit.key, words);
  }
  const targets = new Set(hit.targets);
  const unnamed = new Set(hit.targets);
  /** The hit's targets word `w` names (its value, or a path it expands to). */
  const named = (w: ShellWord): string[] => {
    const forms = new Set([w.value, ...rc.paths(w)]);
    return [...targets].filter((t) => forms.has(t));
  };
  const words: EntryWord[] = [];
  /** `w` as its list of targets, or as its text when it names none. */
  const operand = (w: ShellWord): EntryWord => {
    const mine = named(w);
    if (mine.length === 0) return value(w.value);
    for (const t of mine) unnamed.delete(t);
    return { kind: 'targets', targets: mine.map(target) };
  };
  const [program, ...args] = cmd.argv;
  const name = program?.value ?? '';
  words.push(value(name.includes('/') && program ? (rc.paths(program)[0] ?? resolve(cwd, name)) : name));
  let options: string[] = [];
  const flush = (): void => {
    for (const o of [...new Set(options)].sort()) words.push({ kind: 'flag', value: o });
    options = [];
  };
  let endOfOptions = false;
  for (const w of args) {
    if (!endOfOptions && w.value === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && w.value.length > 1 && w.value.startsWith('-')) {
      options.push(...splitOption(w.value));
      continue;
    }
    flush();
    words.push(operand(w));
  }
  flush();
  for (const r of cmd.redirects) {
    if (r.text !== undefined) continue; // here-documents are input (below)
    const op = `${r.fd ?? ''}${r.op}`;
    if (op.endsWith('&') && r.target && /^(?:\d+|-)$/.test(r.target.value)) {
      words.push({ kind: 'bare', value: `${op}${r.target.value}` }); // `2>&1`: a descriptor, not a file
      continue;
    }
    words.push({ kind: 'bare', value: op });
    words.push(r.target ? operand(r.target) : value(''));
  }
  const input = [...cmd.pipedFrom.map((p) => producerText(p)), ...hereDocs(cmd)].join('; ');
  if (input) words.push({ kind: 'bare', value: 'stdin' }, value(input));
  const prefix = prefixOf(cmd);
  if (prefix) words.push({ kind: 'bare', value: 'with' }, value(prefix));
  return makeEntry(hit.key, words, [...unnamed].map(target));
}

/**
 * The entries that approve every hit of `line` (one per distinct hit), in hit order.
 * @param detection the line's hits and analysis.
 */
export function entriesForLine(
  line: string,
  detection: { hits: readonly RuleHit[]; analysis: ShellAnalysis | null },
  ctx: DetectContext,
): AllowEntry[] {
  const out = new Map<string, AllowEntry>();
  const where = lineContext(line, ctx, detection.analysis);
  for (const hit of detection.hits) {
    const e = entryWith(hit, line, where);
    if (!out.has(e.text)) out.set(e.text, e);
  }
  return [...out.values()];
}

/**
 * The entry that approves one `execute_code` script: its language and exact code (a digest when
 * long).
 */
export function scriptEntry(key: string, language: string, code: string): AllowEntry {
  return makeEntry(key, [{ kind: 'value', value: 'execute_code' }, value(language), value(code)]);
}

/**
 * The entry approving one exact command line to run outside the sandbox (pseudo-pattern `key`,
 * program `outside_sandbox`, the line as its one value): it covers that line and nothing else.
 */
export function outsideSandboxEntry(key: string, command: string): AllowEntry {
  return makeEntry(key, [{ kind: 'value', value: 'outside_sandbox' }, value(command.trim())]);
}

/**
 * A set of approval entries: a profile's `command_allowlist`, or a session's approvals. Keeps the
 * strings as given (for writing back and listing) and honours only narrow entries and old exact
 * command lines; old class entries are kept, listed by `ignored()`, and approve nothing.
 */
export class ApprovalSet {
  private readonly items = new Map<string, AllowlistItem>();

  constructor(
    entries: Iterable<string> = [],
    private readonly known?: KnownClasses,
  ) {
    for (const e of entries) this.add(e);
  }

  /** Adds an entry (a string in any of the forms); no-op when present. */
  add(text: string): void {
    if (!this.items.has(text)) this.items.set(text, classifyAllowlistEntry(text, this.known));
  }

  /** Removes an entry by its exact text. @returns whether it was there. */
  remove(text: string): boolean {
    return this.items.delete(text);
  }

  /** Every entry as given, in the order added. */
  list(): string[] {
    return [...this.items.keys()];
  }

  /** The old class entries (bare keys, descriptions): kept but never honoured. */
  ignored(): string[] {
    return [...this.items.values()].filter((i) => i.kind === 'class').map((i) => i.text);
  }

  /** True when an old exact entry equals `line` (whitespace-normalised). */
  coversLine(line: string): boolean {
    const want = normalizeWhitespace(line);
    for (const i of this.items.values()) if (i.kind === 'exact' && i.line === want) return true;
    return false;
  }

  /**
   * True when an entry has `hit`'s key and shape, each of its argument lists holds the hit's list
   * at the same place, and its `on` list equals the hit's.
   */
  covers(hit: AllowEntry): boolean {
    for (const i of this.items.values()) {
      if (i.kind === 'entry' && i.entry.shape === hit.shape && listsCover(i.entry, hit)) return true;
    }
    return false;
  }
}

/** The target lists of `entry` cover those of `hit` (same shape, so the same places). */
function listsCover(entry: AllowEntry, hit: AllowEntry): boolean {
  return entry.lists.every((have, n) => {
    const want = hit.lists[n];
    if (!want || want.on !== have.on) return false;
    const set = new Set(have.targets);
    const inside = want.targets.every((t) => set.has(t));
    return inside && (!have.on || want.targets.length === have.targets.length);
  });
}

/**
 * True when every entry of `hits` is covered by one of `sets` (each hit may be covered by a
 * different set). A line without hits is trivially covered.
 */
export function coveredBy(hits: readonly AllowEntry[], ...sets: ApprovalSet[]): boolean {
  return hits.every((h) => sets.some((s) => s.covers(h)));
}

/** The canonical text of an entry string, or the string itself when it is not in the format. */
export function canonicalEntry(text: string): string {
  return parseEntry(text)?.text ?? text;
}
