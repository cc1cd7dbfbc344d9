/**
 * The shape of an approval rule. A rule looks at one simple command of a line (with what the
 * analysis knows around it: what is piped in, the wrappers it ran under, the commands before it)
 * and says whether it matches, and on what targets.
 */
import type { ShellAnalysis, ShellWord, SimpleCommand } from '../shell/analyze.js';

/** What a rule can consult besides the command itself. */
export interface RuleContext {
  /** The whole line's analysis (for rules about what ran before, e.g. `chmod +x f && ./f`). */
  analysis: ShellAnalysis;
  /** The running Hermes root, absolute, when known. */
  hermesRoot: string | undefined;
  /** The user's home folder, absolute. */
  userHome: string;
  /** The folder the line runs in, absolute. */
  cwd: string;
  /** Variables the line's shell would see. */
  env: Readonly<Record<string, string | undefined>>;
  /** The running profile's folder (`DetectContext.profileHome`), absolute, when known. */
  profileHome?: string;
  /** Pid of the running daemon, when known (`DetectContext.daemonPid`). */
  daemonPid?: number;
  /** Loopback port of the running daemon, when known (`DetectContext.daemonPort`). */
  daemonPort?: number;
  /**
   * The absolute paths a word may name: `~`, `$HOME` and other known variables expanded, relative
   * paths resolved against `cwd`, globs expanded against the file system (the pattern itself is
   * included too, so a glob that matches nothing yet still counts). Empty for a word whose value
   * cannot be known (e.g. a command substitution) — rules decide what that means for them.
   */
  paths(word: ShellWord): string[];
  /**
   * The paths a word of `cmd` names with relative words resolved only against the folder `cmd`
   * runs in — the line's working folder after the `cd`s that run before it in the same shell —
   * instead of every folder the line visits (`paths`). Empty when that folder cannot be known
   * (`cd "$(mktemp -d)"`). Set by detect.ts; the floor rules use it, so `cd build && rm -rf *` is
   * not read as `rm -rf ~/*`.
   */
  pathsAt?(word: ShellWord, cmd: SimpleCommand): string[];
  /**
   * Whether every variable in `word` has a value the guard knows (the line's own literal
   * assignments, `env`, `HOME`, `PWD`), so its expansion is what the shell will use; with
   * `defaults`, `${X:-word}` counts as its default (what the line asks for when X is unset). Set
   * by detect.ts; the floor rules act only on such words (`rm -rf "$DIR"/` with `DIR` unknown asks).
   */
  knownValue?(word: ShellWord, opts?: { defaults?: boolean }): boolean;
}

/** One match of a line rule: the command it is about and its targets. */
export interface LineMatch {
  command: SimpleCommand;
  targets: string[];
}

/**
 * A rule about the line as a sequence (`chmod +x f && ./f`, `curl -o f … ; sh f`): it sees every
 * command at once.
 */
export interface LineRule {
  /** Stable kebab-case id of the class; never renamed. */
  key: string;
  /** Short human description shown on the approval card. */
  description: string;
  /** Catastrophic: refused in every mode. */
  floor?: boolean;
  /** The matches in the line (none: the rule does not apply). */
  matchLine(ctx: RuleContext): LineMatch[];
}

/** A rule about one simple command. */
export interface CommandRule {
  /** Stable kebab-case id of the class; stored with allowlist entries; never renamed. */
  key: string;
  /** Short human description shown on the approval card. */
  description: string;
  /** Catastrophic: refused in every mode (see `Detection.floor`). */
  floor?: boolean;
  /**
   * Whether the rule matches `cmd`.
   * @returns the targets it acts on (possibly empty) when it matches, null when it does not.
   */
  match(cmd: SimpleCommand, ctx: RuleContext): string[] | null;
}
