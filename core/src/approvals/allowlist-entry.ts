/**
 * The text form of an approval entry: what `session` remembers and what `always` writes to
 * `command_allowlist` in config.yaml (a list of strings). One entry approves one rule hit of one
 * command, exactly as the approval card showed it — never a whole class of commands.
 *
 * Format (one line of text per entry, except that quoted code may span lines):
 *
 *     KEY: PROGRAM WORD… [on [TARGET…]] [stdin INPUT] [with PREFIX]
 *     KEY: line LINE in CWD
 *
 * - `KEY` is the rule's key (`recursive-delete`), then `: `.
 * - `PROGRAM WORD…` is the command as it runs: the program (a path resolved against the working
 *   folder when it holds a `/`), then its arguments in order. Each run of adjacent options is
 *   sorted, and clusters of two or three letters are split (`-rf`, `-fr` and `-r -f` are all
 *   `-f -r`; `-name`, `-Wall` and long options stay whole); a `--` that ends the options is
 *   dropped. The sub-command (`git branch`, `npm uninstall`) and inline code
 *   (`python3 -c 'print(1)'`, `bash -c SCRIPT`) are arguments, so they are kept exactly. Redirects
 *   follow as operator and word, operators bare (`>> [/home/u/.bashrc]`, `2>&1`).
 * - `[TARGET…]` lists what the command acts on as the rule resolved it (absolute paths, hosts,
 *   branches, inline code), sorted. Each argument that names targets is written as the list of
 *   the targets it names (`rm -f -r [/home/u/proj/build]`; a glob lists its matches); targets no
 *   argument names (a redirect's file, the repository a `git` command runs in) follow as
 *   `on [TARGET…]`. A target longer than `DIGEST_OVER` characters, or one that starts with
 *   `sha256:`, is written as `sha256:<hex>` of its text.
 * - `stdin INPUT`: what the command reads as input from the line — the commands piped into it
 *   (the whole upstream pipeline) and here-document text. `with PREFIX`: the wrappers it runs
 *   under and the variables set for it (`with sudo`, `with 'LD_PRELOAD=x.so'`), its own and those
 *   of the command that runs it (`sudo bash -c 'rm …'` gives the `rm` hit `with sudo`).
 * - `line LINE in CWD` is for a hit that names no parsed command (a text pattern on a line the
 *   grammar could not parse): the whole line, trimmed, and the folder it ran in.
 * - Words are written bare when plain (letters, digits and `_%+=:,./~^@-`), else in single quotes
 *   as the shell writes them (`'it'\''s'`). Arguments that would read as something else are
 *   quoted: starting with `-` (an argument after `--`), the words `on`, `stdin`, `with`, `line`,
 *   `in`, `@`, and `sha256:…`. An argument longer than `DIGEST_OVER` characters is written as
 *   `sha256:<hex>` of its text (a long script is matched exactly without filling config.yaml).
 *
 * An entry covers a hit when their key and everything but the target lists (the `shape`) are
 * equal, each argument's list of the hit is a subset of the entry's list at the same place (a
 * glob that now matches fewer files), and the `on` lists are equal. Targets are exact strings: no
 * prefix or child-path widening; and an argument that is missing is never covered (`git push
 * --force origin` is not `git push --force origin main` with a target less).
 *
 * `command_allowlist` may also hold the old forms (see `classifyAllowlistEntry`): a bare rule key
 * or a rule description approved a whole class and is no longer honoured; any other string is an
 * exact command line, honoured for that line only (whitespace-normalised).
 */

/** What an entry says, parsed. */
export interface AllowEntry {
  /** The rule key. */
  key: string;
  /** The canonical text with each target list written `@`: equal shapes approve the same command. */
  shape: string;
  /** The target lists in text order, each sorted and without duplicates; `on` marks the `on […]` one. */
  lists: { targets: string[]; on: boolean }[];
  /** Every target of the entry, sorted, without duplicates. */
  targets: string[];
  /** The canonical text (what is stored and shown). */
  text: string;
}

/** One word of an entry, as the builder (allowlist.ts) gives it. */
export type EntryWord =
  /** A program, argument or other value from the command: quoted when not plain. */
  | { kind: 'value'; value: string }
  /** An option: written bare when plain. */
  | { kind: 'flag'; value: string }
  /** A redirect operator (`>`, `2>>`) or a keyword of the format: written bare. */
  | { kind: 'bare'; value: string }
  /** An argument that names targets: the targets it names. */
  | { kind: 'targets'; targets: readonly string[] };

/** Arguments longer than this are written as `sha256:<hex>`. */
export const DIGEST_OVER = 400;

/** Words that structure the format; an argument equal to one is quoted. */
const KEYWORDS = new Set(['on', 'stdin', 'with', 'line', 'in', '@']);
const PLAIN = /^[A-Za-z0-9_%+=:,./~^@-]+$/;
const KEY = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/** `value` in single quotes, as a shell would read it back. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** How an argument or program is written. */
function valueText(value: string): string {
  const plain = PLAIN.test(value) && !value.startsWith('-') && !KEYWORDS.has(value);
  return plain && !value.startsWith('sha256:') ? value : shellQuote(value);
}

/** How a target is written inside `[…]`. */
function targetText(value: string): string {
  return /^[^\s'\\[\]]+$/.test(value) ? value : shellQuote(value);
}

function wordText(w: Exclude<EntryWord, { kind: 'targets' }>): string {
  if (w.kind === 'value') return valueText(w.value);
  if (w.kind === 'flag') return /^-[A-Za-z0-9_%+=:,./~^@-]*$/.test(w.value) ? w.value : shellQuote(w.value);
  return w.value;
}

/** A word of the text, or a target list. */
type Part = string | { targets: string[] };

/**
 * The entry for a key and its words, with `on` the targets no argument names. Each list is
 * sorted and deduplicated.
 */
export function makeEntry(key: string, words: readonly EntryWord[], on: Iterable<string> = []): AllowEntry {
  const list = (t: Iterable<string>): { targets: string[] } => ({ targets: [...new Set(t)].sort() });
  const parts: Part[] = words.map((w) => (w.kind === 'targets' ? list(w.targets) : wordText(w)));
  const rest = list(on);
  if (rest.targets.length > 0) {
    // after the command's own words, before `stdin` / `with`
    const tail = parts.findIndex((t) => t === 'stdin' || t === 'with');
    parts.splice(tail < 0 ? parts.length : tail, 0, 'on', rest);
  }
  return finish(key, parts);
}

function finish(key: string, parts: readonly Part[]): AllowEntry {
  const lists = parts.flatMap((p, i) =>
    typeof p === 'string' ? [] : [{ targets: p.targets, on: parts[i - 1] === 'on' }],
  );
  const text = (list: (p: { targets: string[] }) => string): string =>
    `${key}: ${parts.map((p) => (typeof p === 'string' ? p : list(p))).join(' ')}`;
  return {
    key,
    shape: text(() => '@'),
    lists,
    targets: [...new Set(lists.flatMap((l) => l.targets))].sort(),
    text: text((p) => `[${p.targets.map(targetText).join(' ')}]`),
  };
}

type Token = { quoted: boolean; value: string } | { list: string[] };

/**
 * Splits an entry's body into words (single quotes and backslashes as in the shell) and target
 * lists (`[…]`). @returns null when a quote or list is not closed.
 */
function tokenize(s: string): Token[] | null {
  const out: Token[] = [];
  let i = 0;
  const word = (stop: (c: string) => boolean): { quoted: boolean; value: string } | null => {
    let value = '';
    let quoted = false;
    while (i < s.length && !stop(s[i]!)) {
      const c = s[i]!;
      if (c === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) return null;
        value += s.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (c === '\\' && i + 1 < s.length) {
        value += s[i + 1];
        quoted = true;
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
    return { quoted, value };
  };
  const space = (c: string): boolean => /\s/.test(c);
  for (;;) {
    while (i < s.length && space(s[i]!)) i++;
    if (i >= s.length) return out;
    if (s[i] === '[') {
      i++;
      const items: string[] = [];
      for (;;) {
        while (i < s.length && space(s[i]!)) i++;
        if (i >= s.length) return null;
        if (s[i] === ']') break;
        const w = word((c) => space(c) || c === ']');
        if (!w) return null;
        items.push(w.value);
      }
      i++;
      out.push({ list: items });
      continue;
    }
    const w = word(space);
    if (!w) return null;
    out.push(w);
  }
}

/**
 * Reads an entry written by `makeEntry` (or by hand in the same format).
 * @returns the entry in canonical form, or null when `text` is not in the entry format.
 */
export function parseEntry(text: string): AllowEntry | null {
  const m = /^\s*([^:\s]+): (.*)$/s.exec(text);
  if (!m || !KEY.test(m[1]!)) return null;
  const tokens = tokenize(m[2]!);
  const head = tokens?.[0];
  if (
    !tokens ||
    !head ||
    'list' in head ||
    (!head.quoted && KEYWORDS.has(head.value) && head.value !== 'line')
  )
    return null;
  const parts: Part[] = tokens.map((t) => {
    if ('list' in t) return { targets: [...new Set(t.list)].sort() };
    // bare words stay as written; quoted ones are written as the builder writes values
    return t.quoted ? valueText(t.value) : t.value;
  });
  return finish(m[1]!, parts);
}

/** A `command_allowlist` string, classified. */
export type AllowlistItem =
  /** An entry in the format above: approves one command shape on its targets. */
  | { kind: 'entry'; text: string; entry: AllowEntry }
  /** An old full command line: approves that exact line (whitespace-normalised). */
  | { kind: 'exact'; text: string; line: string }
  /** An old bare rule key or rule description: approved a whole class; no longer honoured. */
  | { kind: 'class'; text: string };

/** Rule keys and descriptions the old lists held (to recognise class entries). */
export interface KnownClasses {
  keys: Iterable<string>;
  descriptions: Iterable<string>;
}

/**
 * A command line with runs of whitespace outside quotes made one space, trimmed: how old exact
 * entries are compared.
 */
export function normalizeWhitespace(line: string): string {
  let out = '';
  let quote: string | null = null;
  let pendingSpace = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === null && /\s/.test(c)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += c;
    if (c === '\\' && quote !== "'" && i + 1 < line.length) out += line[++i];
    else if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = null;
  }
  return out;
}

/**
 * Says what a `command_allowlist` string is: an entry of the current format; an old class entry
 * (a bare key such as `recursive-delete` — any kebab-case word with a `-` or `_` — or one of
 * `known`'s keys or descriptions, compared ignoring case); otherwise an old exact command line.
 */
export function classifyAllowlistEntry(text: string, known?: KnownClasses): AllowlistItem {
  const entry = parseEntry(text);
  if (entry) return { kind: 'entry', text, entry };
  const t = text.trim();
  const lower = t.toLowerCase();
  const isKnown = (list: Iterable<string> | undefined): boolean => {
    for (const k of list ?? []) if (k.toLowerCase() === lower) return true;
    return false;
  };
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(t) || isKnown(known?.keys) || isKnown(known?.descriptions))
    return { kind: 'class', text };
  return { kind: 'exact', text, line: normalizeWhitespace(t) };
}

/** The warning for an old class entry, for `hermes config check`, `hermes chat` and the daemon log. */
export function classEntryWarning(text: string): string {
  return (
    `command_allowlist entry '${text}' approves a whole class and is no longer honoured; ` +
    'remove it with /permissions or `hermes config allowlist remove`'
  );
}
