/**
 * The approval guard: decides whether a shell command may run.
 *
 * The agent loop creates one guard per session and hands `guard.check` to the tools as
 * `ToolContext.checkCommand`; the model never sees it, cannot call it, and cannot switch it off
 * (it is not a tool, and the mode comes from config or the `--yolo` flag only).
 *
 * Decision order for one command (the rules: detect.ts and rules/):
 * 0. A floor hit — a catastrophic command: deleting `/`, the home folder or a top-level system
 *    folder, formatting or overwriting a disk, a fork bomb, killing every process, shutting down or
 *    rebooting — is refused in every mode (`off` and `--yolo` included, cron, smart, any allowlist
 *    or session entry) with reason `floor`; nobody is asked.
 * 1. No rule matches → allowed (`safe`).
 * 2. Mode `off` (`approvals.mode: off`, or `--yolo`) → allowed (`mode_off`).
 * 3. Every hit is covered by an entry of `command_allowlist` or of this session's approvals, or
 *    the exact command line is an old-format entry of `command_allowlist` → allowed (`allowlist`
 *    / `session`).
 * 4. Otherwise the user is asked through the frontend's callback; the request lists the entries
 *    `session` and `always` would store (`allows`). `once` allows this time; `session` also
 *    remembers those entries for the rest of this session; `always` also appends them to this
 *    profile's `command_allowlist` in `config.yaml`;
 *    `deny` denies. No callback, no answer within `approvals.timeout` seconds, an abort, a
 *    callback that throws or answers something not in the request's `choices` → denied (fail
 *    closed; the daemon applies the same rule to its clients' answers).
 *
 * Entries are narrow (allowlist.ts; text format in allowlist-entry.ts): one per hit, with the rule
 * key, the program and its arguments (sub-command and inline code exact), its options order-free,
 * and its targets as resolved in the command's folder. A later command is covered only when each
 * of its hits has an entry of the same key and shape whose targets include the hit's: `always` on
 * `rm -rf build` allows that delete of that folder, not `rm -rf ~/Documents`. Old entries that
 * approved a whole class — a bare pattern key (`recursive-delete`, what `always` used to write)
 * or a pattern description (the original agent's) — approve nothing and are reported (`hermes
 * config check`, `/permissions`); an old full command line still approves that exact line
 * (whitespace-normalised).
 *
 * Scripts (`execute_code`) go through `checkScript`: arbitrary code the patterns cannot inspect,
 * so every script counts as matching the pseudo-pattern `execute-code` and then follows the same
 * steps (the floor first, read in the script as in `python3 -c` code; mode `off` runs the rest; an entry for that exact script — language and code — covers it; else
 * the user is asked, shown the language and the script's head; headless and cron deny). The
 * original Hermes gates execute_code the same way (tools/approval.py `check_execute_code_guard`,
 * pattern key `execute_code`), but only where a gateway or ask surface exists; here every context
 * with a user asks, since the script's own file and process calls bypass every other check.
 *
 * Mode `smart` (smart.ts) adds one step before 4, only when a human could be asked (a callback
 * exists; headless and cron contexts keep the rules above): an auxiliary model judges the
 * command. `approve` → allowed (`smart_approved`) without asking, for this command only; `deny`
 * → the user is asked but may only answer `once` or `deny` (any other answer is a deny), and
 * nothing is remembered; `escalate`, and every failure of the check → the user is asked as in
 * manual mode. The request's
 * description carries the check's one-line reason. Without `smart` options it asks like manual.
 *
 * What the user is shown and what the model is told on a denial: guard-messages.ts.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import {
  ApprovalSet,
  coveredBy,
  entriesForLine,
  outsideSandboxEntry,
  scriptEntry,
  type AllowEntry,
} from './allowlist.js';
import type { DangerousMatch } from './dangerous-patterns.js';
import { detectCommand } from './detect.js';
import { LEGACY_CLASSES } from './legacy-allowlist.js';
import {
  denialMessage,
  describeMatches,
  describeWithSmart,
  OUTSIDE_SANDBOX_DESCRIPTION,
  refuseFloor,
  scriptDescription,
  scriptRequestText,
  type Denied,
} from './guard-messages.js';
import { ask } from './guard-ask.js';
import { assessCommand, type SmartAssessment, type SmartCheckOptions } from './smart.js';
import {
  APPROVAL_CHOICES,
  EXECUTE_CODE_KEY,
  type ApprovalCallback,
  type ApprovalChoice,
  type ApprovalRequest,
  type ApprovalVerdict,
  type EditApproval,
} from './types.js';

/** Approval mode: `manual` asks, `smart` lets a model approve low-risk matches first, `off` never asks. */
export type ApprovalMode = 'manual' | 'smart' | 'off';

/** Writes the profile's new full allowlist somewhere durable. */
export type AllowlistWriter = (allowlist: string[]) => void | Promise<void>;

/** Options of `createApprovalGuard`. */
export interface ApprovalGuardOptions {
  /** The profile's configuration: `approvals.mode`, `approvals.timeout`, `command_allowlist`. */
  config: HermesConfig;
  /** The profile's home; `always` writes its `config.yaml`. */
  home: HermesHome;
  sessionId: string;
  /** Overrides `approvals.mode`; the CLI's `--yolo` passes `'off'`. */
  mode?: ApprovalMode;
  /** Asks a human; absent when no frontend can answer (headless) → dangerous commands are denied. */
  callback?: ApprovalCallback;
  /** How long to wait for an answer, ms. Default `approvals.timeout` seconds. */
  timeoutMs?: number;
  /**
   * What `always` does with the allowlist. `true` (default): write `command_allowlist` into the
   * home's `config.yaml` (re-read first, so entries added elsewhere are kept). `false`: keep it
   * in memory for this guard only. A function: called with the new full list.
   */
  persistAllowlist?: boolean | AllowlistWriter;
  /** Told when persisting an `always` approval fails (the command is still allowed this time). */
  onError?: (err: unknown) => void;
  /** How mode `smart` reaches its reviewer model; absent → `smart` asks like `manual`. */
  smart?: SmartCheckOptions;
  /**
   * The user's home folder for the path-aware patterns (credential files by absolute path);
   * default `os.homedir()`. The Hermes root they protect is `home.root`.
   */
  userHome?: string;
  /**
   * Entries (allowlist-entry.ts) already approved with `session` in this session: a guard rebuilt
   * for a changed config (the daemon re-reads config.yaml per turn) keeps them.
   */
  sessionApprovals?: Iterable<string>;
  /** The folder commands run in when `check` is not told one; default `process.cwd()`. */
  cwd?: string;
  /**
   * How the user can allow a command when no one could approve it here (reason `no_frontend`),
   * told to the model; default `NO_APPROVER_HINT` (run it interactively and approve it there).
   */
  noApproverHint?: string;
}

/** A session's approval guard. */
export interface ApprovalGuard {
  /** The effective mode. */
  readonly mode: ApprovalMode;
  /**
   * Decides whether `command` may run, asking the user when needed.
   * @param signal aborting it (an interrupt) while the user is asked denies the command.
   * @param onSmart told the smart check's assessment as soon as it is known (before the user is
   *   asked), so frontends can show it live; exceptions it throws are ignored.
   * @param cwd the folder the command runs in (its relative paths resolve there); default the
   *   guard's `cwd`.
   * @returns never rejects; every failure is a denial with a `message` for the model.
   */
  check(
    command: string,
    signal?: AbortSignal,
    onSmart?: (assessment: SmartAssessment) => void,
    cwd?: string,
  ): Promise<ApprovalVerdict>;
  /**
   * Decides whether an `execute_code` script may run (see the file comment), asking the user
   * when needed; same contract as `check`.
   */
  checkScript(
    script: ScriptApproval,
    signal?: AbortSignal,
    onSmart?: (assessment: SmartAssessment) => void,
  ): Promise<ApprovalVerdict>;
  /**
   * Decides whether `command` may run outside the session's sandbox (`terminal` with
   * `outside_sandbox: true`): the floor first; mode `off` allows; an entry for that exact line
   * (pseudo-pattern `outside-sandbox`) covers it; else a human is asked — never the smart check —
   * and headless contexts deny. The command's own rules are checked apart (`check`).
   */
  checkOutsideSandbox(command: string, signal?: AbortSignal, cwd?: string): Promise<ApprovalVerdict>;
  /**
   * Asks whether a session whose sandbox cannot run here may run its commands without it
   * (`terminal.sandbox_fallback: ask`): mode `off` allows; headless denies; else a human answers
   * `once` (yes, for this session) or `deny`. Nothing is remembered by the guard.
   */
  askSandboxFallback(question: string, signal?: AbortSignal): Promise<ApprovalVerdict>;
  /**
   * Asks a human whether a file edit may be written (`approvals.edits: ask`): `once` or `deny`,
   * never the smart check, nothing remembered. Mode `off` allows it without asking; no frontend,
   * a timeout or an interrupt deny (not written).
   * @param tool the tool that would write (`write_file`, `patch`).
   */
  askEdit(tool: string, edit: EditApproval, signal?: AbortSignal): Promise<ApprovalVerdict>;
  /** The entries approved with `session` in this session (those it was given, then new ones). */
  sessionApprovals(): string[];
  /**
   * Forgets an entry (`/permissions remove`): from this session's approvals and from the allowlist
   * this guard holds in memory (config.yaml is the caller's to edit).
   * @returns whether the guard held it.
   */
  revoke(entry: string): boolean;
}

/** A script to approve: its full text and language (`javascript`, `python`). */
export interface ScriptApproval {
  code: string;
  language: string;
}

export { EXECUTE_CODE_KEY };
export {
  CRON_NO_APPROVER_HINT,
  denialMessage,
  NO_APPROVER_HINT,
  OUTSIDE_SANDBOX_DESCRIPTION,
  SCRIPT_SHOWN_CHARS,
  SCRIPT_SHOWN_LINES,
  scriptDescription,
  scriptRequestText,
} from './guard-messages.js';

/** The pseudo-pattern of a command the model asked to run outside the sandbox. */
export const OUTSIDE_SANDBOX_KEY = 'outside-sandbox';
/** The pseudo-pattern of the question whether to run a session without its unavailable sandbox. */
export const SANDBOX_FALLBACK_KEY = 'sandbox-unavailable';
/** The pseudo-pattern of a file edit shown before it is written (`approvals.edits: ask`). */
export const EDIT_KEY = 'file-edit';

/** Only `once` and `deny`: the choices after the smart check judged a command dangerous. */
const OVERRIDE_CHOICES: readonly ApprovalChoice[] = ['once', 'deny'];

/**
 * Creates the approval guard of one session.
 * @throws never; a broken `config.yaml` only surfaces when `always` tries to write it (reported
 *   through `onError`, and the command is still allowed that once).
 */
export function createApprovalGuard(opts: ApprovalGuardOptions): ApprovalGuard {
  const mode: ApprovalMode = opts.mode ?? opts.config.approvals.mode;
  const timeoutMs = opts.timeoutMs ?? opts.config.approvals.timeout * 1000;
  // the profile's list as written (old class entries are kept but approve nothing), this session's
  const allowlist = new ApprovalSet(opts.config.command_allowlist, LEGACY_CLASSES);
  const sessionSet = new ApprovalSet(opts.sessionApprovals ?? [], LEGACY_CLASSES);
  const allow = (entry: string): void => allowlist.add(entry);

  async function persist(keys: string[]): Promise<void> {
    const writer = opts.persistAllowlist ?? true;
    if (writer === false) {
      keys.forEach(allow);
      return;
    }
    if (writer === true) {
      // Re-read the file so entries written by another process or session are kept. Loaded here,
      // not at start-up: the YAML parser and zod stay off `hermes chat`'s path (config-cache.ts).
      const { loadConfig, setConfigValue } = await import('../config/config-file.js');
      const current = loadConfig(opts.home).command_allowlist;
      const next = [...current];
      for (const k of keys) if (!next.includes(k)) next.push(k);
      setConfigValue(opts.home, 'command_allowlist', next);
      next.forEach(allow);
      return;
    }
    const next = allowlist.list();
    for (const k of keys) if (!next.includes(k)) next.push(k);
    await writer(next);
    next.forEach(allow);
  }

  const userHome = opts.userHome ?? homedir();

  async function check(
    command: string,
    signal?: AbortSignal,
    onSmart?: (assessment: SmartAssessment) => void,
    cwd?: string,
  ): Promise<ApprovalVerdict> {
    const where = { hermesRoot: opts.home.root, userHome, cwd: cwd ?? opts.cwd ?? process.cwd() };
    const detection = await detectCommand(command, { ...where, profileHome: opts.home.dir });
    if (detection.floor.length > 0) return refuseFloor(detection.floor);
    const matches = detection.hits;
    if (matches.length === 0) return { allowed: true, reason: 'safe' };
    if (mode === 'off') return { allowed: true, reason: 'mode_off' };
    if (allowlist.coversLine(command)) return { allowed: true, reason: 'allowlist' };
    const entries = entriesForLine(command, detection, where);
    return decide({ matches, entries, shown: command, reviewed: command, signal, onSmart });
  }

  async function checkScript(
    script: ScriptApproval,
    signal?: AbortSignal,
    onSmart?: (assessment: SmartAssessment) => void,
  ): Promise<ApprovalVerdict> {
    // the floor holds for scripts too, in every mode: the script is judged as the inline code of
    // its interpreter (`python3 -c CODE`, `node -e CODE`), whose shell strings, recursive deletes
    // and the like the floor rules read
    const where = { hermesRoot: opts.home.root, userHome, cwd: opts.cwd ?? process.cwd() };
    const asLine = `${script.language === 'python' ? 'python3 -c' : 'node -e'} '${script.code.replace(/'/g, `'\\''`)}'`;
    const floor = (await detectCommand(asLine, { ...where, profileHome: opts.home.dir })).floor;
    if (floor.length > 0) return refuseFloor(floor);
    if (mode === 'off') return { allowed: true, reason: 'mode_off' };
    const matches = [{ key: EXECUTE_CODE_KEY, description: scriptDescription(script.language) }];
    // the reviewer sees the whole script; the user its head (the request stays readable)
    const reviewed = `execute_code (${script.language}):\n${script.code}`;
    const subject = 'a script';
    const entries = [scriptEntry(EXECUTE_CODE_KEY, script.language, script.code)];
    const shown = scriptRequestText(script);
    return decide({ matches, entries, shown, reviewed, signal, onSmart, subject });
  }

  async function checkOutsideSandbox(
    command: string,
    signal?: AbortSignal,
    cwd?: string,
  ): Promise<ApprovalVerdict> {
    const where = { hermesRoot: opts.home.root, userHome, cwd: cwd ?? opts.cwd ?? process.cwd() };
    const detection = await detectCommand(command, { ...where, profileHome: opts.home.dir });
    if (detection.floor.length > 0) return refuseFloor(detection.floor);
    if (mode === 'off') return { allowed: true, reason: 'mode_off' };
    const matches = [{ key: OUTSIDE_SANDBOX_KEY, description: OUTSIDE_SANDBOX_DESCRIPTION }];
    const entries = [outsideSandboxEntry(OUTSIDE_SANDBOX_KEY, command)];
    const subject = 'running a command outside the sandbox';
    return decide({
      matches,
      entries,
      shown: command,
      reviewed: command,
      signal,
      onSmart: undefined,
      subject,
      humanOnly: true,
    });
  }

  function askSandboxFallback(question: string, signal?: AbortSignal): Promise<ApprovalVerdict> {
    if (mode === 'off') return Promise.resolve({ allowed: true, reason: 'mode_off' });
    const matches = [{ key: SANDBOX_FALLBACK_KEY, description: question }];
    const subject = "running this session's commands without the sandbox";
    return decide({
      matches,
      entries: [],
      shown: "run this session's commands without the sandbox",
      reviewed: question,
      signal,
      onSmart: undefined,
      subject,
      humanOnly: true,
      onceOnly: true,
    });
  }

  function askEdit(tool: string, edit: EditApproval, signal?: AbortSignal): Promise<ApprovalVerdict> {
    if (mode === 'off') return Promise.resolve({ allowed: true, reason: 'mode_off' });
    return decide({
      matches: [{ key: EDIT_KEY, description: `${tool} changes ${edit.path} (approvals.edits: ask)` }],
      entries: [],
      shown: `${tool} ${edit.path}`,
      reviewed: edit.diff,
      signal,
      onSmart: undefined,
      subject: `writing ${edit.path}`,
      humanOnly: true,
      onceOnly: true,
      edit,
    });
  }

  /** Steps 3 and 4 of the file comment for matched patterns. */
  async function decide(d: {
    matches: DangerousMatch[];
    /** The entries that approve this command: one per hit (what `session` / `always` store). */
    entries: AllowEntry[];
    /** The request's `command` (what the user sees). */
    shown: string;
    /** What the smart check judges. */
    reviewed: string;
    signal: AbortSignal | undefined;
    onSmart: ((assessment: SmartAssessment) => void) | undefined;
    /** What was flagged, for the denial message. */
    subject?: string;
    /** True: only a human may approve (no smart check). */
    humanOnly?: boolean;
    /** True: only `once` or `deny` are offered (nothing to remember; `entries` empty). */
    onceOnly?: boolean;
    /** A file edit: carried on the request for the frontends' diff card. */
    edit?: EditApproval;
  }): Promise<ApprovalVerdict> {
    const { matches, signal, onSmart } = d;
    if (d.entries.length > 0 && coveredBy(d.entries, allowlist, sessionSet)) {
      return { allowed: true, reason: coveredBy(d.entries, allowlist) ? 'allowlist' : 'session' };
    }

    const description = describeMatches(matches);
    const deny = (reason: Denied['reason']): Denied => ({
      allowed: false,
      reason,
      message: denialMessage(
        reason,
        description,
        Math.round(timeoutMs / 1000),
        d.subject,
        opts.noApproverHint,
      ),
    });
    if (signal?.aborted) return deny('interrupted');
    if (!opts.callback) return deny('no_frontend');

    let smart: SmartAssessment | undefined;
    if (mode === 'smart' && opts.smart && !d.humanOnly) {
      smart = await assessCommand(opts.smart, d.reviewed, description, signal);
      try {
        onSmart?.(smart);
      } catch {
        /* display only */
      }
      if (signal?.aborted) return { ...deny('interrupted'), smart };
      if (smart.verdict === 'approve') return { allowed: true, reason: 'smart_approved', smart };
    }
    // A smart DENY still reaches the owner, but only as a one-time override (original agent).
    const overrideOnly = smart?.verdict === 'deny' || d.onceOnly === true;

    const request: ApprovalRequest = {
      requestId: randomUUID(),
      sessionId: opts.sessionId,
      command: d.shown,
      description: describeWithSmart(description, smart),
      patternKeys: [...new Set(matches.map((m) => m.key))],
      allows: d.entries.map((e) => e.text),
      choices: overrideOnly ? OVERRIDE_CHOICES : APPROVAL_CHOICES,
      ...(smart ? { smart } : {}),
      ...(d.edit ? { edit: d.edit } : {}),
    };
    const { answer, by, noApprover } = await ask(opts.callback, request, timeoutMs, signal);
    const asked = { choice: answer === 'timeout' || answer === 'interrupted' ? 'deny' : answer, by } as const;
    const extra = smart ? { asked, smart } : { asked };
    switch (answer) {
      case 'timeout':
      case 'interrupted':
        return { ...deny(answer), ...extra };
      case 'deny':
        // a frontend with no one who could approve (headless) is not a person who said no
        return { ...deny(noApprover ? 'no_frontend' : 'denied'), ...extra };
      case 'once':
        return { allowed: true, reason: 'approved', ...extra };
      case 'session':
      case 'always':
        // only reached when offered (pending.ts turns an answer outside `request.choices` into `deny`)
        if (answer === 'session') for (const e of request.allows) sessionSet.add(e);
        if (answer === 'always') {
          try {
            await persist(request.allows);
          } catch (err) {
            for (const e of request.allows) sessionSet.add(e); // not saved: this session at least
            opts.onError?.(err);
          }
        }
        return { allowed: true, reason: 'approved', ...extra };
    }
  }

  function revoke(entry: string): boolean {
    const inSession = sessionSet.remove(entry);
    return allowlist.remove(entry) || inSession;
  }

  return {
    mode,
    check,
    checkScript,
    checkOutsideSandbox,
    askSandboxFallback,
    askEdit,
    sessionApprovals: () => sessionSet.list(),
    revoke,
  };
}
