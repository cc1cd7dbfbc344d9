/**
 * The one writer of `.env` files: sets or removes one variable so that the reader the daemon uses
 * (`dotenv`'s `parse`, see secrets.ts) reads back exactly the value written, byte for byte, and
 * every other line of the file (comments, blank lines, order, other variables, bytes in any
 * encoding) stays as it was.
 *
 * dotenv's rules that matter: a bare value ends at `#` and is trimmed; a value in matching quotes
 * (`'…'`, `"…"`, `` `…` ``) keeps its spaces and `#`; only a double-quoted value turns `\n`/`\r`
 * into a line break; no other escapes exist. So each value is written in the first form of: bare
 * (plain characters only), double quotes (line breaks as `\n`/`\r`; also a `#`-free value holding
 * every kind of quote), single quotes, backquotes. Each candidate is checked
 * by parsing the whole new file with the same reader; when none reads back exactly, the value is
 * refused with an error naming the variable (a NUL, or a line break next to a literal `\n`).
 */
import { parse } from 'dotenv';

/** A variable name the file and the reader accept. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Raised when a value cannot be written so that it reads back unchanged. */
export class EnvValueError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'EnvValueError';
  }
}

/** The ways a value may be written, in order of preference. */
function candidates(value: string): string[] {
  const out: string[] = [];
  if (/^[A-Za-z0-9_./:@+,%^~=-]+$/.test(value)) out.push(value);
  // double quotes also hold a value with quotes of every kind when it has no '#': dotenv then
  // reads the whole line and strips the outer pair
  if (!/\\[nr]/.test(value)) out.push(`"${value.replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`);
  if (!/[\r\n]/.test(value)) out.push(`'${value}'`, `\`${value}\``);
  return out;
}

/** The lines of `text` (split on `\n`, each without it), the last empty one dropped. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * What may stand before the name on a line (as `latin1` text): a UTF-8 byte order mark (editors
 * such as Notepad start the file with one; dotenv reads past it), spaces, `export `.
 */
const LEAD = /^(?:\xef\xbb\xbf)?\s*(?:export\s+)?/;

/** Whether `line` assigns `name` (with or without a BOM or `export`, `=` or `:`). */
function assigns(line: string, name: string): boolean {
  return new RegExp(`${LEAD.source}${name}\\s*(?:=|:\\s)`).test(line);
}

function sameExcept(a: Record<string, string>, b: Record<string, string>, name: string): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete(name);
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The content of a `.env` file (`latin1`-decoded bytes, so other lines keep their bytes) with
 * `name` set to `value`, or removed when `value` is undefined. The first line assigning `name` is
 * replaced in place (keeping an `export ` before the name) and later ones removed; a new variable
 * is appended.
 * @returns the new file content as bytes.
 * @throws EnvValueError naming the variable when the value cannot be written to read back exactly,
 *   or the name is not a variable name.
 */
export function editEnvFile(bytes: Buffer, name: string, value: string | undefined): Buffer {
  if (!NAME.test(name)) throw new EnvValueError(name, `Invalid variable name "${name}"`);
  if (value !== undefined && value.includes('\0'))
    throw new EnvValueError(
      name,
      `The value of ${name} contains a NUL character, which a .env file cannot hold.`,
    );
  const lines = linesOf(bytes.toString('latin1'));
  const before = parse(bytes.toString('utf8'));
  const build = (line: string | undefined): Buffer => {
    const parts: Buffer[] = [];
    let placed = false;
    for (const l of lines) {
      if (!assigns(l, name)) parts.push(Buffer.from(`${l}\n`, 'latin1'));
      else if (!placed && line !== undefined) {
        // a BOM or an `export ` before the name stays (the file may also be sourced by a shell)
        parts.push(Buffer.from(LEAD.exec(l)![0], 'latin1'), Buffer.from(`${line}\n`, 'utf8'));
        placed = true;
      }
    }
    if (!placed && line !== undefined) parts.push(Buffer.from(`${line}\n`, 'utf8'));
    return Buffer.concat(parts);
  };
  if (value === undefined) return build(undefined);
  for (const form of candidates(value)) {
    const out = build(`${name}=${form}`);
    const after = parse(out.toString('utf8'));
    if (after[name] === value && sameExcept(before, after, name)) return out;
  }
  throw new EnvValueError(
    name,
    `The value of ${name} cannot be written to the .env file so that it reads back unchanged ` +
      '(it mixes characters the format cannot hold together, such as line breaks with a literal \\n, ' +
      "or every kind of quote with '#'); export it in the environment instead.",
  );
}
