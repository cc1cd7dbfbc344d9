/**
 * The unknown-key check of `config.yaml` (a typo such as `modle:` is otherwise kept silently,
 * because the schema is loose so newer and plugin keys survive a round trip).
 *
 * The known keys come from the zod schema itself (`ConfigSchema`), never from a second list:
 * the walk follows objects, records, arrays, unions and wrappers (default, prefault, optional,
 * nullable, pipe/transform). It does not look inside:
 * - sections registered in `openSections` (e.g. `platforms.<name>`, owned by the adapter);
 * - objects whose schema names no keys at all (e.g. `mcp_servers.<name>`, validated elsewhere);
 * - the keys of a record (`platforms`, `mcp_servers` take any name), only its values.
 *
 * Unknown keys are reported, never removed.
 */
import type { z } from 'zod';
import { openSections } from './open-sections.js';

/** One key of the file that the schema does not know. */
export interface UnknownKey {
  /** Dotted path of the key, array items as `[i]`: `model.defualt`, `fallback_providers[0].modle`. */
  path: string;
  /** Dotted path of the closest known sibling key, when one is within a small edit distance. */
  suggestion?: string;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** Strips wrappers down to the schema that decides the shape, stopping at an open section. */
function unwrap(schema: z.ZodType): z.ZodType {
  let cur = schema;
  for (let i = 0; i < 32; i++) {
    if (openSections.has(cur)) return cur;
    const def = defOf(cur);
    if (WRAPPERS.has(def.type) && def.innerType) cur = def.innerType;
    else if (def.type === 'pipe' && def.in) cur = def.in;
    else if (def.type === 'lazy' && def.getter) cur = def.getter();
    else return cur;
  }
  return cur;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function walk(data: unknown, schema: z.ZodType, path: string, out: UnknownKey[]): void {
  const s = unwrap(schema);
  if (openSections.has(s)) return;
  const def = defOf(s);
  if (def.type === 'object' && def.shape && isPlainObject(data)) {
    const known = Object.keys(def.shape);
    if (known.length === 0) return; // nothing to compare against: an open map by design
    for (const [key, value] of Object.entries(data)) {
      const child = def.shape[key];
      if (child && Object.hasOwn(def.shape, key)) walk(value, child, join(path, key), out);
      else {
        const suggestion = closestKey(key, known);
        out.push({ path: join(path, key), ...(suggestion ? { suggestion: join(path, suggestion) } : {}) });
      }
    }
  } else if (def.type === 'record' && def.valueType && isPlainObject(data)) {
    for (const [key, value] of Object.entries(data)) walk(value, def.valueType, join(path, key), out);
  } else if (def.type === 'array' && def.element && Array.isArray(data)) {
    data.forEach((item, i) => walk(item, def.element!, `${path}[${i}]`, out));
  } else if (def.type === 'union' && def.options && isPlainObject(data)) {
    // the option that explains the value best (fewest unknown keys) decides
    let best: UnknownKey[] | undefined;
    for (const option of def.options) {
      if (defOf(unwrap(option)).type !== 'object') continue;
      const found: UnknownKey[] = [];
      walk(data, option, path, found);
      if (!best || found.length < best.length) best = found;
    }
    if (best) out.push(...best);
  }
}

/**
 * Lists the keys of `data` (a parsed `config.yaml`, after migration) that `schema` does not
 * know, in document order.
 */
export function findUnknownKeys(data: unknown, schema: z.ZodType): UnknownKey[] {
  const out: UnknownKey[] = [];
  walk(data, schema, '', out);
  return out;
}

/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment), so
 * `modle` → `model` is 1. Case-insensitive, and `-` counts as `_`.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase().replaceAll('-', '_');
  const y = b.toLowerCase().replaceAll('-', '_');
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The known key closest to `key`, when it is close enough to be a typo: at most one edit for
 * keys of up to 5 characters, two up to 8, three beyond, and fewer edits than the shorter key
 * is long (`c` is no typo of `a`). Ties go to the first known key.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const limit = key.length <= 5 ? 1 : key.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance && distance < Math.min(key.length, candidate.length)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
