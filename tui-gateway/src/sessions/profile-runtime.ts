/**
 * Per-profile resources inside the one daemon: each
 * profile's home, config, secrets and SessionDB handle. Nothing is process-wide: a session of one
 * profile never sees another's keys, files or sessions.
 */
import { statSync } from 'node:fs';
import { setConfigValue, type HermesConfig, type Secrets } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import { RpcErrorCode } from '@hermes/core/protocol';
import { fileStamp } from '@hermes/core/util';
import { SessionDB, SessionDBError } from '@hermes/core/state';
import type { McpManager, McpServerStatus } from '@hermes/core/mcp';
import { builtinTools, mcpServerSandbox, type ToolDefinition } from '@hermes/core/tools';
import { RpcMethodError } from '../rpc/types.js';
import { ProfileConfigFiles, type ConfigProblem, type ProfileChange } from './profile-config.js';
import { ProfileWriter } from './profile-writer.js';

/** Device and inode of a folder, or undefined when it does not exist. */
function folderIdentity(dir: string): string | undefined {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One profile's loaded resources. Config and secrets are re-read when their files change on disk
 * (`refresh()`, profile-config.ts) or at once by `reload()`.
 */
export class ProfileRuntime {
  readonly home: HermesHome;
  private readonly files: ProfileConfigFiles;
  private database: SessionDB | undefined;
  private profileWriter: ProfileWriter | undefined;
  private readonly logLine: (line: string) => void;
  private mcpManager: Promise<McpManager> | undefined;
  private readyMcp: McpManager | undefined;

  private readonly identity: string | undefined;
  /** The damaged state.db's stamp when opening it failed, and the error to answer with. */
  private damaged: { stamp: string | undefined; error: RpcMethodError } | undefined;

  /**
   * @param log where the daemon's log lines go; unknown config.yaml keys are logged there each
   *   time the config is (re-)read, and so are reloads and broken edits.
   * @param onChange told after a `refresh()`/`reload()` that changed something (the registry
   *   tells clients and sessions).
   * @param onMcpStatus told each time one of the profile's MCP servers changes state (the
   *   registry sends `mcp.status` to every client).
   */
  constructor(
    root: string,
    readonly name: string,
    log?: (line: string) => void,
    private readonly onChange?: (profile: ProfileRuntime, change: ProfileChange) => void,
    private readonly onMcpStatus?: (profile: ProfileRuntime, status: McpServerStatus) => void,
  ) {
    this.home = new HermesHome(root, name);
    this.logLine = log ?? (() => undefined);
    this.identity = folderIdentity(this.home.dir);
    this.files = new ProfileConfigFiles(this.home, `profile ${name}`, log);
  }

  /**
   * False once the profile's folder is gone or is another folder than when this runtime was
   * made (`hermes profile delete`, `rename`, then `create`/`import` under the same name): its
   * cached config, secrets and database handle belong to a profile that no longer exists.
   */
  isCurrent(): boolean {
    return this.identity !== undefined && folderIdentity(this.home.dir) === this.identity;
  }

  /**
   * The validated config in use (cached; the last good one while config.yaml is broken after an
   * edit); its unknown keys are logged when it is read.
   * @throws ConfigError for a config.yaml that is broken at its first read.
   */
  get config(): HermesConfig {
    return this.files.getConfig();
  }

  /** This profile's secrets only (cached until `.env` changes). */
  get secrets(): Secrets {
    return this.files.getSecrets();
  }

  /** Increases each time the config or secrets in use change (see `refresh`). */
  get configVersion(): number {
    return this.files.version;
  }

  /** config.yaml as edited on disk cannot be used (the last good config is in use), or undefined. */
  get configProblem(): ConfigProblem | undefined {
    return this.files.problem;
  }

  /**
   * Re-reads config.yaml and `.env` if they changed on disk (stat-on-use: cheap enough for every
   * session open and turn start) and tells `onChange`. Never throws.
   * @returns what changed, or undefined.
   */
  refresh(): ProfileChange | undefined {
    return this.changed(this.files.refresh());
  }

  /**
   * The profile's SessionDB, opened on first use.
   * @throws RpcMethodError(ProfileUnavailable) while its state.db is damaged: the message names the
   *   file, what is wrong and how to recover. The failure is remembered until the file changes
   *   (moved aside, restored), so a damaged file is not re-examined at every request.
   */
  get db(): SessionDB {
    if (!this.database) {
      const stamp = fileStamp(this.home.stateDbFile);
      if (this.damaged && this.damaged.stamp === stamp) throw this.damaged.error;
      this.damaged = undefined;
      try {
        this.home.ensure();
        // writes never wait for another process's lock on the event loop (profile-writer.ts)
        this.database = SessionDB.open(this.home.stateDbFile, { waitForLocks: false });
      } catch (err) {
        if (!(err instanceof SessionDBError && err.code === 'ECORRUPT')) throw err;
        const error = new RpcMethodError(
          RpcErrorCode.ProfileUnavailable,
          `profile "${this.name}" is unavailable: ${err.message}`,
          { profile: this.name, file: err.file },
        );
        this.damaged = { stamp, error };
        throw error;
      }
    }
    return this.database;
  }

  /**
   * Why this profile cannot be used (its state.db is damaged), or undefined. Opens the database
   * if it is not open yet.
   */
  unavailable(): string | undefined {
    try {
      void this.db;
      return undefined;
    } catch (err) {
      const damaged = this.damaged;
      return damaged && err === damaged.error ? damaged.error.message : undefined;
    }
  }

  /**
   * The profile's MCP servers, started on first use; one manager per
   * profile, so one profile's servers never appear in another's sessions.
   */
  mcp(log?: (line: string) => void): Promise<McpManager> {
    this.mcpManager ??= import('./lazy-mcp.js').then(async ({ McpManager }) => {
      const m = new McpManager({
        home: this.home,
        secrets: this.secrets,
        ...(log ? { log } : {}),
        onStatus: (status) => this.onMcpStatus?.(this, status),
        // stdio servers start under the profile's tui-lane sandbox policy of the config at that moment
        sandbox: () => mcpServerSandbox(this.home, this.config),
      });
      this.readyMcp = m; // its tools() lists each server as soon as that one is ready
      await m.start(this.config.mcp_servers);
      return m;
    });
    return this.mcpManager;
  }

  /** Starts the MCP servers when the config names any (called when the profile is first used). */
  warmUp(log?: (line: string) => void): void {
    const servers = (this.config as { mcp_servers?: Record<string, unknown> }).mcp_servers;
    if (servers && Object.keys(servers).length > 0)
      this.mcp(log).catch((err: unknown) =>
        log?.(`profile ${this.name}: MCP servers failed to start: ${(err as Error).message}`),
      );
  }

  /**
   * Tools for a session's next turn: the built-ins plus the tools of this profile's MCP servers
   * that are ready now (sessions call this at every turn, so a server that gets ready later, or
   * is removed by `/mcp reload`, shows up or goes on their next turn).
   */
  tools(): ToolDefinition[] {
    return this.readyMcp ? [...builtinTools(), ...this.readyMcp.tools()] : builtinTools();
  }

  /**
   * Re-reads config and secrets now, whatever the files' stamps say (after `config.set`,
   * `secrets.set`, `/mcp reload`), and tells `onChange` when something changed. Never throws:
   * a broken config.yaml keeps the last good config (`configProblem`).
   */
  reload(): void {
    this.changed(this.files.refresh(true));
  }

  /**
   * Sets one key of config.yaml for a client (`config.set`) and re-reads it at once: what it
   * loosens is reported as asked for `by` (profile-config.ts).
   * @throws ConfigError when the result would be invalid (nothing is written).
   */
  writeConfig(key: string, value: unknown, by: string): void {
    setConfigValue(this.home, key, value);
    this.files.noteOwnWrite(key, by);
    this.reload();
  }

  /**
   * Told by the daemon's write listener (config-file.ts `onConfigWrite`) that this process wrote
   * `key` into this profile's config.yaml: `before` re-reads the file first (whatever changed it
   * until now is reported as such), `after` notes the write as the daemon's own.
   */
  ownWrite(key: string, phase: 'before' | 'after'): void {
    if (phase === 'before') this.refresh();
    else this.files.noteOwnWrite(key);
  }

  private changed(change: ProfileChange | undefined): ProfileChange | undefined {
    if (change && !change.same) this.onChange?.(this, change);
    return change;
  }

  /**
   * The profile's never-blocking writer for the turn path (profile-writer.ts): a locked state.db
   * queues this profile's writes instead of stalling the daemon.
   */
  get writer(): ProfileWriter {
    return (this.profileWriter ??= new ProfileWriter(() => this.db, this.logLine));
  }

  close(): void {
    if (this.database) this.profileWriter?.drainNow();
    this.profileWriter = undefined;
    this.database?.close();
    this.database = undefined;
    void this.mcpManager?.then((m) => m.close()).catch(() => undefined);
    this.mcpManager = undefined;
    this.readyMcp = undefined;
  }
}

/** The profiles under a root (the original's `profiles_to_serve`); one scan for the daemon. */
export { listProfileNames } from '../lifecycle/profiles.js';
