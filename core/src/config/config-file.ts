/**
 * Loading, validating, migrating and editing `config.yaml`.
 *
 * - The file is parsed with `yaml`, validated with the zod schema, defaults filled in.
 * - An unparsable file or a bad value throws `ConfigError` naming the file and the key; the file is
 *   never overwritten in that case.
 * - A file older than `CONFIG_VERSION` is migrated on load after a backup copy is written
 *   (`config.yaml.bak-v<old>-<ms>`).
 * - Keys the schema does not know are kept, and reported as `ConfigWarning`s by
 *   `loadConfigWithWarnings` (with a "did you mean" for a near-miss); see unknown-keys.ts. So are
 *   old `command_allowlist` entries that approved a whole class (approvals/legacy-allowlist.ts).
 * - `setConfigValue` / `unsetConfigValue` edit one dotted key through the YAML document API, so
 *   comments and unknown keys survive, validate the result and write atomically.
 */
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { Document, isMap, parseDocument, type YAMLError } from 'yaml';
import type { HermesHome } from '../home/home.js';
import { classEntries } from '../approvals/legacy-allowlist.js';
import { classEntryWarning } from '../approvals/allowlist-entry.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { ConfigError } from './errors.js';
import { CONFIG_VERSION, ConfigSchema, type HermesConfig } from './schema.js';
import { findUnknownKeys, type UnknownKey } from './unknown-keys.js';

/**
 * Something in `config.yaml` that Hermes does not use: a key it does not know (`unknown_key`;
 * kept in the file and in the config), or an old `command_allowlist` entry that approved a whole
 * class of commands (`allowlist_class`; kept, approves nothing).
 */
export interface ConfigWarning {
  kind: 'unknown_key' | 'allowlist_class';
  /** Absolute path of the file. */
  file: string;
  /** Dotted path of the key (`model.defualt`, `fallback_providers[0].modle`, `command_allowlist[2]`). */
  key: string;
  /** Dotted path of the known key it is probably a typo of (`model.default`). */
  suggestion?: string;
  /** One line for people: file, key, suggestion. */
  message: string;
}

type Migration = (doc: Document) => void;

/**
 * Steps from version N to N+1. Version 0 is a file without `_config_version`.
 * - 0 → 1: `model: "<id>"` (a bare string, as old files had) becomes `model: {default: "<id>"}`.
 * - 1 → 2: top-level `provider` / `base_url` move under `model`.
 */
const MIGRATIONS: Record<number, Migration> = {
  0: (doc) => {
    const model = doc.get('model');
    if (typeof model === 'string') doc.set('model', doc.createNode({ default: model }));
  },
  1: (doc) => {
    for (const key of ['provider', 'base_url']) {
      if (doc.has(key)) {
        if (!isMap(doc.get('model'))) doc.set('model', doc.createNode({}));
        if (!doc.hasIn(['model', key])) doc.setIn(['model', key], doc.get(key));
        doc.delete(key);
      }
    }
  },
};

/**
 * One line for a YAML parse error: the parser's first line without its trailing colon (the
 * snippet it announces spans several lines), then the offending line of `text` quoted.
 */
export function yamlProblem(err: YAMLError, text: string): string {
  const head = err.message.split('\n')[0]!.replace(/:\s*$/, '');
  const line = err.linePos ? text.split('\n')[err.linePos[0].line - 1] : undefined;
  return line === undefined || line.trim() === '' ? head : `${head}: ${JSON.stringify(line.trim())}`;
}

function parseFile(file: string): Document {
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(file, `not valid YAML: ${yamlProblem(doc.errors[0]!, text)}`);
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) throw new ConfigError(file, 'the top level must be a mapping of keys');
  return doc;
}

function validate(file: string, data: unknown): HermesConfig {
  const result = ConfigSchema.safeParse(data ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path.map(String).join('.') || '(top level)';
    throw new ConfigError(file, issue.message, key);
  }
  return result.data;
}

/**
 * Loads the home's configuration.
 * @returns the validated config (defaults when the file is absent).
 * @throws ConfigError for unparsable YAML or an invalid value (naming the key).
 */
export function loadConfig(home: HermesHome): HermesConfig {
  return loadConfigWithWarnings(home).config;
}

/**
 * Loads the home's configuration like `loadConfig`, and also lists the keys of the file the
 * schema does not know (after migration). Frontends show these: `hermes config check`,
 * `hermes chat` (stderr), the daemon's log.
 * @throws ConfigError for unparsable YAML or an invalid value (naming the key).
 */
export function loadConfigWithWarnings(home: HermesHome): {
  config: HermesConfig;
  warnings: ConfigWarning[];
} {
  const file = home.configFile;
  if (!existsSync(file)) return { config: validate(file, {}), warnings: [] };
  const doc = parseFile(file);
  const version = Number(doc.get('_config_version') ?? 0);
  const migrate = Number.isInteger(version) && version < CONFIG_VERSION;
  if (migrate) {
    for (let v = version; v < CONFIG_VERSION; v++) MIGRATIONS[v]?.(doc);
    doc.set('_config_version', CONFIG_VERSION);
  }
  const data: unknown = doc.toJS();
  // Validate the (migrated) result before touching anything on disk.
  const config = validate(file, data);
  if (migrate) {
    const backup = `${file}.bak-v${version}-${Date.now()}`;
    copyFileSync(file, backup);
    chmodSync(backup, 0o600); // as private as the config it backs up is written
    writeFileAtomic(file, doc.toString(), 0o600);
  }
  return { config, warnings: [...unknownKeyWarnings(file, data), ...allowlistWarnings(file, config)] };
}

/** The warnings for the unknown keys of `data`, the parsed content of `file`. */
function unknownKeyWarnings(file: string, data: unknown): ConfigWarning[] {
  return findUnknownKeys(data, ConfigSchema).map(({ path, suggestion }) => ({
    kind: 'unknown_key' as const,
    file,
    key: path,
    ...(suggestion ? { suggestion } : {}),
    message:
      `${file}: unknown key "${path}"` +
      (suggestion ? ` (did you mean "${suggestion}"?)` : '') +
      '; it is kept but Hermes does not use it',
  }));
}

/** The warnings for the old class entries of `command_allowlist` (they approve nothing now). */
function allowlistWarnings(file: string, config: HermesConfig): ConfigWarning[] {
  const list = config.command_allowlist;
  return classEntries(list).map((text) => ({
    kind: 'allowlist_class' as const,
    file,
    key: `command_allowlist[${list.indexOf(text)}]`,
    message: `${file}: ${classEntryWarning(text)}`,
  }));
}

function splitKey(key: string): string[] {
  const parts = key.split('.').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw new Error(`Invalid config key "${key}"`);
  if (parts.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) {
    throw new Error(`Invalid config key "${key}": "__proto__", "constructor" and "prototype" are not keys`);
  }
  return parts;
}

/**
 * Reads one dotted key from the effective (defaulted) configuration.
 * @returns the value, or undefined when no such key exists.
 */
export function getConfigValue(config: HermesConfig, key: string): unknown {
  let cur: unknown = config;
  for (const part of splitKey(key)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * Parses a command-line value as YAML so `true`, `30`, `[a, b]` keep their types, and `null` / `~`
 * is the YAML null (not the string "null"; removing a key is `unsetConfigValue`). An empty text
 * and anything that does not parse stay a string.
 */
export function parseConfigValue(text: string): unknown {
  if (text.trim() === '') return text;
  try {
    const doc = parseDocument(text);
    if (doc.errors.length > 0) return text;
    return doc.toJS();
  } catch {
    return text;
  }
}

/**
 * The keys Hermes does not know that setting `key` to `value` would write: `key` itself
 * (`model.temprature`, with the suggestion `model.temperature`), a parent of it (`modle` for
 * `modle.default`) or a key inside an object value. Keys already in the file are not looked at.
 */
export function unknownKeysAt(key: string, value: unknown): UnknownKey[] {
  const doc = new Document({});
  doc.setIn(splitKey(key), value);
  return findUnknownKeys(doc.toJS(), ConfigSchema);
}

/**
 * Told when this process writes a config.yaml with `setConfigValue`/`unsetConfigValue`: with
 * `before` just before the file is read for the edit, with `after` right after it was replaced.
 */
export type ConfigWriteListener = (file: string, key: string, phase: 'before' | 'after') => void;

const writeListeners = new Set<ConfigWriteListener>();

/**
 * Registers `listener` for every config.yaml this process writes through `setConfigValue` or
 * `unsetConfigValue` (the daemon tells its own writes from edits by other processes with it: it
 * re-reads the file before, and notes the key after). It is called synchronously; its exceptions
 * are ignored.
 * @returns a function that unregisters it.
 */
export function onConfigWrite(listener: ConfigWriteListener): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

function tell(file: string, key: string, phase: 'before' | 'after'): void {
  for (const l of writeListeners) {
    try {
      l(file, key, phase);
    } catch {
      /* a listener's failure never fails the write */
    }
  }
}

/** The edited document and the config it validates to, for `previewConfigValue`/`setConfigValue`. */
function editedDocument(
  home: HermesHome,
  key: string,
  value: unknown,
): { doc: Document; config: HermesConfig } {
  const file = home.configFile;
  loadConfig(home); // migrate first; refuses a broken file before editing it
  const doc = existsSync(file) ? parseFile(file) : new Document({ _config_version: CONFIG_VERSION });
  if (!doc.has('_config_version')) doc.set('_config_version', CONFIG_VERSION);
  doc.setIn(splitKey(key), value);
  return { doc, config: validate(file, doc.toJS()) };
}

/**
 * The validated configuration `setConfigValue(home, key, value)` would produce, without writing.
 * @throws ConfigError when the result would be invalid.
 */
export function previewConfigValue(home: HermesHome, key: string, value: unknown): HermesConfig {
  return editedDocument(home, key, value).config;
}

/**
 * Sets one dotted key in `config.yaml`, keeping comments and unknown keys.
 * @returns the new validated configuration.
 * @throws ConfigError when the result would be invalid (the file is left as it was).
 */
export function setConfigValue(home: HermesHome, key: string, value: unknown): HermesConfig {
  tell(home.configFile, key, 'before');
  const { doc, config } = editedDocument(home, key, value);
  home.ensure();
  writeFileAtomic(home.configFile, doc.toString(), 0o600);
  tell(home.configFile, key, 'after');
  return config;
}

/**
 * Removes one dotted key from `config.yaml`, keeping comments and every other key; a parent
 * mapping left empty by the removal goes too (`modle.default` takes `modle:` with it when that
 * was its only key). The effective value falls back to the default.
 * @returns whether the key was in the file (false: nothing written).
 * @throws ConfigError when the result would be invalid (the file is left as it was).
 */
export function unsetConfigValue(home: HermesHome, key: string): boolean {
  const file = home.configFile;
  const path = splitKey(key);
  if (!existsSync(file)) return false;
  tell(file, key, 'before');
  loadConfig(home); // migrate first; refuses a broken file before editing it
  const doc = parseFile(file);
  if (!doc.hasIn(path)) return false;
  doc.deleteIn(path);
  for (let depth = path.length - 1; depth > 0; depth--) {
    const parent = doc.getIn(path.slice(0, depth), true);
    if (!isMap(parent) || parent.items.length > 0) break;
    doc.deleteIn(path.slice(0, depth));
  }
  validate(file, doc.toJS());
  writeFileAtomic(file, doc.toString(), 0o600);
  tell(file, key, 'after');
  return true;
}
