/** The tool contract: schema, handler, and the context every handler receives. */
import type { ZodType } from 'zod';
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { ApprovalVerdict } from '../approvals/types.js';
import type { DelegateCapability } from './delegate-types.js';
import type { SessionProcesses } from '../processes/scope.js';

/** One entry of the session's task list (`todo` tool). */
export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

/** A question for the user (`clarify` tool). Resolves with the answer text. */
export type ClarifyCallback = (
  q: { question: string; choices?: string[] },
  signal: AbortSignal,
) => Promise<string>;

/**
 * Confines the processes a tool starts (`terminal`, `execute_code`, background processes, MCP
 * stdio servers) under the session's sandbox policy. `off` runs them on the bare host.
 */
export interface CommandSandbox {
  /** The policy in force for this session's lane. */
  readonly mode: 'off' | 'workspace' | 'strict';
  /**
   * The argv that runs `argv` under the policy with `cwd` as the working folder (the sandbox's
   * own argv around it, or `argv` unchanged when `mode` is `off`).
   * @throws Error naming why when the policy needs a sandbox this machine cannot run.
   */
  wrap(argv: readonly string[], opts: SandboxWrapOptions): string[];
  /**
   * Settles, before a process is started, whether this session may run it: resolves `ok` when the
   * sandbox runs here (or is off), else applies `terminal.sandbox_fallback` — `ask` asks the user
   * once per session (through the approval path) and runs unsandboxed on yes; `refuse` and a no
   * resolve `{ok: false, message}` naming why and the fix. Never rejects. Absent: always ok.
   */
  ready?(signal: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }>;
  /**
   * What the sandbox stopped in a run whose combined output is `output` ("`<path>` is outside the
   * workspace, which is read-only inside the sandbox" …), or undefined when the output shows no
   * sign of it. `succeeded`: the run exited 0 (`find -exec`, `awk system()` hide their children's
   * failures), so only error lines of a program count, never text it printed as data. Absent or
   * `mode` off: nothing is explained.
   */
  explain?(output: string, succeeded?: boolean): string | undefined;
}

/** Options of `CommandSandbox.wrap`. */
export interface SandboxWrapOptions {
  /**
   * Where the command starts. The writable folder is the session's working folder (a `cwd`
   * outside it is read-only); a sandbox made without one (MCP servers) makes `cwd` writable.
   */
  cwd: string;
  /** Host paths the command must reach read-only although they would be hidden (a script's folder). */
  readOnlyPaths?: readonly string[];
  /** True: the process may outlive the daemon (no `--die-with-parent`). */
  detach?: boolean;
}

/** Everything a tool handler may use. Built per turn by the agent loop. */
export interface ToolContext {
  home: HermesHome;
  config: HermesConfig;
  /** This profile's secrets only (never another profile's). */
  secrets: Secrets;
  sessionId: string;
  /** Working directory for relative paths and the terminal. */
  cwd: string;
  /** Fires on interrupt; handlers must stop (and kill child processes) promptly. */
  signal: AbortSignal;
  /**
   * Checks a shell command against the dangerous-command guard, asking the user if needed.
   * @param cwd the folder the command will run in (its relative paths resolve there); default
   *   `cwd` above.
   */
  checkCommand(command: string, cwd?: string): Promise<ApprovalVerdict>;
  /**
   * Checks an `execute_code` script with the same guard (approvals/guard.ts `checkScript`): every
   * script needs approval unless `approvals.mode` is off or an entry for that exact script is
   * allowlisted or approved for the session; headless and cron contexts deny.
   */
  checkScript(script: { code: string; language: string }): Promise<ApprovalVerdict>;
  /** Asks the user a question; undefined when no frontend can answer (headless). */
  clarify?: ClarifyCallback;
  /** The session's task list, shared across turns of the session. */
  todos: TodoItem[];
  /** Reports progress text while the tool runs (becomes `tool.progress`). */
  progress(text: string): void;
  /**
   * Call before changing files at `path` (a file, or a folder with `info.command` for shell
   * commands): takes the turn's checkpoint of its project (`../checkpoints/tracker.ts`). Never
   * rejects; absent where no checkpoints are kept (tests, one-off contexts).
   */
  beforeFileChange?(path: string, info?: { command?: string }): Promise<void>;
  /**
   * Asks whether an edit may be written, showing its diff (`approvals.edits: ask`; edit-confirm.ts
   * builds the request). Absent: edits are written without asking. The verdict fails closed.
   * @param tool the tool that writes (`write_file`, `patch`).
   */
  checkEdit?(tool: string, edit: { path: string; diff: string }): Promise<ApprovalVerdict>;
  /**
   * Runs sub-agents for `delegate_task` (delegate-types.ts); set by the agent loop when its
   * session may delegate (`AgentOptions.delegation`), absent inside sub-agents and elsewhere.
   */
  delegate?: DelegateCapability;
  /** The sandbox policy of this session's lane; absent: processes run on the bare host. */
  sandbox?: CommandSandbox;
  /**
   * Checks whether `command` may run outside the sandbox (`terminal` with `outside_sandbox`): an
   * approval like any other — the floor holds, a human is asked (never the smart check),
   * `approvals.mode: off` allows, headless and cron contexts deny. Absent: such a run is denied.
   */
  checkOutsideSandbox?(command: string, cwd?: string): Promise<ApprovalVerdict>;
  /**
   * The daemon's background processes, narrowed to this session's profile
   * (`terminal` with `background: true`, the `process` tool); absent outside the daemon.
   */
  processes?: SessionProcesses;
  /**
   * The text files of an editor attached to the session (ACP `fs/*`), used by `read_file`,
   * `write_file` and `patch` for files that exist: reads see its unsaved buffers, writes land in
   * them. Absent, or a call that resolves undefined/false (no editor, a timeout, an error): the
   * disk.
   */
  editorFiles?: EditorFiles;
}

/**
 * An attached editor's view of text files. `path` is absolute. Never rejects: undefined / false
 * mean "use the disk".
 */
export interface EditorFiles {
  /** The file's text as the editor has it (its buffer, unsaved edits included). */
  read(path: string): Promise<string | undefined>;
  /** Replaces the file's text in the editor. @returns true when the editor took it. */
  write(path: string, content: string): Promise<boolean>;
}

/** What a handler returns. `content` goes to the model (capped by the registry). */
export interface ToolResult {
  ok: boolean;
  content: string;
  /** One-line summary for frontends (`tool.complete.summary`). */
  summary?: string;
  /**
   * Set when the call was refused before it ran (the approval guard denied its command or
   * script, or a context forbids it): `reason` is the guard's reason (`denied`, `timeout`,
   * `no_frontend`, `interrupted`, `floor`) or the context's; `sandbox` when the session's sandbox
   * stopped the run (a write outside the workspace, a hidden path, the network when off) or cannot
   * run here. `ok` is then false. Travels as `tool.complete.blocked`; cron runs count such calls
   * to mark the run `blocked`.
   */
  blocked?: { reason: string };
}

/** What decides whether a tool is offered in a session (`ToolDefinition.available`). */
export interface ToolEnv {
  config: HermesConfig;
  /** The profile's secrets (`.env`); keys exported in the process environment count too. */
  secrets: Secrets;
}

/**
 * A tool: JSON schema for the model, handler, and the facts about it. Built-in tools are made by
 * `defineTool` (define.ts); MCP tools and test fakes are written as plain objects with a JSON
 * Schema only.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  /**
   * JSON Schema of the arguments object. Tools made by `defineTool` read it from the generated
   * table (tool-schemas.generated.ts, rendered from their zod schemas by `npm run gen:protocol`).
   */
  parameters: Record<string, unknown>;
  /**
   * Returns the zod schema `runTool` parses the arguments with (the handler then gets its
   * output); the first call imports zod and builds it, later calls return the same schema. Absent
   * (MCP tools): the arguments are checked against `parameters` (required, types, enums).
   */
  argsSchema?(): Promise<ZodType>;
  /** True when the tool never changes anything: such calls of one response run concurrently. */
  readOnly: boolean;
  /** Toolsets of `delegate_task` it belongs to (define.ts `TOOLSET_NAMES`); absent: none. */
  toolsets?: readonly string[];
  /** True when an `execute_code` script may call it; absent: false. */
  inScripts?: boolean;
  /** False when `delegate_task` sub-agents never get it; absent: true. */
  forSubagents?: boolean;
  /** False when unattended cron runs never get it; absent: true. */
  inCron?: boolean;
  /** Display verb for frontends, `[done, running]` (e.g. `['Ran', 'Running']`); absent: the name. */
  verb?: readonly [done: string, running: string];
  /** Cap on `content` in chars; default 100,000. Longer results keep head and tail. */
  maxResultChars?: number;
  /** Short summary of the arguments for `tool.start` (e.g. the command). */
  summarize?(args: Record<string, unknown>): string;
  /**
   * False when the tool cannot work in this profile (e.g. `web_search` without a configured
   * provider): it is then not offered to the model at all (`availableTools` in registry.ts).
   * Absent: always offered. Must be cheap and must not throw.
   */
  available?(env: ToolEnv): boolean;
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
