/**
 * Shell words as the program receives them: quotes removed, backslash escapes and `$'…'` strings
 * decoded, `$IFS` read as a word break. What cannot be known before the command runs (variables,
 * substitutions, globs, a leading `~`) is kept as written and marks the word not `literal`.
 */
import type { Node } from './grammar.js';

/** One word of a simple command (a program name, an argument, a redirect target). */
export interface ShellWord {
  /** The source text as written (quotes and escapes included). */
  raw: string;
  /**
   * The value after quote removal and escape decoding. Expansions and substitutions stay as
   * written (`$HOME/x`, `$(date)`), a leading `~` too.
   */
  value: string;
  /** True when `value` is exactly what the program gets: no expansion, substitution, glob or `~`. */
  literal: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[`) or brace expansion. */
  glob: boolean;
  /** Holds a command or process substitution (`$(…)`, backticks, `<(…)`). */
  substitution: boolean;
}

/** Node types that are a command or process substitution. */
export const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

/** Decodes the body of a `$'…'` string (bash's ANSI-C quoting), up to a NUL it holds. */
export function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  const decoded = body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (all, esc: string) => {
      const head = esc[0]!;
      if (head === 'x' || head === 'u' || head === 'U') {
        return String.fromCodePoint(Math.min(parseInt(esc.slice(1), 16), 0x10ffff));
      }
      if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
      if (head === 'c') return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return simple[head] ?? all;
    },
  );
  // a NUL ends the string: bash drops it and what follows (`re$'\0x'boot` is `reboot`)
  const nul = decoded.indexOf('\0');
  return nul < 0 ? decoded : decoded.slice(0, nul);
}

/** Removes the backslash escapes of an unquoted word (`r\m` → `rm`; `\<newline>` joins). */
function unescapeBare(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

/** Removes the escapes that stay special inside double quotes (`\"`, `\\`, `\$`, `` \` ``). */
function unescapeDouble(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

/** True when an unquoted word holds an unescaped glob character. */
function hasGlob(text: string): boolean {
  return /(?:^|[^\\])(?:\\\\)*[*?[]/.test(text);
}

interface Parts {
  value: string;
  literal: boolean;
  glob: boolean;
  substitution: boolean;
}

function parts(node: Node, quoted: boolean): Parts {
  switch (node.type) {
    case 'word':
    case 'command_name':
    case 'file_descriptor':
    case 'heredoc_start': {
      if (node.type === 'command_name' && node.namedChildCount === 1)
        return parts(node.namedChild(0)!, quoted);
      const text = node.text;
      const glob = !quoted && (hasGlob(text) || /\{[^}]*,[^}]*\}/.test(text));
      const tilde = !quoted && text.startsWith('~');
      const value = quoted ? unescapeDouble(text) : unescapeBare(text);
      return { value, literal: !glob && !tilde, glob, substitution: false };
    }
    case 'number':
    case 'string_content':
      return {
        value: quoted ? unescapeDouble(node.text) : node.text,
        literal: true,
        glob: false,
        substitution: false,
      };
    case 'raw_string':
      return { value: node.text.slice(1, -1), literal: true, glob: false, substitution: false };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), literal: true, glob: false, substitution: false };
    case 'string':
    case 'translated_string': {
      // children: the quote tokens, string_content and expansions; text between named children
      // that the grammar leaves unnamed is literal content too
      const inner = node.type === 'translated_string' ? node.namedChild(0) : node;
      if (!inner) return { value: '', literal: true, glob: false, substitution: false };
      const start = inner.startIndex + 1;
      const end = inner.endIndex - 1;
      let cursor = start;
      const out: Parts = { value: '', literal: true, glob: false, substitution: false };
      const src = inner.text;
      const slice = (a: number, b: number): string => src.slice(a - inner.startIndex, b - inner.startIndex);
      for (const child of inner.namedChildren) {
        if (!child) continue;
        if (child.startIndex > cursor) out.value += unescapeDouble(slice(cursor, child.startIndex));
        const p = parts(child, true);
        out.value += p.value;
        out.literal &&= p.literal;
        out.substitution ||= p.substitution;
        cursor = child.endIndex;
      }
      if (end > cursor) out.value += unescapeDouble(slice(cursor, end));
      return out;
    }
    case 'concatenation': {
      const out: Parts = { value: '', literal: true, glob: false, substitution: false };
      // the unquoted text, quoted parts as \0: a brace expansion may span several pieces (`/{a,b}`)
      let bare = '';
      let cursor = node.startIndex;
      for (const child of node.namedChildren) {
        if (!child) continue;
        // unnamed pieces between children (e.g. a lone `$` or `}`) are literal text
        if (child.startIndex > cursor) {
          const piece = node.text.slice(cursor - node.startIndex, child.startIndex - node.startIndex);
          out.value += unescapeBare(piece);
          bare += piece;
        }
        const p = parts(child, quoted);
        out.value += p.value;
        out.literal &&= p.literal;
        out.glob ||= p.glob;
        out.substitution ||= p.substitution;
        bare += child.type === 'word' ? child.text : '\0';
        cursor = child.endIndex;
      }
      if (node.endIndex > cursor) {
        const piece = node.text.slice(cursor - node.startIndex);
        out.value += unescapeBare(piece);
        bare += piece;
      }
      if (!quoted && /\{[^}\0]*(?:,|\.\.)[^}\0]*\}/.test(bare)) {
        out.glob = true;
        out.literal = false;
      }
      return out;
    }
    case 'command_substitution':
    case 'process_substitution':
      return { value: node.text, literal: false, glob: false, substitution: true };
    default:
      // simple_expansion, expansion, arithmetic_expansion, brace_expression, array …
      return {
        value: node.text,
        literal: false,
        glob: node.type === 'brace_expression',
        substitution: node.descendantsOfType([...SUBSTITUTIONS]).length > 0,
      };
  }
}

/** The word a syntax node denotes. */
export function wordOf(node: Node): ShellWord {
  const p = parts(node, false);
  return { raw: node.text, ...p };
}

/** The value of a word that is `literal`, else `''` (a word whose value is not known yet). */
export const literalValue = (w: ShellWord | undefined): string => (w && w.literal ? w.value : '');

/** A word made from plain text (a wrapper's decoded argument, a test's input). */
export function literalWord(value: string): ShellWord {
  return { raw: value, value, literal: true, glob: false, substitution: false };
}

/** `$IFS` / `${IFS}` (any default), which word-splits to a space. */
const IFS = /\$\{IFS[^}]*\}|\$IFS\b/g;
const HAS_IFS = /\$\{IFS[^}]*\}|\$IFS\b/;

/**
 * Splits words at `$IFS` expansions (`rm${IFS}-rf${IFS}/` is the three words `rm -rf /`); a word
 * whose only expansions were `$IFS` becomes literal.
 */
export function splitIfs(words: ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  for (const w of words) {
    if (w.literal || !HAS_IFS.test(w.value)) {
      out.push(w);
      continue;
    }
    const rest = w.value.replace(IFS, ' ');
    const stillDynamic = /\$|`/.test(rest);
    for (const piece of rest.split(' ').filter(Boolean)) {
      out.push({ ...w, value: piece, literal: !stillDynamic && !w.glob });
    }
  }
  return out;
}
