/**
 * The daemon's loaded profiles: each profile's runtime (config, secrets, database, tools) loaded
 * on first use and dropped when the profile was deleted, renamed or re-created while none of its
 * sessions is live; config.yaml and `.env` polled so that every client learns of an edit
 * (`config.changed`) while no session is busy; MCP status changes broadcast (`mcp.status`); and
 * the daemon's own config writes told apart from outside edits.
 */
import { existsSync } from 'node:fs';
import { onConfigWrite } from '@hermes/core/config';
import { DEFAULT_PROFILE } from '@hermes/core/home';
import { mcpStatusPayload } from '@hermes/core/mcp';
import { wireEvent, type EventPayload, type WireEvent, RpcErrorCode } from '@hermes/core/protocol';
import { RpcMethodError } from '../rpc/types.js';
import type { ProfileChange } from './profile-config.js';
import { listProfileNames, ProfileRuntime } from './profile-runtime.js';

/**
 * How often the loaded profiles' config.yaml and `.env` are stat'ed between uses, ms, so clients
 * learn of an edit (`config.changed`) while no session is busy. Session opens and turn starts
 * check anyway.
 */
export const CONFIG_POLL_MS = 2_000;

/** Options of `LoadedProfiles`. */
export interface LoadedProfilesOptions {
  /** The folder holding the profiles. */
  root: string;
  log?: ((line: string) => void) | undefined;
  /** Sends an event to every client: `config.changed`, `mcp.status`. */
  broadcast?: ((event: WireEvent) => void) | undefined;
  /** Interval of the config-file check, ms (default `CONFIG_POLL_MS`; 0: only on use). */
  configPollMs?: number | undefined;
  /** True while `profile` has live sessions (its runtime is then kept whatever happens on disk). */
  hasLiveSessions(profile: string): boolean;
  /** A profile's config changed (after `config.changed` went out): its sessions follow. */
  onConfigChange(profile: ProfileRuntime): void;
}

/** The loaded profiles of the daemon (see the file comment). */
export class LoadedProfiles {
  private readonly profiles = new Map<string, ProfileRuntime>();
  private readonly configTimer: NodeJS.Timeout | undefined;
  private readonly stopWriteListener: () => void;

  constructor(private readonly opts: LoadedProfilesOptions) {
    // this process's own config.yaml writes (an `always` answer, config.set) are not "outside"
    this.stopWriteListener = onConfigWrite((file, key, phase) => {
      for (const p of this.profiles.values()) if (p.home.configFile === file) p.ownWrite(key, phase);
    });
    const poll = opts.configPollMs ?? CONFIG_POLL_MS;
    if (poll > 0) {
      this.configTimer = setInterval(() => {
        for (const p of this.profiles.values()) p.refresh();
      }, poll);
      this.configTimer.unref();
    }
  }

  /**
   * The profiles known to be unusable now (their state.db is damaged), with the error their
   * requests get. Only loaded profiles are looked at (start-up recovery loads the damaged ones);
   * one whose file was moved aside or restored since is re-checked and leaves the list.
   */
  unavailable(): Array<{ profile: string; error: string }> {
    const out: Array<{ profile: string; error: string }> = [];
    for (const p of this.profiles.values()) {
      const error = p.unavailable();
      if (error) out.push({ profile: p.name, error });
    }
    return out.sort((a, b) => a.profile.localeCompare(b.profile));
  }

  /** Names of every profile under the root. */
  names(): string[] {
    return listProfileNames(this.opts.root);
  }

  /**
   * The runtime of a profile, loaded on first use. A plain lookup does not re-check its files:
   * config.yaml and `.env` are re-read when they changed at the documented points only — a
   * session opening, a turn starting (session-config.ts) and the poll (`configPollMs`);
   * `ProfileRuntime.reload()` after the daemon's own writes.
   * @throws RpcMethodError(ProfileNotFound) for a profile that does not exist.
   */
  get(name: string = DEFAULT_PROFILE): ProfileRuntime {
    let p = this.profiles.get(name);
    if (p && !p.isCurrent() && !this.opts.hasLiveSessions(name)) {
      // deleted, renamed or re-created since it was loaded: never hand out its old config,
      // secrets or database to whatever now carries the name
      p.close();
      this.profiles.delete(name);
      p = undefined;
    }
    if (!p) {
      p = new ProfileRuntime(
        this.opts.root,
        name,
        (line) => this.opts.log?.(line),
        (rt, change) => this.configChanged(rt, change),
        (rt, status) => {
          const payload = mcpStatusPayload(rt.name, status); // restarts and failures reach every client
          if (payload)
            this.opts.broadcast?.(wireEvent('mcp.status', '*', 0, payload, Date.now(), this.opts.log));
        },
      );
      if (name !== DEFAULT_PROFILE && !existsSync(p.home.dir)) {
        throw new RpcMethodError(
          RpcErrorCode.ProfileNotFound,
          `profile "${name}" does not exist (hermes profile create ${name})`,
        );
      }
      this.profiles.set(name, p);
      try {
        p.warmUp((line) => this.opts.log?.(line)); // start its MCP servers early
      } catch (err) {
        this.opts.log?.(`profile ${name}: ${(err as Error).message}`);
      }
    }
    return p;
  }

  /**
   * A profile's config.yaml or `.env` changed on disk (or broke): every client gets
   * `config.changed` (its profile, the files, the model now configured, the error), then the
   * profile's sessions follow (`onConfigChange`).
   */
  private configChanged(profile: ProfileRuntime, change: ProfileChange): void {
    let model: string | undefined;
    try {
      model = profile.config.model.default || undefined;
    } catch {
      model = undefined;
    }
    const { problem } = change;
    const payload: EventPayload<'config.changed'> = {
      profile: profile.name,
      files: change.files,
      ...(model ? { model } : {}),
      ...(problem
        ? {
            error: {
              file: problem.file,
              message: problem.message,
              ...(problem.key ? { key: problem.key } : {}),
            },
          }
        : {}),
      ...(change.loosened ? { loosened: change.loosened } : {}),
    };
    // built outside the try: a payload that breaks its schema fails the test that caused it
    const event = wireEvent('config.changed', '*', 0, payload, Date.now(), this.opts.log);
    try {
      this.opts.broadcast?.(event);
    } catch (err) {
      this.opts.log?.(`config.changed broadcast failed: ${(err as Error).message}`);
    }
    this.opts.onConfigChange(profile);
  }

  /** Closes every loaded profile and stops the poll and the write listener (shutdown). */
  close(): void {
    for (const p of this.profiles.values()) p.close();
    clearInterval(this.configTimer);
    this.stopWriteListener();
  }
}
