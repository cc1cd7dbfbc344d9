/**
 * A cache of the validated config.yaml, for start-up speed. Parsing YAML and validating with zod
 * loads about 1 MB of library code (~40 ms of CPU here), a fifth of the issue-2 budget for
 * `hermes chat -q` to reach the model (≤ 200 ms). The result of a load — the config and its
 * warnings — is kept as JSON in `<home>/.config_cache.json` (0600), keyed by config.yaml's
 * identity (size, mtime, ctime, inode; or its absence) and by the build of Hermes that wrote it,
 * so any edit of the file or any rebuild re-validates. Without a build id (an unbundled build or
 * a test) there is no cache at all. A missing, unreadable or stale cache file is simply
 * re-made; failing to write it never fails the load. The cache never outlives its home: profile
 * copies and exports leave it out (profiles/rules.ts).
 */
import { readFileSync } from 'node:fs';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { fileStamp } from '../util/file-stamp.js';
import type { ConfigWarning } from './config-file.js';
import type { HermesConfig } from './schema.js';

/** File name of the cache inside a home. */
export const CONFIG_CACHE_FILE = '.config_cache.json';

/** A loaded configuration with the unknown keys found in its file. */
export interface LoadedConfig {
  config: HermesConfig;
  warnings: ConfigWarning[];
}

/** What a cached entry must match: the build, and config.yaml's stat fields (or its absence). */
type CacheKey = string;

function cacheKey(file: string, build: string): CacheKey {
  return `${build}|${fileStamp(file) ?? 'missing'}`;
}

function readCache(path: string, key: CacheKey): LoadedConfig | undefined {
  try {
    const entry = JSON.parse(readFileSync(path, 'utf8')) as { key?: unknown; value?: LoadedConfig };
    if (entry.key === key && entry.value && typeof entry.value.config === 'object') return entry.value;
  } catch {
    // missing or damaged: validate again and rewrite it
  }
  return undefined;
}

/**
 * Loads the home's configuration and its warnings like `loadConfigWithWarnings`, from the cache
 * when config.yaml is unchanged since this build last validated it.
 * @param build identifies the running build (e.g. version plus bundle time); undefined: no cache.
 * @throws ConfigError for unparsable YAML or an invalid value (naming the key); never cached.
 */
export async function loadConfigCached(home: HermesHome, build: string | undefined): Promise<LoadedConfig> {
  // loaded only on a miss: the YAML parser and zod are what the cache saves
  const load = async (): Promise<LoadedConfig> =>
    (await import('./config-file.js')).loadConfigWithWarnings(home);
  if (!build) return load();
  const path = home.path(CONFIG_CACHE_FILE);
  // keyed before reading: an edit racing this load makes the key stale, never the value
  const key = cacheKey(home.configFile, build);
  const cached = readCache(path, key);
  if (cached) return cached;
  const loaded = await load();
  try {
    writeFileAtomic(path, JSON.stringify({ key, value: loaded }), 0o600);
  } catch {
    // a read-only home still loads its config
  }
  return loaded;
}
