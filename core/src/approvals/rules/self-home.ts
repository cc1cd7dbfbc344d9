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
 * - a recursive command over a folder above the root (`grep -r KEY ~`, `tar czf x ~`,
 *   `cp -a ~ /tmp/x`, `rsync -a ~/ host:`, `chmod -R … ~`, `find ~ … -exec`): it reads or
 *   changes the root with everything else;
 * - an interpreter (`node`, `python3`, `bash`, `perl`, `source` …) whose script — the file
 *   (read when it exists and is < 256 KiB), `-c`/`-e` code, or a here-document fed to it —
 *   mentions the root's path, `~/.hermes`, `tui-gateway.json` or `HERMES_HOME`; and a program run
 *   by path whose script text does so.
 *
 * A lone `cd` into the root (nothing after it on the line) changes nothing and is not flagged.
 * Targets: the absolute paths reached in the root (the root itself for a recursive command above
 * it), the dynamic word as written, or the script's path (`-c` code: `<interpreter> -c`).
 */
import { programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import {
  aboveRoot,
  hermesPlaces,
  literalTail,
  mentionPatterns,
  namesHermesPlace,
  pathWords,
  readHead,
  rootPathsOf,
  type HermesPlaces,
} from './self-places.js';
import type { CommandRule, RuleContext } from './types.js';

/** Variables every context knows (the rest may be set where the command runs). */
const KNOWN_VARIABLES = new Set(['HOME', 'PWD', 'HERMES_HOME']);

/** Programs that run a script: name → options whose next word is a value, and inline-code options. */
const INTERPRETERS: Record<string, { valued: string[]; code: string[] }> = {
  node: {
    valued: ['-r', '--require', '--import', '--loader', '-C', '--conditions', '--input-type'],
    code: ['-e', '--eval', '-p', '--print'],
  },
  bun: { valued: ['-r', '--preload', '--cwd'], code: ['-e', '--eval', '-p', '--print'] },
  deno: { valued: ['--config', '-c', '--import-map'], code: [] },
  tsx: { valued: ['--tsconfig'], code: ['-e', '--eval', '-p', '--print'] },
  'ts-node': { valued: ['-P', '--project', '-r', '--require'], code: ['-e', '--eval', '-p', '--print'] },
  python: { valued: ['-W', '-X', '-Q'], code: ['-c'] },
  pypy: { valued: ['-W', '-X'], code: ['-c'] },
  perl: { valued: ['-I', '-M', '-m'], code: ['-e', '-E'] },
  ruby: { valued: ['-I', '-r'], code: ['-e'] },
  php: { valued: ['-c', '-d'], code: ['-r'] },
  lua: { valued: ['-l'], code: ['-e'] },
  rscript: { valued: [], code: ['-e'] },
  osascript: { valued: [], code: ['-e'] },
  pwsh: { valued: [], code: ['-c', '-command'] },
  sh: { valued: ['-o', '--rcfile', '--init-file'], code: [] },
  source: { valued: [], code: [] },
};
const SHELL_ALIASES = ['bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash', '.'];

/** The interpreter spec of a program name (`python3.12` → python, `nodejs` → node). */
function interpreter(name: string): (typeof INTERPRETERS)[string] | undefined {
  if (SHELL_ALIASES.includes(name)) return INTERPRETERS.sh;
  const base = name.replace(/^(python|pypy|ruby|perl|php|lua)[\d.]*$/, '$1').replace(/^nodejs$/, 'node');
  return INTERPRETERS[base];
}

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

/** True when `cmd` descends recursively into its folder arguments. */
function isRecursive(cmd: SimpleCommand): boolean {
  const flag = RECURSIVE[programName(cmd)];
  if (flag === undefined) return false;
  if (flag === true) return true;
  return cmd.argv.slice(1).some((w) => flag.test(w.value));
}

/** True when `c` was found inside `cmd` (its substitutions, its `bash -c` script …). */
export function isInside(c: SimpleCommand, cmd: SimpleCommand): boolean {
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

/** The scripts an interpreter command runs: `[label, text]` (file, inline code, stdin). */
function scripts(cmd: SimpleCommand, ctx: RuleContext): [string, string][] {
  const name = programName(cmd);
  const spec = interpreter(name);
  const out: [string, string][] = [];
  const first = cmd.argv[0];
  if (!spec) {
    // a program run by path (`./deploy.sh`): its own text, when it is a script
    if (first && first.value.includes('/')) {
      const file = ctx.paths(first)[0];
      const text = file ? readHead(file) : undefined;
      if (file && text?.startsWith('#!')) out.push([file, text]);
    }
    return out;
  }
  const args = cmd.argv.slice(1);
  let scriptWord: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (spec.code.includes(v)) {
      if (args[i + 1]) out.push([`${name} ${v}`, args[i + 1]!.value]);
      return out;
    }
    if (spec.valued.includes(v)) {
      i++;
      continue;
    }
    if (v === '-m' && name.startsWith('python')) return out; // a module, not a file
    if (v === '-' || v === '--') continue;
    if (v.startsWith('-')) continue;
    if ((name === 'deno' || name === 'bun') && v === 'run') continue;
    scriptWord = args[i];
    break;
  }
  if (scriptWord) {
    for (const file of ctx.paths(scriptWord).slice(0, 2)) {
      const text = readHead(file);
      if (text !== undefined && !text.includes('\0')) out.push([file, text]);
    }
  }
  for (const r of cmd.redirects) if (r.text !== undefined) out.push([`${name} <<`, r.text]);
  for (const p of cmd.pipedFrom) {
    const pn = programName(p);
    if (pn === 'echo' || pn === 'printf')
      out.push([
        `${pn} | ${name}`,
        p.argv
          .slice(1)
          .map((w) => w.value)
          .join(' '),
      ]);
  }
  return out;
}

/** What `cmd` reaches in the root (see the file comment), for the places of `ctx`. */
export function homeTargets(cmd: SimpleCommand, ctx: RuleContext, places: HermesPlaces): string[] {
  const targets = new Set<string>();
  const words = pathWords(cmd);
  for (const w of words) {
    for (const p of rootPathsOf(w, ctx, places)) targets.add(p);
    if (w.literal) continue;
    if (/\$\{?HERMES_HOME\b/.test(w.value)) targets.add(w.value);
    if (w.substitution || unknownVariables(w.value, ctx)) {
      const tail = literalTail(w.value);
      if (tail !== undefined && namesHermesPlace(tail)) targets.add(w.value);
    }
  }
  if (isRecursive(cmd)) {
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
      const after = ctx.analysis.commands.some((c) => c.index > cmd.index && !isInside(c, cmd));
      if (!after) return null;
    }
    const targets = homeTargets(cmd, ctx, places);
    return targets.length > 0 ? targets : null;
  },
};
