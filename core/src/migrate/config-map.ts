/**
 * The original's `config.yaml` into this hermes's. Most keys have the same name and meaning here
 * (model, agent, compression, memory, terminal, approvals, delegation, code_execution, mcp_servers,
 * checkpoints, timezone, fallback_providers …) and pass as they are, provider ids included; a few
 * old shapes are renamed (`RENAMES`). Then:
 * - keys this home's config.yaml already sets keep our value (a different one is a conflict);
 * - a value invalid here (checked against the schema) is left out and reported with its key;
 * - keys this hermes does not know are kept (the config keeps unknown keys) and reported;
 * - settings that loosen what guards the agent's commands are not brought switched on, as for an
 *   imported profile (a migrated config is someone's files, not the user's word here): approval
 *   mode and cron mode other than the strict default, `web.allow_private_urls`, the command
 *   allowlist and `terminal.env_passthrough` are left out, MCP servers arrive disabled; each is
 *   reported with the command that switches it back on (`GUARDED`);
 * - `_config_version` becomes ours.
 * An existing config.yaml is edited in place (its comments kept); only missing keys are added.
 */
import { isMap, parseDocument, type Document } from 'yaml';
import { ConfigSchema, CONFIG_VERSION } from '../config/schema.js';
import { findUnknownKeys } from '../config/unknown-keys.js';
import { MigrateError } from './errors.js';
import type { ConfigResult } from './types.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The plan for one config.yaml: the result to report and the text to write (undefined: nothing to write). */
export interface ConfigPlan {
  result: ConfigResult;
  text: string | undefined;
}

/** Settings left out when loosened (path, whether the value loosens). */
const GUARDED: ReadonlyArray<{ path: string[]; risky: (v: unknown) => boolean }> = [
  { path: ['approvals', 'mode'], risky: (v) => v !== 'manual' },
  { path: ['approvals', 'cron_mode'], risky: (v) => v !== 'deny' },
  { path: ['web', 'allow_private_urls'], risky: (v) => v === true },
  { path: ['command_allowlist'], risky: (v) => Array.isArray(v) && v.length > 0 },
  { path: ['terminal', 'env_passthrough'], risky: (v) => Array.isArray(v) && v.length > 0 },
];

/**
 * Leaves out (or for MCP servers, disables) what would loosen the guards (see the file comment).
 * @param cli the command prefix for the hints (`hermes`, `hermes -p work`).
 * @returns one entry per setting, with how to switch it back on.
 */
export function guardSettings(data: Json, cli: string): ConfigResult['guarded'] {
  const out: ConfigResult['guarded'] = [];
  for (const rule of GUARDED) {
    const parent = rule.path.slice(0, -1).reduce<unknown>((n, k) => (isObj(n) ? n[k] : undefined), data);
    const last = rule.path[rule.path.length - 1]!;
    if (!isObj(parent) || !(last in parent) || !rule.risky(parent[last])) continue;
    const key = rule.path.join('.');
    const value = parent[last];
    delete parent[last];
    out.push({
      item: key,
      reason: `${show(value)} left out; to switch it on here: ${cli} config set ${key} ${Array.isArray(value) ? `'${JSON.stringify(value)}'` : String(value)}`,
    });
  }
  if (isObj(data.mcp_servers)) {
    for (const [name, server] of Object.entries(data.mcp_servers)) {
      if (!isObj(server) || server.enabled === false) continue;
      server.enabled = false;
      out.push({
        item: `mcp_servers.${name}`,
        reason: `disabled (it starts a command or connects out); to enable: ${cli} config set mcp_servers.${name}.enabled true`,
      });
    }
  }
  return out;
}

/** Old shapes of the original, renamed to the key this hermes reads. Returns the renames made. */
export function applyRenames(data: Json): string[] {
  const done: string[] = [];
  if (typeof data.model === 'string') {
    data.model = { default: data.model };
    done.push('model → model.default');
  }
  for (const key of ['provider', 'base_url'] as const) {
    if (key in data) {
      const model = isObj(data.model) ? data.model : (data.model = {});
      if (!(key in model)) model[key] = data[key];
      delete data[key];
      done.push(`${key} → model.${key}`);
    }
  }
  if (isObj(data.model)) {
    const model = data.model;
    for (const old of ['model', 'name']) {
      if (typeof model[old] === 'string' && model.default === undefined) {
        model.default = model[old];
        delete model[old];
        done.push(`model.${old} → model.default`);
      }
    }
  }
  return done;
}

function leaves(v: unknown, path: string, out: string[]): string[] {
  if (isObj(v) && Object.keys(v).length > 0)
    for (const [k, c] of Object.entries(v)) leaves(c, path ? `${path}.${k}` : k, out);
  else if (path) out.push(path);
  return out;
}

function deleteAt(data: Json, path: PropertyKey[]): unknown {
  let node: unknown = data;
  for (const p of path.slice(0, -1)) node = (node as Json | undefined)?.[p as string];
  const last = path[path.length - 1];
  if (node === undefined || node === null || last === undefined) return undefined;
  const value = (node as Json)[last as string];
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else delete (node as Json)[last as string];
  return value;
}

function show(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/**
 * Removes the values the schema refuses, one issue at a time (a key's error hides others below it).
 * @returns each removed key with its value and the schema's message.
 */
export function dropInvalid(data: Json): ConfigResult['invalid'] {
  const out: ConfigResult['invalid'] = [];
  for (let i = 0; i < 200; i++) {
    const parsed = ConfigSchema.safeParse(data);
    if (parsed.success) return out;
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length > 0 ? issue.path : [];
    if (path.length === 0) throw new Error(issue.message);
    const key = path.map(String).join('.');
    const value = deleteAt(data, path);
    out.push({ item: key, reason: `${show(value)}: ${issue.message}` });
  }
  return out;
}

function setMissing(
  doc: Document,
  path: string[],
  value: unknown,
  conflicts: string[],
  added: string[],
): void {
  if (!doc.hasIn(path)) {
    doc.setIn(path, doc.createNode(value));
    added.push(...leaves(value, path.join('.'), []));
    return;
  }
  const mine = doc.getIn(path);
  if (isObj(value) && isMap(mine)) {
    for (const [k, v] of Object.entries(value)) setMissing(doc, [...path, k], v, conflicts, added);
    return;
  }
  const ours =
    isMap(mine) || (mine && typeof mine === 'object' && 'toJSON' in mine)
      ? (mine as { toJSON(): unknown }).toJSON()
      : mine;
  if (JSON.stringify(ours) !== JSON.stringify(value)) conflicts.push(path.join('.'));
}

/**
 * Plans the migration of one config.yaml.
 * @param sourceText the original's file content; `sourceFile` names it in errors.
 * @param targetText this home's config.yaml, or undefined when there is none.
 * @param cli the command prefix of the hints for guarded settings (`hermes -p work`).
 * @throws MigrateError naming the source file when it is not YAML or not a mapping.
 */
export function planConfig(
  sourceText: string,
  sourceFile: string,
  targetText: string | undefined,
  cli = 'hermes',
): ConfigPlan {
  const src = parseDocument(sourceText);
  if (src.errors.length > 0)
    throw new MigrateError(sourceFile, `not valid YAML: ${src.errors[0]!.message.split('\n')[0]}`);
  if (src.contents !== null && !isMap(src.contents))
    throw new MigrateError(sourceFile, 'the top level must be a mapping of keys');
  const data = (src.toJS() ?? {}) as Json;
  delete data._config_version;
  const renamed = applyRenames(data);
  const guarded = guardSettings(data, cli);
  const invalid = dropInvalid(data);
  const unknown = findUnknownKeys(data, ConfigSchema).map((u) => u.path);
  const result: ConfigResult = {
    status: 'unchanged',
    keys: [],
    renamed,
    unknown,
    invalid,
    conflicts: [],
    guarded,
  };
  let doc: Document;
  if (targetText === undefined) {
    doc = parseDocument(`_config_version: ${CONFIG_VERSION}\n`);
  } else {
    doc = parseDocument(targetText);
    if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents)))
      throw new MigrateError(
        'config.yaml',
        "this home's config.yaml is not a valid YAML mapping; fix it first",
      );
  }
  for (const [k, v] of Object.entries(data)) setMissing(doc, [k], v, result.conflicts, result.keys);
  if (result.keys.length === 0) return { result, text: undefined };
  // the merged file must load here: a value that only fails next to ours is left out too
  const merged = (doc.toJS() ?? {}) as Json;
  for (const bad of dropInvalid(merged)) {
    doc.deleteIn(bad.item.split('.'));
    result.invalid.push(bad);
    result.keys = result.keys.filter((k) => k !== bad.item && !k.startsWith(`${bad.item}.`));
  }
  if (!doc.has('_config_version')) doc.set('_config_version', CONFIG_VERSION);
  result.status = 'written';
  return { result, text: doc.toString() };
}
