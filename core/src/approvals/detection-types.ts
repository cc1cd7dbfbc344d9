/**
 * What the approval rules find in a command line: the contract between the rules (which decide
 * what is dangerous), the guard (which decides whether to ask) and the allowlist (which remembers
 * what the user approved, narrowly).
 */
import type { ShellAnalysis, SimpleCommand } from './shell/analyze.js';

/** One rule that matched one simple command of the line. */
export interface RuleHit {
  /** Stable kebab-case id of the rule's class (e.g. `recursive-delete`); never renamed. */
  key: string;
  /** Short human description shown on the approval card. */
  description: string;
  /**
   * The simple command that matched; null for a match of a text pattern on the whole line (a line
   * the grammar could not parse, or a rule about the line as a whole). A hit found in another view
   * of the line (as a terminal renders it, or a script the line builds as text: detect.ts) names
   * a command of that view.
   */
  command: SimpleCommand | null;
  /**
   * What the command acts on, as the allowlist records it: paths resolved against the working
   * folder (absolute, `~` and `$HOME` expanded), hosts, branch or package names. Empty when the
   * rule has no targets.
   */
  targets: string[];
}

/** The rules' findings for one command line. */
export interface Detection {
  /**
   * Catastrophic commands (delete of `/`, `~` or a top-level system folder, formatting or
   * overwriting a disk, fork bomb, `kill -1`, shutdown/reboot …): refused in every approval mode,
   * `off` and `--yolo` included; no allowlist entry unlocks them.
   */
  floor: RuleHit[];
  /** Dangerous commands: the user is asked unless an allowlist or session entry covers each. */
  hits: RuleHit[];
  /** The parsed line, or null when the grammar could not be loaded. */
  analysis: ShellAnalysis | null;
}

/** Where a command line runs, for rules about paths. */
export interface DetectContext {
  /** The running Hermes root (`~/.hermes` or `$HERMES_HOME`): every path into it is flagged. */
  hermesRoot?: string;
  /** The user's home folder (for `~`, `$HOME` and credential files); default `os.homedir()`. */
  userHome?: string;
  /** The folder the command runs in (relative paths resolve against it); default `process.cwd()`. */
  cwd?: string;
  /** Variables the command's shell would see, for expanding `$NAME` in paths. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The running profile's own folder (`HermesHome.dir`; the root for `default`): its
   * `workspace/` and `skills/` are the agent's to use, the rest of the root is not. Default: the
   * root (profile `default`).
   */
  profileHome?: string;
  /**
   * Pid of the running daemon (the Hermes root's `tui-gateway.json` / `tui-gateway.lock`);
   * default: read from those files when `hermesRoot` is known.
   */
  daemonPid?: number;
  /** Loopback port the daemon listens on (its discovery file); default: read from that file. */
  daemonPort?: number;
}
