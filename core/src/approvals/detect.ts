/**
 * What the approval rules find in a command line: the line is analysed into the simple
 * commands it runs (shell/analyze.ts — nested in substitutions, groups, `bash -c`, `eval`, `xargs`,
 * `find -exec` …, wrappers such as `sudo`/`env`/`timeout` looked through), every command rule
 * (rules/index.ts) judges every command, and the line rules judge the sequence. Hits of floor rules
 * go to `floor` (refused in every mode), the rest to `hits` (asked unless approved narrowly), each
 * with its command and targets.
 *
 * Extra views keep obfuscation from hiding a command:
 * - the line as a terminal shows it (ANSI escapes and NUL bytes removed, Unicode compatibility
 *   forms folded) is analysed too when it differs, and so is that form with a bare `$IFS` braced
 *   and with bash's own blanks (CR, VT, FF and escaped tabs are word characters, `\<newline>`
 *   joins);
 * - a program the rules do not know whose first argument names a program they do
 *   (`my-launcher git push -f`) is also judged as the command its arguments spell;
 * - a command whose program is a variable the line sets literally (`X=rm; $X -rf /`) is also judged
 *   with the value substituted, and one written in capitals (`RM -RF`) also in lower case;
 * - scripts the line builds as text and runs (decoded base64, `printf` escapes, `eval "$(echo …)"`,
 *   `os.system("…")` in inline code, a file written with fixed text and then run: rules/hidden.ts)
 *   are judged by the floor rules.
 *
 * When the grammar cannot be loaded or the line (or a view of it) has parse errors, the regex table
 * of dangerous-patterns.ts runs on the whole text as well (fail towards asking; its floor keys are
 * refused), returning hits with `command: null`. While `SELF_RULES` is empty, that table's patterns
 * about Hermes's own home run on every line.
 */
import stripAnsi from 'strip-ansi';
import { detectDangerousCommand, type DangerousMatch } from './dangerous-patterns.js';
import type { DetectContext, Detection, RuleHit } from './detection-types.js';
import { ruleContext } from './rules/context.js';
import { hiddenScripts } from './rules/hidden.js';
import { COMMAND_RULES, LINE_RULES, SELF_RULES } from './rules/index.js';
import { mayLaunch } from './launchers.js';
import { computedProgram } from './rules/inline-code.js';
import type { CommandRule, LineRule, RuleContext } from './rules/types.js';
import {
  analyzeShell,
  programName,
  type ShellAnalysis,
  type ShellWord,
  type SimpleCommand,
} from './shell/analyze.js';

export type { DetectContext, Detection, RuleHit } from './detection-types.js';

/** Keys of the fallback table that are catastrophic (refused when the table is all there is). */
const FALLBACK_FLOOR = new Set([
  'delete-root-path',
  'mkfs',
  'dd-to-device',
  'write-block-device',
  'wipe-device',
  'fork-bomb',
  'kill-all-processes',
  'shutdown-reboot',
]);

/** Keys of the fallback table about Hermes's own home (the `SELF_RULES` class). */
const SELF_PATTERN_KEYS = new Set(['touch-hermes-home', 'write-hermes-config', 'write-agent-config-files']);

/** Variables bash sets itself: their values are never known in advance. */
const SHELL_VARIABLES =
  /^(?:RANDOM|SRANDOM|SECONDS|LINENO|BASHPID|PPID|EPOCH\w*|BASH\w*|FUNCNAME|PIPESTATUS|OLDPWD|REPLY|OPTARG|OPTIND|UID|EUID)$/;

/** The line as a terminal would show it (for the second view; see the file comment). */
function displayForm(line: string): string {
  return stripAnsi(line).replace(/\0/g, '').normalize('NFKC');
}

/** The literal values the line assigns to each variable (a non-literal assignment makes it unknown). */
function lineValues(analysis: ShellAnalysis): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  for (const a of analysis.assignments ?? []) {
    const prev = out.get(a.name);
    if (!a.value.literal || prev === null) out.set(a.name, null);
    else out.set(a.name, [...(prev ?? []), a.value.value]);
  }
  for (const name of analysis.boundNames ?? []) out.set(name, null);
  return out;
}

/** `ctx.knownValue` (rules/types.ts): every variable of the word has a known value. */
function knownValueOf(
  analysis: ShellAnalysis,
  dctx: DetectContext,
): (w: ShellWord, opts?: { defaults?: boolean }) => boolean {
  // every value the line assigns to each name; a name bound some other way (`read X`) is unknown
  const assigned = new Map<string, ShellWord[]>();
  for (const a of analysis.assignments ?? [])
    assigned.set(a.name, [...(assigned.get(a.name) ?? []), a.value]);
  const bound = new Set(analysis.boundNames ?? []);
  const known = (w: ShellWord, opts: { defaults?: boolean } | undefined, depth: number): boolean => {
    if (w.literal) return true;
    if (w.substitution || depth > 4) return false;
    for (const m of w.value.matchAll(/\$(?:\{([^}]*)\}|([A-Za-z_]\w*)|(.))/g)) {
      if (m[3] !== undefined) return false; // $1, $@, $$ …
      // `${X:-/}`: the default is what the line asks for when X is unset (the floor judges it)
      if (opts?.defaults && /^[A-Za-z_]\w*:?[-=]/.test(m[1] ?? '')) continue;
      // `${X%/}`, `${X#pat}` of a known X with a literal pattern are known too
      const name = m[2] ?? /^([A-Za-z_]\w*)(?:$|:?[+?]|(?:%%?|##?)[^$`[\\]*$)/.exec(m[1] ?? '')?.[1];
      if (!name || SHELL_VARIABLES.test(name) || bound.has(name)) return false;
      if (name === 'HOME' || name === 'PWD') continue;
      const own = assigned.get(name);
      // `X=$HOME; rm -rf "$X"`: an assignment is known when the words it is made of are
      if (own) {
        if (!own.every((v) => known(v, opts, depth + 1))) return false;
      } else if (dctx.env?.[name] === undefined) return false;
    }
    return true;
  };
  return (w, opts) => known(w, opts, 0);
}

/**
 * The folder each command runs in, by index: the line's folder after the `cd`/`pushd`s that run
 * before it in the same shell (a `cd` in a subshell or `bash -c` stays there); null when a `cd`
 * went somewhere unknowable.
 */
function folders(analysis: ShellAnalysis, ctx: RuleContext): Map<number, string | null> {
  const scope = (c: SimpleCommand): string[] => c.via.filter((v) => v !== 'group');
  const out = new Map<number, string | null>();
  const cds: SimpleCommand[] = [];
  for (const cmd of analysis.commands) {
    let dir: string | null = ctx.cwd;
    const mine = scope(cmd);
    for (const cd of cds) {
      const theirs = scope(cd);
      if (theirs.length > mine.length || theirs.some((v, i) => v !== mine[i])) continue;
      dir = dir === null ? null : cdTarget(cd, dir, ctx);
    }
    out.set(cmd.index, dir);
    const name = programName(cmd);
    if (name === 'cd' || name === 'pushd' || name === 'popd') cds.push(cmd);
  }
  return out;
}

/** Where a `cd` from `from` leads, or null when unknowable. */
function cdTarget(cd: SimpleCommand, from: string, ctx: RuleContext): string | null {
  if (programName(cd) === 'popd') return null;
  const target = cd.argv.slice(1).find((w) => !/^-[LPe@]+$/.test(w.value));
  if (!target) return ctx.userHome;
  if (target.value === '-' || target.substitution || (ctx.knownValue && !ctx.knownValue(target))) return null;
  const word = /^[~/$]/.test(target.value)
    ? target
    : { ...target, value: `${from.replace(/\/$/, '')}/${target.value}` };
  return ctx.paths(word)[0] ?? null;
}

/** The rule context of a line: ruleContext() plus the precise folder views of the floor rules. */
function detectionContext(analysis: ShellAnalysis, dctx: DetectContext): RuleContext {
  const base = ruleContext(analysis, dctx);
  const ctx: RuleContext = { ...base, knownValue: knownValueOf(analysis, dctx) };
  let dirs: Map<number, string | null> | undefined;
  ctx.pathsAt = (word, cmd) => {
    if (word.substitution) return [];
    if (/^[~/$]/.test(word.value)) return base.paths(word);
    dirs ??= folders(analysis, ctx);
    const dir = dirs.has(cmd.index) ? dirs.get(cmd.index)! : ctx.cwd;
    if (dir === null) return [];
    return base.paths({ ...word, value: `${dir.replace(/\/$/, '')}/${word.value}` });
  };
  return ctx;
}

/** Commands the analysis already looked into (`xargs rm`, `find -exec`, wrappers): once per line. */
const EXPANDED = new WeakMap<ShellAnalysis, Set<SimpleCommand>>();
function expandedCommands(analysis: ShellAnalysis): Set<SimpleCommand> {
  let set = EXPANDED.get(analysis);
  if (!set) {
    set = new Set(analysis.commands.flatMap((c) => (c.parent ? [c.parent] : [])));
    EXPANDED.set(analysis, set);
  }
  return set;
}

/** The views of a command the rules also judge (see the file comment). */
function variants(cmd: SimpleCommand, analysis: ShellAnalysis, dctx: DetectContext): SimpleCommand[] {
  const out = [cmd];
  const first = cmd.argv[0];
  // a program the rules do not know, given a command as its arguments (`my-launcher git push -f`),
  // may run it: the arguments are judged as that command too
  if (mayLaunch(cmd) && !expandedCommands(analysis).has(cmd)) out.push({ ...cmd, argv: cmd.argv.slice(1) });
  if (first && first.value !== first.value.toLowerCase()) {
    out.push({ ...cmd, argv: cmd.argv.map((w) => ({ ...w, value: w.value.toLowerCase() })) });
  }
  if (first && computedProgram(first) && !first.substitution) {
    const values = lineValues(analysis);
    let unknown = false;
    const value = first.value.replace(
      /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g,
      (_all, a?: string, b?: string) => {
        const name = (a ?? b)!;
        const v = values.get(name)?.at(-1) ?? dctx.env?.[name];
        if (v === undefined) unknown = true;
        return v ?? '';
      },
    );
    if (!unknown && !value.includes('$')) {
      const words = /^["']/.test(first.raw) ? [value] : value.split(/\s+/).filter(Boolean);
      const argv = [
        ...words.map((v) => ({ raw: v, value: v, literal: true, glob: false, substitution: false })),
        ...cmd.argv.slice(1),
      ];
      if (argv.length > 0) out.push({ ...cmd, argv });
    }
  }
  return out;
}

/**
 * Collects hits, one per rule, command and target set (a command's other views and the line's
 * second view add nothing new; two commands are two hits even when alike).
 */
class Hits {
  readonly floor: RuleHit[] = [];
  readonly hits: RuleHit[] = [];
  private readonly seen = new Set<string>();
  private readonly ids = new WeakMap<SimpleCommand, string>();

  /** Identity of a command for deduplication: its position and text (same in both views). */
  private id(command: SimpleCommand | null): string {
    if (!command) return 'line';
    let id = this.ids.get(command);
    if (id === undefined) {
      id = `${command.index}:${command.via.join('>')}:${command.text}`;
      this.ids.set(command, id);
    }
    return id;
  }

  add(rule: CommandRule | LineRule, command: SimpleCommand | null, targets: string[]): void {
    const sig = `${rule.key}\0${this.id(command)}\0${[...targets].sort().join('\0')}`;
    if (this.seen.has(sig)) return;
    this.seen.add(sig);
    const hit: RuleHit = { key: rule.key, description: rule.description, command, targets };
    // a script only written to a file is asked about, never refused: nothing runs it yet
    const written = command?.via.includes('written script') ?? false;
    (rule.floor && !written ? this.floor : this.hits).push(hit);
  }

  has(key: string): boolean {
    return this.floor.some((h) => h.key === key) || this.hits.some((h) => h.key === key);
  }
}

/** How deep scripts recovered from text (rules/hidden.ts) are followed. */
const HIDDEN_DEPTH = 2;

/**
 * Runs every rule on one analysis, then the floor rules on the scripts the line builds as text
 * (rules/hidden.ts). A rule that throws counts as a hit (never lets a line through).
 */
async function judge(analysis: ShellAnalysis, dctx: DetectContext, out: Hits, depth = 0): Promise<void> {
  const ctx = detectionContext(analysis, dctx);
  const floorOnly = depth > 0;
  const safely = <T>(rule: CommandRule | LineRule, run: () => T, onError: () => void): T | undefined => {
    try {
      return run();
    } catch {
      onError();
      return undefined;
    }
  };
  for (const cmd of analysis.commands) {
    const found = new Set<string>();
    for (const view of variants(cmd, analysis, dctx)) {
      for (const rule of COMMAND_RULES) {
        if ((view !== cmd && found.has(rule.key)) || (floorOnly && !rule.floor)) continue;
        const targets = safely(
          rule,
          () => rule.match(view, ctx),
          () => out.add({ ...rule, floor: false }, cmd, ['?rule-error']),
        );
        if (targets) {
          found.add(rule.key);
          out.add(rule, cmd, targets);
        }
      }
    }
  }
  for (const rule of LINE_RULES) {
    if (floorOnly && !rule.floor) continue;
    const matches = safely(
      rule,
      () => rule.matchLine(ctx),
      () => out.add({ ...rule, floor: false }, null, ['?rule-error']),
    );
    for (const m of matches ?? []) out.add(rule, m.command, m.targets);
  }
  if (depth >= HIDDEN_DEPTH) return;
  for (const text of hiddenScripts(ctx)) await judge(await analyzeShell(text), dctx, out, depth + 1);
}

/** The fallback table's matches as hits (`command: null`), skipping keys the rules already found. */
function addPatternHits(out: Hits, matches: DangerousMatch[]): void {
  for (const m of matches) {
    if (out.has(m.key)) continue;
    const rule = { key: m.key, description: m.description, floor: FALLBACK_FLOOR.has(m.key) };
    out.add({ ...rule, match: () => null }, null, []);
  }
}

/**
 * Finds what the rules flag in a shell command line (see the file comment).
 * @param ctx where the line runs: working folder, user's home, Hermes root, known variables.
 * @returns the floor hits, the other hits, and the line's analysis (null when the grammar could
 *   not be loaded). Never rejects.
 */
export async function detectCommand(line: string, ctx: DetectContext = {}): Promise<Detection> {
  const out = new Hits();
  let analysis: ShellAnalysis | null = null;
  let broken: boolean;
  try {
    analysis = await analyzeShell(line);
    await judge(analysis, ctx, out);
    broken = analysis.errors;
    const shown = displayForm(line);
    // the grammar splits a word at a bare `$IFS` followed by text (`rm$IFS-rf$IFS/`) where bash
    // does not; with braces it reads the word as bash does
    const braced = shown.replace(/\$IFS(?![A-Za-z0-9_])/g, '$${IFS}');
    // bash's blanks are space and tab only, and it joins `\<newline>` before reading words: the
    // grammar takes CR/VT/FF and an escaped tab for blanks (so `printf x\r#c; reboot` would hide
    // `reboot` in a comment); this view gives them a plain letter and joins continuations
    const blanks = braced
      .replace(/\\\n/g, '')
      .replace(/\\\t/g, '\\_')
      .replace(/[\r\v\f]/g, '_');
    // `NAME=(…)#x` is one word to bash (the `#` does not start a comment there: `a=(1)#x; reboot`
    // assigns the text and reboots) while the grammar ends the array at `)` and comments out the
    // rest; this view makes such a `#` a letter (after a subshell, a function's `()` or a case
    // pattern `)#` does start a comment, and those stay as they are)
    const hashes = blanks.replace(/(\b[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=\([^()]*\))#/g, '$1_');
    for (const text of new Set([shown, braced, blanks, hashes])) {
      if (text === line) continue;
      const view = await analyzeShell(text);
      await judge(view, ctx, out);
      broken ||= view.errors;
    }
  } catch {
    broken = true;
  }
  const patterns = { hermesRoot: ctx.hermesRoot, userHome: ctx.userHome };
  if (broken) addPatternHits(out, detectDangerousCommand(line, patterns));
  else if (SELF_RULES.length === 0) {
    addPatternHits(
      out,
      detectDangerousCommand(line, patterns).filter((m) => SELF_PATTERN_KEYS.has(m.key)),
    );
  }
  return { floor: out.floor, hits: out.hits, analysis };
}
