/**
 * `HermesHome`: the one object that knows every path of a home.
 *
 * The root is `$HERMES_HOME` (or its root when it points into `<root>/profiles/<name>`), else
 * `~/.hermes`. Profile `default` is the root itself; a named profile lives in
 * `<root>/profiles/<name>`. No other module reads `HERMES_HOME`: everything takes a `HermesHome`.
 */
import { mkdirSync, existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_PROFILE, isValidProfileId, normalizeProfileName } from './profile-name.js';

/** Where the root came from and which profile (if any) the environment already selected. */
export interface RootResolution {
  /** Absolute path of the root (`~/.hermes` or derived from `HERMES_HOME`). */
  root: string;
  /** Profile named by a `HERMES_HOME` that points into `<root>/profiles/<name>`, else undefined. */
  envProfile?: string;
}

/**
 * Resolves the root from an environment: `HERMES_HOME` when set (its root when it points into
 * `<root>/profiles/<name>`), else `~/.hermes`.
 * @param env usually `process.env`; only `HERMES_HOME` and `HOME` are read.
 */
export function resolveRoot(env: NodeJS.ProcessEnv = process.env): RootResolution {
  const raw = env.HERMES_HOME?.trim();
  if (raw) {
    const abs = resolve(raw);
    const parent = dirname(abs);
    const name = basename(abs);
    if (basename(parent) === 'profiles' && isValidProfileId(name)) {
      return { root: dirname(parent), envProfile: name };
    }
    return { root: abs };
  }
  return { root: join(env.HOME || homedir(), '.hermes') };
}

/** Standard sub-folders created in every home. */
export const HOME_SUBDIRS = [
  'memories',
  'sessions',
  'skills',
  'logs',
  'cron',
  'cron/output',
  'hooks',
  'checkpoints',
  'pairing',
  'workspace',
] as const;

/** Every path of one profile's home, plus the root-only files. Immutable. */
export class HermesHome {
  /** Absolute root folder. */
  readonly root: string;
  /** Canonical profile name (`default` for the root). */
  readonly profile: string;
  /** Absolute folder of this profile's home (the root for `default`). */
  readonly dir: string;

  constructor(root: string, profile: string = DEFAULT_PROFILE) {
    this.root = resolve(root);
    this.profile = normalizeProfileName(profile);
    if (this.profile !== DEFAULT_PROFILE && !isValidProfileId(this.profile)) {
      throw new Error(`Invalid profile id "${profile}"`);
    }
    this.dir = this.profile === DEFAULT_PROFILE ? this.root : join(this.root, 'profiles', this.profile);
  }

  /** The home of another profile under the same root. */
  forProfile(name: string): HermesHome {
    return new HermesHome(this.root, name);
  }

  /** True when this profile's folder exists (always true for `default` once created). */
  exists(): boolean {
    return existsSync(this.dir);
  }

  /** Creates the home's folder and standard sub-folders (idempotent). Returns `this`. */
  ensure(): this {
    for (const sub of HOME_SUBDIRS) mkdirSync(join(this.dir, sub), { recursive: true });
    return this;
  }

  /** A path inside this profile's home. */
  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  get configFile(): string {
    return this.path('config.yaml');
  }
  get envFile(): string {
    return this.path('.env');
  }
  get soulFile(): string {
    return this.path('SOUL.md');
  }
  get profileMetaFile(): string {
    return this.path('profile.yaml');
  }
  get memoriesDir(): string {
    return this.path('memories');
  }
  get memoryFile(): string {
    return this.path('memories', 'MEMORY.md');
  }
  get userFile(): string {
    return this.path('memories', 'USER.md');
  }
  get skillsDir(): string {
    return this.path('skills');
  }
  get stateDbFile(): string {
    return this.path('state.db');
  }
  get sessionsDir(): string {
    return this.path('sessions');
  }
  get sessionsIndexFile(): string {
    return this.path('sessions', 'sessions.json');
  }
  get cronDir(): string {
    return this.path('cron');
  }
  get cronJobsFile(): string {
    return this.path('cron', 'jobs.json');
  }
  get cronOutputDir(): string {
    return this.path('cron', 'output');
  }
  get hooksDir(): string {
    return this.path('hooks');
  }
  get checkpointsDir(): string {
    return this.path('checkpoints');
  }
  get logsDir(): string {
    return this.path('logs');
  }
  get pairingDir(): string {
    return this.path('pairing');
  }
  /** Images attached to prompts, one file per content hash (`<sha256>.<ext>`). */
  get mediaDir(): string {
    return this.path('media');
  }
  /**
   * Files received from chat platforms for one session (`media/sessions/<session id>/`).
   * @throws Error for an id that is not a plain name (it is never a path).
   */
  sessionMediaDir(sessionId: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(sessionId)) throw new Error(`invalid session id "${sessionId}"`);
    return this.path('media', 'sessions', sessionId);
  }
  /**
   * Attachments of accepted chat messages waiting for their turn: `media/inbound/<platform>/`
   * holds one folder per message (`<message id>/`, messaging/inbound-spool.ts). Each platform
   * has its own folder, so one platform's clean-up never touches another's messages.
   * @param platform a registered platform name; without it, the parent of all platforms' folders.
   * @throws on a platform name that is not a plain name.
   */
  inboundSpoolDir(platform?: string): string {
    if (platform === undefined) return this.path('media', 'inbound');
    if (!/^[a-z][a-z0-9_-]*$/.test(platform)) throw new Error(`invalid platform name "${platform}"`);
    return this.path('media', 'inbound', platform);
  }
  /** Per-profile persisted TUI input history (one JSON string per line). */
  get inputHistoryFile(): string {
    return this.path('input_history.jsonl');
  }

  // Root-only files.
  get profilesDir(): string {
    return join(this.root, 'profiles');
  }
  get activeProfileFile(): string {
    return join(this.root, 'active_profile');
  }
  get discoveryFile(): string {
    return join(this.root, 'tui-gateway.json');
  }
  get daemonLockFile(): string {
    return join(this.root, 'tui-gateway.lock');
  }
  get daemonLogFile(): string {
    return join(this.root, 'logs', 'tui-gateway.log');
  }
  get cleanShutdownFile(): string {
    return join(this.root, '.clean_shutdown');
  }
}

/** Reads the sticky profile from `<root>/active_profile`; undefined when absent or invalid. */
export function readActiveProfile(root: string): string | undefined {
  try {
    const name = normalizeProfileName(readFileSync(join(root, 'active_profile'), 'utf8'));
    return isValidProfileId(name) ? name : undefined;
  } catch {
    return undefined;
  }
}
