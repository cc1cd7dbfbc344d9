/**
 * Fixed text a command writes, for the analyser (analyze.ts): what `echo`/`printf` of literal words
 * and `cat <<EOF` print (through bare `cat` stages), and the names of shell script files that
 * text may be written into.
 */
import type { SimpleCommand } from './analyze.js';

/** Redirect operators that write their file. */
export const WRITE_OPS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>']);

/** Names of shell script files. */
export const SCRIPT_FILE = /\.(?:sh|bash|zsh|ksh|command)$/;

/** Lower-case last path part of a command's first word (as analyze.ts `programName`). */
const nameOf = (cmd: SimpleCommand): string =>
  ((cmd.argv[0]?.value ?? '').split('/').pop() ?? '').toLowerCase().replace(/\.exe$/, '');

/**
 * The text a producer writes when it is knowable: `echo`/`printf` of literal words, `cat <<EOF`,
 * and a bare `cat` passing such text on (`echo … | cat | sh`); undefined otherwise.
 */
export function literalOutput(cmd: SimpleCommand, depth = 0): string | undefined {
  const name = nameOf(cmd);
  if (name === 'echo' || name === 'printf') {
    const args = cmd.argv.slice(1).filter((w, i) => !(i === 0 && /^-[neE]+$/.test(w.value)));
    return args.map((w) => w.value).join(' ');
  }
  if (name === 'cat') {
    const doc = cmd.redirects.find((r) => r.text !== undefined);
    if (doc) return doc.text;
    const [from] = cmd.pipedFrom;
    return cmd.argv.length === 1 && cmd.pipedFrom.length === 1 && depth < 8 && from
      ? literalOutput(from, depth + 1)
      : undefined;
  }
  return undefined;
}
