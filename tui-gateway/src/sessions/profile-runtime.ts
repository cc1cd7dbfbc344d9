/**
 * Per-profile resources inside the one daemon (seed 001 §7, issue 5 "In the daemon"): each
 * profile's home, config, secrets and SessionDB handle. Nothing is process-wide: a session of one
 * profile never sees another's keys, files or sessions.
 */
import { statSync } from 'node:fs';
import { loadConfig } from '@hermes/core/config/config-file';
import type { HermesConfig } from '@hermes/core/config/schema';
import { loadSecrets, type Secrets } from '@hermes/core/config/secrets';
import { HermesHome } from '@hermes/core/home/home';
import { profilesToServe } from '@hermes/core/profiles/serve';
import { SessionDB } from '@hermes/core/state/session-db';

/** Device and inode of a folder, or undefined when it does not exist. */
function folderIdentity(dir: string): string | undefined {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** One profile's loaded resources. Config and secrets are re-read by `reload()`. */
export class ProfileRuntime {
  readonly home: HermesHome;
  private cachedConfig: HermesConfig | undefined;
  private cachedSecrets: Secrets | undefined;
  private database: SessionDB | undefined;

  private readonly identity: string | undefined;

  constructor(
    root: string,
    readonly name: string,
  ) {
    this.home = new HermesHome(root, name);
    this.identity = folderIdentity(this.home.dir);
  }

  /**
   * False once the profile's folder is gone or is another folder than when this runtime was
   * made (`hermes profile delete`, `rename`, then `create`/`import` under the same name): its
   * cached config, secrets and database handle belong to a profile that no longer exists.
   */
  isCurrent(): boolean {
    return this.identity !== undefined && folderIdentity(this.home.dir) === this.identity;
  }

  /** The validated config (cached). @throws ConfigError for a broken config.yaml. */
  get config(): HermesConfig {
    this.cachedConfig ??= loadConfig(this.home);
    return this.cachedConfig;
  }

  /** This profile's secrets only (cached). */
  get secrets(): Secrets {
    this.cachedSecrets ??= loadSecrets(this.home);
    return this.cachedSecrets;
  }

  /** The profile's SessionDB, opened on first use. */
  get db(): SessionDB {
    if (!this.database) {
      this.home.ensure();
      this.database = SessionDB.open(this.home.stateDbFile);
    }
    return this.database;
  }

  /** Drops cached config and secrets so the next access re-reads the files. */
  reload(): void {
    this.cachedConfig = undefined;
    this.cachedSecrets = undefined;
  }

  close(): void {
    this.database?.close();
    this.database = undefined;
  }
}

/**
 * The profiles under a root (seed 001 §7 `profiles_to_serve`, core/src/profiles/serve.ts):
 * `default` plus every valid folder in `<root>/profiles/`, sorted. A directory scan only.
 */
export function listProfileNames(root: string): string[] {
  return profilesToServe(root).map((p) => p.name);
}
