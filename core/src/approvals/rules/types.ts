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
