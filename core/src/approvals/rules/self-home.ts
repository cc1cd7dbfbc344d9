/**
 * The rule `hermes-home`: a command that reads or changes Hermes's own home.
 *
 * Matches a simple command when any of its path words — the program path, every argument (also
 * the value of `--opt=x`, `-Ix`, `a:b` lists), `NAME=value` assignments, redirect targets — names
 * a path in the running root (`ctx.hermesRoot`) by any form `ctx.paths` expands (absolute,
 * relative to the working folder or to a folder the line `cd`s into, `~`, `~user`, `$HOME`,
 * `$HERMES_HOME`, variables, globs, braces, `..`, symlinks; hard links to a home's settings or
 * key files count too). Reading counts as much as writing: `.env` holds keys, `tui-gateway.json`
 * the daemon's token, `state.db` and `profiles/*` other profiles' data. The running profile's
 * `workspace/` and `skills/` are the agent's own and are not flagged.
 *
 * Also matched:
 * - a word with a variable the context does not know or a command substitution, whose known
 *   tail names a Hermes place (`$X/.env`, `"$(hermes config path)"/../auth.json`,
 *   `${HERMES_HOME%/}`): the shell might well reach the root, so it asks;
 * - a word computed by a command substitution that runs `hermes` (`cat "$(hermes config
 *   path)"`);
 * - a recursive command over a folder above the root (`grep -r KEY ~`, `tar czf x ~`,
 *   `cp -a ~ /tmp/x`, `rsync -a ~/ host:`, `chmod -R … ~`; `find ~` with `-exec`/`-delete`, with
 *   its output piped on, or looking for `.env`/`config.yaml`/`auth.json`…): it reads or changes
 *   the root with everything else;
 * - an interpreter (`node`, `python3`, `bash`, `perl`, `source` …) whose script — the file
 *   (read when it exists and is < 256 KiB), `-c`/`-e` code, or a here-document fed to it —
 *   mentions the root's path, `~/.hermes` (a quoted `'.hermes'` only in a text that also names
 *   the home folder: `homedir()`, `expanduser`, `$HOME` …), `tui-gateway.json`/`.lock` or
 *   `HERMES_HOME` (self-scripts.ts); and a program run by path whose script text does so.
 *
 * Also the daemon's (and the agent process's) own `/proc/<pid>/…` files: its environment,
 * memory and open files hold the keys and the token; and any folder named `.hermes` (a Hermes
 * home by its default name: another user's, a copy) even when it is not the running root.
 *
 * Not flagged: a program that only reads (`cat`, `less`, `grep`, `cp` from the root …) reading the
 * root's plain files — `config.yaml`, `SOUL.md`, `memories/MEMORY.md`/`USER.md` — which hold no
 * keys; writing them, and reading `.env`, `auth.json`, the token or `state.db`, still ask.
 *
 * The arguments of `echo`/`printf` are text, not paths. A lone `cd` into the root (nothing after
 * it on the line) changes nothing and is not flagged.
 * Targets: the absolute paths reached in the root (the root itself for a recursive command above
 * it), the dynamic word as written, or the script's path (`-c` code: `<interpreter> -c`).
 */
import { programName, type SimpleCommand } from '../shell/analyze.js';
import { isInside } from '../../util/paths.js';
import { segmentRegex } from './context.js';
import { writes } from './argv.js';
import { hermesInvocation } from './self-cli.js';
import {
  aboveRoot,
  HERMES_FILES,
  hermesPlaces,
  literalTail,
  mentionPatterns,
  namesHermesPlace,
  pathWords,
  rootPathsOf,
  type HermesPlaces,
} from './self-places.js';
import { scripts } from './self-scripts.js';
import type { CommandRule, RuleContext } from './types.js';

/** True when `p` is in the running root (its free folders included). */
const inAnyRoot = (places: HermesPlaces, p: string): boolean => places.roots.some((r) => isInside(r, p));

/** Programs whose arguments are text to print. */
const PRINTERS = new Set(['echo', 'printf']);

/** Variables every context knows (the rest may be set where the command runs). */
const KNOWN_VARIABLES = new Set(['HOME', 'PWD', 'HERMES_HOME']);

/** Programs that descend into folders by nature or with a recursive flag. */
const RECURSIVE: Record<string, RegExp | true> = {
  grep: /^-[A-Za-z]*[rR]|^--recursive$|^--dereference-recursive$|^--directories=recurse$/,
  egrep: /^-[A-Za-z]*[rR]|^--recursive$/,
  fgrep: /^-[A-Za-z]*[rR]|^--recursive$/,
  rg: /^--hidden$|^-[A-Za-z]*uu|^-\.$|^--no-ignore-dot$/,
  ag: /^--hidden$|^-[A-Za-z]*u/,
  cp: /^-[A-Za-z]*[rRa]|^--recursive$|^--archive$/,
  scp: /^-[A-Za-z]*r/,
  rsync: true,
  tar: true,
  zip: /^-[A-Za-z]*r|^--recurse-paths$/,
  '7z': true,
  rclone: true,
  restic: true,
  borg: true,
  duplicity: true,
  mv: true,
  rm: /^-[A-Za-z]*[rR]|^--recursive$/,
  chmod: /^-[A-Za-z]*R|^--recursive$/,
  chown: /^-[A-Za-z]*R|^--recursive$/,
  chgrp: /^-[A-Za-z]*R|^--recursive$/,
  chattr: /^-[A-Za-z]*R$/,
  setfacl: /^-[A-Za-z]*R|^--recursive$/,
  find: /^-(?:exec|execdir|ok|okdir|delete|fprint|fprintf|fls)$/,
  unzip: /^-d$/,
};

/** Names `find -name` may look for that only Hermes's homes hold (or that hold its keys). */
const HERMES_NAMES = [...HERMES_FILES, '.hermes', 'profiles'];

/**
 * True when `cmd` descends recursively into its folder arguments and reads, changes or hands on
 * what it finds: a `find` does so with `-exec`/`-delete`…, when its output feeds another command
 * (`find ~ -name .env | xargs cat`), or when it looks for Hermes's own file names.
 */
function isRecursive(cmd: SimpleCommand, ctx: RuleContext): boolean {
  const name = programName(cmd);
  const flag = RECURSIVE[name];
  if (flag === undefined) return false;
  if (flag === true) return true;
  const args = cmd.argv.slice(1);
  if (args.some((w) => flag.test(w.value))) return true;
  if (name !== 'find') return false;
  if (ctx.analysis.commands.some((c) => c.pipedFrom.includes(cmd))) return true;
  return args.some((w, i) => {
    if (!/^-(?:i?name|i?path|i?wholename)$/.test(args[i - 1]?.value ?? '')) return false;
    const re = segmentRegex(w.value.split('/').pop() || w.value, true);
    return HERMES_NAMES.some((n) => re.test(n));
  });
}

/** True when `c` was found inside `cmd` (its substitutions, its `bash -c` script …). */
export function isNestedIn(c: SimpleCommand, cmd: SimpleCommand): boolean {
  for (let p = c.parent; p; p = p.parent) if (p === cmd) return true;
  return false;
}

/** Variables a word names that the context cannot know. */
function unknownVariables(value: string, ctx: RuleContext): boolean {
  for (const m of value.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1]!;
    if (!KNOWN_VARIABLES.has(name) && ctx.env[name] === undefined) return true;
  }
  return false;
}

/** What `cmd` reaches in the root (see the file comment), for the places of `ctx`. */
export function homeTargets(cmd: SimpleCommand, ctx: RuleContext, places: HermesPlaces): string[] {
  const targets = new Set<string>();
  const name = programName(cmd);
  // what echo and printf are given is text, not paths (their redirects still are)
  const words = pathWords(PRINTERS.has(name) ? { ...cmd, argv: cmd.argv.slice(0, 1) } : cmd);
  // looked up only for a word with a substitution (a scan of the line per command is quadratic)
  const computedByHermes = (): boolean =>
    ctx.analysis.commands.some(
      (c) => isNestedIn(c, cmd) && c.via.includes('substitution') && hermesInvocation(c, ctx) !== null,
    );
  const daemonPids = new Set([ctx.daemonPid, process.pid].filter((p) => p !== undefined).map(String));
  for (const w of words) {
    for (const p of rootPathsOf(w, ctx, places)) targets.add(p);
    // the daemon's process files: its environment, memory, open files, working folder
    for (const p of ctx.paths(w)) {
      if (daemonPids.has(/^\/proc\/(\d+)(?:\/|$)/.exec(p)?.[1] ?? '')) targets.add(p);
      // a Hermes home by its default name that is not the running root (another user's, a copy)
      else if (p.split('/').includes('.hermes') && !/[*?[]/.test(p) && !inAnyRoot(places, p)) targets.add(p);
    }
    if (w.literal) continue;
    if (/\$\{?HERMES_HOME\b/.test(w.value)) targets.add(w.value);
    // `cat "$(hermes config path)"`: a path Hermes computes is one of its own
    if (w.substitution && computedByHermes()) targets.add(w.value);
    if (w.substitution || unknownVariables(w.value, ctx)) {
      const tail = literalTail(w.value);
      if (tail !== undefined && namesHermesPlace(tail)) targets.add(w.value);
    }
  }
  if (isRecursive(cmd, ctx)) {
    const operands = words.length > 0 ? words : [];
    const searchesCwd =
      ['grep', 'egrep', 'fgrep', 'rg', 'ag'].includes(programName(cmd)) && operands.length <= 1;
    const above =
      operands.some((w) => ctx.paths(w).some((p) => aboveRoot(places, p))) ||
      (searchesCwd && aboveRoot(places, ctx.cwd));
    if (above) targets.add(places.roots[0]!);
  }
  const mentions = mentionPatterns(ctx, places);
  for (const [label, text] of scripts(cmd, ctx)) {
    if (mentions.some((re) => re.test(text))) targets.add(label);
  }
  return [...targets];
}

/** `hermes-home`: see the file comment. */
export const HERMES_HOME_RULE: CommandRule = {
  key: 'hermes-home',
  description:
    "read or change Hermes's own home (settings, keys, sessions, the daemon's token, other profiles)",
  match(cmd, ctx) {
    const places = hermesPlaces(ctx);
    if (!places) return null;
    const name = programName(cmd);
    if ((name === 'cd' || name === 'pushd') && cmd.argv.length <= 2) {
      const after = ctx.analysis.commands.some((c) => c.index > cmd.index && !isNestedIn(c, cmd));
      if (!after) return null;
    }
    const targets = withoutPlainReads(cmd, ctx, places, homeTargets(cmd, ctx, places));
    return targets.length > 0 ? targets : null;
  },
};

/** Programs that only read the files they are given (and `cp`, which reads all but its destination). */
const READERS = new Set([
  'cat',
  'bat',
  'batcat',
  'less',
  'more',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'wc',
  'stat',
  'file',
  'ls',
  'jq',
  'yq',
  'diff',
  'cmp',
  'md5sum',
  'sha256sum',
  'cp',
]);

/** Files of a home that hold no keys, tokens or other profiles' conversations: reading them is fine. */
const PLAIN_FILE = /^(?:profiles\/[^/]+\/)?(?:config\.yaml|SOUL\.md|memories\/(?:MEMORY|USER)\.md)$/;

/**
 * `targets` without the plain files of the root (`config.yaml`, `SOUL.md`, memory) that a reading
 * program only reads: `cat ~/.hermes/config.yaml` and `cp ~/.hermes/config.yaml /tmp/c` do not
 * ask; writing one (`cp x ~/.hermes/config.yaml`, a redirect into it) and reading `.env`,
 * `auth.json`, the daemon's token or `state.db` still do.
 */
function withoutPlainReads(
  cmd: SimpleCommand,
  ctx: RuleContext,
  places: HermesPlaces,
  targets: string[],
): string[] {
  if (!READERS.has(programName(cmd)) || targets.length === 0) return targets;
  const written = new Set(writes(cmd).flatMap((w) => ctx.paths(w.word)));
  return targets.filter((t) => {
    if (written.has(t)) return true;
    const root = places.roots.find((r) => isInside(r, t) && t !== r);
    return root === undefined || !PLAIN_FILE.test(t.slice(root.length + 1));
  });
}
