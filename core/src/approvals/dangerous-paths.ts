/**
 * Dangerous-command patterns about paths, part of the fallback table (dangerous-patterns.ts): the
 * user's credential and start-up files, system folders, and Hermes's own home. The rules that judge
 * parsed commands are rules/files.ts and the self rules.
 *
 * The list of credential files and folders is the file tools' write deny-list
 * (`../tools/sensitive-paths.ts`: `HOME_FILES`, `HOME_DIRS`, `SYSTEM_DIRS`), so the terminal and
 * the file tools protect the same places. Home folders are recognised as `~`, `$HOME`,
 * `${HOME}`, `/root`, `/home/<user>` and `/Users/<user>` by `PATH_PATTERNS`, and by the actual
 * path of the user's home and of the running Hermes root by `contextPatterns` (a home that is
 * not literally named `.hermes` is protected too).
 *
 * The patterns run on the normalised command of dangerous-patterns.ts (escapes and empty quotes
 * removed, case ignored).
 */
import { HOME_DIRS, HOME_FILES, SYSTEM_DIRS } from '../tools/sensitive-paths.js';
import { pathForms } from '../util/paths.js';
import type { DangerousPattern } from './dangerous-patterns.js';

/** A run of text within one simple command (no separator crossed). */
const SEG = String.raw`[^;&|\n]*`;
/** Where a path argument ends: `/`, a quote, whitespace, a separator, a redirect or the end. */
const PATH_END = String.raw`(?=/|["'\s;&|)<>]|$)`;
const rx = (source: string): RegExp => new RegExp(source, 'i');
/** `text` as a literal inside a regex. */
const esc = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Alternation of literal names, longest first (so `.bash_profile` wins over `.bash`). */
const alternation = (names: readonly string[]): string =>
  [...names]
    .sort((a, b) => b.length - a.length)
    .map(esc)
    .join('|');

/** A home folder written without context: `~`, `$HOME`, `${HOME}`, `/root`, `/home/u`, `/Users/u`. */
const GENERIC_HOME = String.raw`(?:~|\$\{?HOME\}?|/root|/home/[^/\s"';&|]+|/Users/[^/\s"';&|]+)`;
/** A credential file or folder below a home folder (`/.ssh`, `/.bashrc`, `/.config/gh` …). */
const CREDENTIAL_TAIL = String.raw`/(?:${alternation([...HOME_FILES, ...HOME_DIRS])})${PATH_END}`;
/** Folders whose files run code or hold keys: a `cd` into one followed by a write is flagged. */
const CREDENTIAL_DIRS = alternation(HOME_DIRS);
/** Verbs (and redirects) that write, replace, link or delete the path after them. */
const WRITE_VERB = String.raw`(?:>>?\s*|\b(?:tee|mv|ln|truncate|unlink|rm|chmod|chown|sed|perl|touch|rimraf)\b${SEG}[\s=]|\bdd\b${SEG}\sof=)["']?`;
/** Copying verbs: they write only their last path (the destination), so a source is read, not changed. */
const COPY_VERB = String.raw`\b(?:cp|install|rsync|scp)\b${SEG}\s["']?`;
/** The end of a copy's destination: the last word of its simple command. */
const LAST_WORD = String.raw`[^\s;&|)<>"']*["']?\s*(?=$|[;&|\n)])`;
/** System folders (not the pseudo file systems: `cp x /dev/null` is harmless). */
const SYSTEM = alternation(SYSTEM_DIRS.filter((d) => !/^\/(?:dev|proc|sys)$/.test(d)));

const credentialFiles = (home: string): DangerousPattern => ({
  key: 'credential-files',
  pattern: rx(`${WRITE_VERB}${home}${CREDENTIAL_TAIL}|${COPY_VERB}${home}${CREDENTIAL_TAIL}${LAST_WORD}`),
  description: 'change SSH keys, shell start-up files or credential files of a home folder',
});

const cdCredentialDir = (home: string): DangerousPattern => ({
  key: 'cd-credential-dir',
  pattern: rx(
    String.raw`\bcd\s+["']?(?:${home}/)?(?:${CREDENTIAL_DIRS})/?["']?(?=[\s;&|)]|$)[^\n]*(?:>|\b(?:tee|cp|mv|install|rsync|ln|dd|truncate|rm|sed|chmod|unlink)\b)`,
  ),
  description: 'change files inside an SSH key or credential folder (cd ~/.ssh; … >> …)',
});

/** The path patterns that need no context (part of `DANGEROUS_PATTERNS`). */
export const PATH_PATTERNS: readonly DangerousPattern[] = [
  credentialFiles(GENERIC_HOME),
  cdCredentialDir(GENERIC_HOME),
  {
    key: 'ssh-authorized-keys',
    pattern: rx(String.raw`authorized_keys2?\b`),
    description: 'touch an SSH authorized_keys file (who may log in to this machine)',
  },
  {
    key: 'read-credentials',
    pattern: rx(
      String.raw`(?:^|[\s/"'=:<])\.(?:ssh/id_[\w-]+(?!\.pub|[\w.-])|aws/credentials|git-credentials|netrc|pgpass|gnupg/|docker/config\.json|kube/config|config/gh/hosts\.yml)`,
    ),
    description: 'read private keys or stored credentials (~/.ssh/id_*, ~/.aws/credentials, ~/.netrc …)',
  },
  {
    key: 'copy-into-system-dir',
    pattern: rx(
      String.raw`\b(?:cp|mv|install|ln|rsync)\b${SEG}\s["']?(?:${SYSTEM})(?:/[^\s;&|]*)?["']?\s*(?:$|[;&|\n)])|\btee\b${SEG}\s["']?(?:${SYSTEM})(?:/|["'\s]|$)`,
    ),
    description: 'copy, install or write a file into a system folder (/etc, /usr/bin, /boot …)',
  },
];

const contextCache = new Map<string, DangerousPattern[]>();

/** Options of the path-aware patterns: the actual folders of this machine and process. */
export interface PathContext {
  /** The root of the running Hermes home (`HermesHome.root`): every profile lives below it. */
  hermesRoot?: string;
  /** The user's home folder (`os.homedir()`). */
  userHome?: string;
}

/**
 * The patterns that depend on the actual folders: credential files under `userHome` written by
 * absolute path, and any mention of the Hermes root's path (`touch-hermes-home`, as for the
 * literal `.hermes`). Roots or homes shorter than 2 chars (`/`) are ignored. Cached per context.
 */
export function contextPatterns(ctx: PathContext): DangerousPattern[] {
  const cacheKey = `${ctx.hermesRoot ?? ''}\0${ctx.userHome ?? ''}`;
  const cached = contextCache.get(cacheKey);
  if (cached) return cached;
  const out: DangerousPattern[] = [];
  const clean = (p: string | undefined): string[] =>
    p ? pathForms(p.replace(/\/+$/, '')).filter((f) => f.length >= 2) : [];
  const homes = clean(ctx.userHome);
  if (homes.length > 0) {
    const home = `(?:${homes.map(esc).join('|')})`;
    out.push(credentialFiles(home), cdCredentialDir(home));
  }
  const roots = clean(ctx.hermesRoot);
  if (roots.length > 0) {
    out.push({
      key: 'touch-hermes-home',
      pattern: rx(String.raw`(?:^|[\s"'=:(<>\x60])(?:${roots.map(esc).join('|')})${PATH_END}`),
      description: "touch Hermes's own home (config.yaml, .env keys, sessions, cron jobs)",
    });
  }
  if (contextCache.size > 64) contextCache.clear();
  contextCache.set(cacheKey, out);
  return out;
}
