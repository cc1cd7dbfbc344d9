/**
 * Tells a failure the sandbox caused from an ordinary one, by the output of the sandboxed run:
 *
 * - a write the read-only file system refused (`Read-only file system`, `EROFS`, errno 30): the
 *   path outside the workspace;
 * - a hidden path (under the Hermes root, `~/.ssh` …) that could not be read or was not found
 *   (`Permission denied` / `No such file or directory` naming a path under a hidden folder, or a
 *   hidden file);
 * - a mount point of the sandbox that cannot be replaced (`Device or resource busy`: `mv f /dev/null`);
 * - with the network off: a refused or unreachable connection, or a failed name lookup.
 *
 * The answer is one phrase for "blocked by the sandbox: <what>"; undefined when nothing in the
 * output points at the sandbox.
 */
import { isWithin } from './bwrap-args.js';

/** What `classifySandboxFailure` needs to know about the run. */
export interface SandboxRunFacts {
  /** Combined output of the run. */
  output: string;
  /** Folders and files the run could not see. */
  hidden: readonly string[];
  /** The network was cut off for the run. */
  networkOff: boolean;
  /**
   * The run exited 0: only a program's error lines count (`prog: …: Read-only file system`, the
   * message last on its line), and the network is not blamed.
   */
  succeeded?: boolean;
}

/** An error line of a program: `name: …: <message>` with the message at its end. */
const ERROR_LINE =
  /^[\w.+-]+: .*(?:read-only file system|permission denied|no such file or directory|device or resource busy)$/i;

const READ_ONLY = /read-only file system|\bEROFS\b|\[Errno 30\]/i;
const BUSY = /device or resource busy|\bEBUSY\b/i;
const NOT_READABLE = /permission denied|no such file or directory|\bEACCES\b|\bENOENT\b|\[Errno (?:2|13)\]/i;
const NETWORK =
  /connection refused|network is unreachable|\bECONNREFUSED\b|\bENETUNREACH\b|\bEAI_AGAIN\b|could not resolve host|temporary failure in name resolution|name or service not known|failed to connect|couldn't connect to server|fetch failed|\[Errno 101\]|\[Errno 111\]/i;

/** Absolute paths mentioned in `line` (quoted or bare), without trailing punctuation. */
function pathsIn(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/(?:^|[\s'"‘’`(=:])(\/[^\s'"‘’`,:)]*)/g)) {
    const p = m[1]!.replace(/[.;]+$/, '');
    if (p.length > 1) out.push(p);
  }
  return out;
}

/** A glob segment (`oth*`, `.e?`) as a regular expression. */
function segmentRegex(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * True when `path` lies under `hidden`; a path the shell left unexpanded (a glob such as
 * `~/.her*` followed by more segments) is read as a glob, each of its first segments matching the
 * hidden path's.
 */
function underHidden(hidden: string, path: string): boolean {
  if (isWithin(hidden, path)) return true;
  if (!/[*?[]/.test(path)) return false;
  const want = hidden.split('/');
  const got = path.split('/');
  if (got.length < want.length) return false;
  return want.every((seg, i) => seg === got[i] || (/[*?]/.test(got[i]!) && segmentRegex(got[i]!).test(seg)));
}

/** The first path of `line`, shown in the phrase. */
function firstPath(line: string): string | undefined {
  return pathsIn(line)[0];
}

/** See the file comment. */
export function classifySandboxFailure(facts: SandboxRunFacts): string | undefined {
  let lines = facts.output.split('\n');
  if (facts.succeeded) lines = lines.filter((l) => ERROR_LINE.test(l.trim()));
  for (const line of lines) {
    if (!NOT_READABLE.test(line)) continue;
    const hit = pathsIn(line).find((p) => facts.hidden.some((h) => underHidden(h, p)));
    if (hit) return `${hit} is hidden inside the sandbox (credentials and Hermes's own files cannot be read)`;
  }
  for (const line of lines) {
    if (!READ_ONLY.test(line)) continue;
    const path = firstPath(line);
    return `${path ?? 'a path'} is outside the workspace, which is read-only inside the sandbox`;
  }
  for (const line of lines) {
    if (!BUSY.test(line)) continue;
    const paths = pathsIn(line);
    return `${paths[paths.length - 1] ?? 'a path'} is a mount point of the sandbox and cannot be replaced or removed`;
  }
  if (facts.networkOff && !facts.succeeded) {
    const line = lines.find((l) => NETWORK.test(l));
    if (line) return 'the network is off inside the sandbox (terminal.network: off, or strict mode)';
  }
  return undefined;
}
