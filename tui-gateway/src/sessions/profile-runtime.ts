/**
 * Per-profile resources inside the one daemon (seed 001 §7, issue 5 "In the daemon"): each
 * profile's home, config, secrets and SessionDB handle. Nothing is process-wide: a session of one
 * profile never sees another's keys, files or sessions.
 */
import { existsSync, readdirSync } from 'node:fs';
import { loadConfig } from '@hermes/core/config/config-file';
import type { HermesConfig } from '@hermes/core/config/schema';
import { loadSecrets, type Secrets } from '@hermes/core/config/secrets';
import { HermesHome } from '@hermes/core/home/home';
import { DEFAULT_PROFILE, PROFILE_ID_RE } from '@hermes/core/home/profile-name';
import { SessionDB } from '@hermes/core/state/session-db';

/** One profile's loaded resources. Config and secrets are re-read by `reload()`. */
export class ProfileRuntime {
  readonly home: HermesHome;
  private cachedConfig: HermesConfig | undefined;
  private cachedSecrets: Secrets | undefined;
  private database: SessionDB | undefined;

  constructor(
    root: string,
    readonly name: string,
  ) {
    this.home = new HermesHome(root, name);
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
 * The profiles under a root (seed 001 §7 `profiles_to_serve`): `default` plus every valid folder
 * in `<root>/profiles/`, sorted. A directory scan only; no config is read.
 */
export function listProfileNames(root: string): string[] {
  const names = [DEFAULT_PROFILE];
  const dir = new HermesHome(root).profilesDir;
  if (existsSync(dir)) {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.isDirectory() && PROFILE_ID_RE.test(entry.name)) names.push(entry.name);
    }
  }
  return names;
}
