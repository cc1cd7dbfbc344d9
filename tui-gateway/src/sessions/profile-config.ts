/**
 * A profile's `config.yaml` and `.env` as the daemon sees them while it runs: loaded once, then
 * re-read when they change on disk (`hermes config set`, a hand edit, an editor that replaces the
 * file). Changes are detected by stat-on-use — `refresh()` compares each file's size, mtime,
 * ctime, inode and device with the values at its last read (two `stat` calls, no watcher to
 * lose when an editor renames a new file over the old one). The original Hermes gateway
 * likewise re-reads config for every new agent.
 *
 * A config.yaml that breaks after an edit never takes a working profile down: the last good
 * config stays in use and the problem (file, key, message) is reported once per distinct error. Only the first load of a broken file throws (there is nothing to fall back on).
 *
 * Each re-read also says which approval settings it loosened (config/approval-changes.ts) and
 * who asked for it: a change the daemon wrote itself (`noteOwnWrite`: a client's `config.set`
 * names the client, an `always` answer written by the guard names nobody and is not reported)
 * or, for everything else — a hand edit, `hermes config set`, a command or script the agent ran —
 * nobody (`by` absent: changed outside Hermes). A write of the daemon counts as its own only for
 * the keys it wrote, and only when the file is still the one it wrote (same stamp).
 */
import {
  approvalLoosenings,
  type ApprovalLoosening,
  loadConfigWithWarnings,
  ConfigError,
  type HermesConfig,
  loadSecrets,
  type Secrets,
} from '@hermes/core/config';
import type { HermesHome } from '@hermes/core/home';
import { fileStamp } from '@hermes/core/util';

/** A config.yaml on disk that cannot be used; the last good config stays in use. */
export interface ConfigProblem {
  /** Increases with every new error (each is reported once). */
  id: number;
  /** Absolute path of the broken file. */
  file: string;
  /** Dotted key at fault, when the problem is a value (not the YAML syntax). */
  key?: string;
  /** `ConfigError` message: names the file, the key when known, and what is wrong. */
  message: string;
}

/** A loosened approval setting as clients are told of it (`config.changed` `loosened`). */
export interface AnnouncedLoosening extends ApprovalLoosening {
  /** Who asked for it (a client's `config.set`: `<client name>:<connection id>`); absent: outside Hermes. */
  by?: string;
}

/** What one `refresh()` found. Secrets are never in it, only that `.env` changed. */
export interface ProfileChange {
  /**
   * Approval settings the new config.yaml loosened, except those an approval answer wrote
   * (`always`); absent when none.
   */
  loosened?: AnnouncedLoosening[];
  /** Files whose new content is now in use (`config.yaml`, `.env`); empty when only `problem` changed. */
  files: Array<'config.yaml' | '.env'>;
  /** Set while config.yaml on disk is broken (the last good config is in use). */
  problem?: ConfigProblem;
  /** True when the files changed but their content did not (e.g. `touch`): nothing to tell. */
  same: boolean;
}

/** The loaded config and secrets of one home, re-read when their files change. */
export class ProfileConfigFiles {
  private config: HermesConfig | undefined;
  private configKey = '';
  private configStamp: string | undefined;
  private secrets: Secrets | undefined;
  private secretsKey = '';
  private secretsStamp: string | undefined;
  private problemNow: ConfigProblem | undefined;
  private problemSeq = 0;
  private versionNow = 0;
  /** Keys the daemon wrote since the last read (`noteOwnWrite`), and the file's stamp after the last. */
  private own: { keys: Map<string, string | undefined>; stamp: string | undefined } | undefined;
  /** Loosenings found by the last read of config.yaml, until `refresh` reports them. */
  private loosenedNow: AnnouncedLoosening[] = [];

  /**
   * @param log receives unknown-key warnings (at every read of config.yaml) and reload lines.
   * @param label names the profile in log lines (`profile work`).
   */
  constructor(
    private readonly home: HermesHome,
    private readonly label: string,
    private readonly log?: (line: string) => void,
  ) {}

  /**
   * Increases each time the config or secrets in use change content (sessions compare it with
   * the version their agent was built with).
   */
  get version(): number {
    return this.versionNow;
  }

  /** The broken config.yaml on disk, while there is one (the last good config is in use). */
  get problem(): ConfigProblem | undefined {
    return this.problemNow;
  }

  /**
   * The config in use, read on first access.
   * @throws ConfigError when config.yaml is broken at its first read.
   */
  getConfig(): HermesConfig {
    if (!this.config) this.readConfig();
    return this.config!;
  }

  /** The secrets in use (`.env`), read on first access. */
  getSecrets(): Secrets {
    if (!this.secrets) this.readSecrets();
    return this.secrets!;
  }

  /**
   * Records that this daemon just wrote `key` into config.yaml (right after the write), so the
   * next read attributes what it loosens under that key to `by`, or — without `by` — does not
   * report it (the guard's own `always` write).
   */
  noteOwnWrite(key: string, by?: string): void {
    const keys = this.own?.keys ?? new Map<string, string | undefined>();
    keys.set(key, by ?? keys.get(key));
    this.own = { keys, stamp: fileStamp(this.home.configFile) };
  }

  /**
   * Re-reads config.yaml and `.env` if they changed on disk since their last read (`force`:
   * whatever their stamps say). Files never read yet are left for their first access.
   * @returns what changed, or undefined when nothing did. Never throws.
   */
  refresh(force = false): ProfileChange | undefined {
    const files: ProfileChange['files'] = [];
    let seen = false;
    const before = this.problemNow;
    if (this.config && (force || fileStamp(this.home.configFile) !== this.configStamp)) {
      seen = true;
      if (this.tryReadConfig()) files.push('config.yaml');
    }
    if (this.secrets && (force || fileStamp(this.home.envFile) !== this.secretsStamp)) {
      seen = true;
      if (this.readSecrets()) files.push('.env');
    }
    if (!seen) return undefined;
    if (files.length > 0) {
      this.versionNow++;
      this.log?.(`${this.label}: reloaded ${files.join(' and ')} (changed on disk)`);
    }
    const problem = this.problemNow;
    const same = files.length === 0 && problem === before;
    const loosened = this.loosenedNow;
    this.loosenedNow = [];
    return {
      files,
      same,
      ...(problem ? { problem } : {}),
      ...(loosened.length > 0 ? { loosened } : {}),
    };
  }

  /** Reads config.yaml into the cache. @returns whether its content changed. @throws ConfigError */
  private readConfig(): boolean {
    // before reading: an edit meanwhile shows next time (a file the loader migrated, i.e.
    // rewrote, costs one more read with nothing to tell)
    const stamp = fileStamp(this.home.configFile);
    const { config, warnings } = loadConfigWithWarnings(this.home);
    for (const w of warnings) this.log?.(`${this.label}: warning: ${w.message}`);
    this.configStamp = stamp;
    this.problemNow = undefined;
    const key = JSON.stringify(config);
    const changed = this.config !== undefined && key !== this.configKey;
    const own = this.own && this.own.stamp === stamp ? this.own.keys : undefined;
    this.own = undefined;
    if (changed) this.loosenedNow = attribute(approvalLoosenings(this.config!, config), own);
    this.config = config;
    this.configKey = key;
    return changed;
  }

  /** `readConfig`, keeping the last good config when the file is broken. */
  private tryReadConfig(): boolean {
    try {
      return this.readConfig();
    } catch (err) {
      this.configStamp = fileStamp(this.home.configFile);
      this.own = undefined;
      const e = err instanceof ConfigError ? err : undefined;
      const message = (err as Error).message;
      if (this.problemNow?.message !== message) {
        this.problemNow = {
          id: ++this.problemSeq,
          file: e?.file ?? this.home.configFile,
          ...(e?.key ? { key: e.key } : {}),
          message,
        };
        this.log?.(`${this.label}: ${message} — keeping the last good config until it is fixed`);
      }
      return false;
    }
  }

  /** Reads `.env` into the cache. @returns whether its content changed (values never logged). */
  private readSecrets(): boolean {
    const stamp = fileStamp(this.home.envFile);
    let secrets: Secrets;
    try {
      secrets = loadSecrets(this.home);
    } catch (err) {
      this.log?.(`${this.label}: cannot read ${this.home.envFile}: ${(err as Error).message}`);
      secrets = this.secrets ?? {};
    }
    this.secretsStamp = stamp;
    const key = JSON.stringify(Object.entries(secrets).sort(([a], [b]) => (a < b ? -1 : 1)));
    const changed = this.secrets !== undefined && key !== this.secretsKey;
    this.secrets = secrets;
    this.secretsKey = key;
    return changed;
  }
}

/** Whether dotted key `a` is `b`, inside it, or holds it (`approvals` and `approvals.mode`). */
function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * The loosenings to report: each one under a key the daemon wrote itself (`own`) gets that
 * write's `by`, or is dropped when the write named nobody; all others are reported without `by`.
 */
function attribute(
  loosened: ApprovalLoosening[],
  own: ReadonlyMap<string, string | undefined> | undefined,
): AnnouncedLoosening[] {
  const out: AnnouncedLoosening[] = [];
  for (const l of loosened) {
    const mine = own ? [...own].find(([k]) => overlaps(k, l.key)) : undefined;
    if (!mine) out.push(l);
    else if (mine[1] !== undefined) out.push({ ...l, by: mine[1] });
  }
  return out;
}
