/**
 * The JSON Schemas generated from the tools' zod definitions are the ones sent to the model
 * before the tools were defined with zod (tool-schemas.baseline.json, captured from the
 * hand-written schemas): same names, descriptions, properties, required fields, types, enums,
 * bounds and defaults. One deliberate difference: an empty `required: []` is left out (it
 * requires nothing either way).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinTools, toolSchemas, type OpenAIToolSchema } from './registry.js';

const baseline = JSON.parse(
  readFileSync(new URL('./tool-schemas.baseline.json', import.meta.url), 'utf8'),
) as OpenAIToolSchema[];

/** `execute_code` says whether python3 is installed on this machine: not a schema difference. */
function machineNeutral(description: string): string {
  return description.replace('; NOT installed on this machine', '');
}

function withoutEmptyRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutEmptyRequired);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'required' && Array.isArray(v) && v.length === 0))
      .map(([k, v]) => [k, withoutEmptyRequired(v)]),
  );
}

/** The schema keywords used anywhere in `node` (property names are not keywords). */
function keywordsDeep(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) keywordsDeep(n, out);
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      out.add(k);
      if (k === 'properties' && v !== null && typeof v === 'object')
        for (const prop of Object.values(v)) keywordsDeep(prop, out);
      else keywordsDeep(v, out);
    }
  return out;
}

describe('tool schemas generated from zod', () => {
  const generated = toolSchemas(builtinTools());

  it('cover the same tools, in the same order', () => {
    expect(generated.map((t) => t.function.name)).toEqual(baseline.map((t) => t.function.name));
  });

  for (const before of baseline) {
    it(`${before.function.name}: same description and parameters as the hand-written schema`, () => {
      const now = generated.find((t) => t.function.name === before.function.name)!;
      expect(now.type).toBe('function');
      expect(machineNeutral(now.function.description)).toBe(machineNeutral(before.function.description));
      expect(now.function.parameters).toEqual(withoutEmptyRequired(before.function.parameters));
    });
  }

  it('carry nothing providers may refuse: no $schema, additionalProperties, format, $ref or $defs', () => {
    const keys = keywordsDeep(generated.map((t) => t.function.parameters));
    for (const k of ['$schema', 'additionalProperties', 'format', '$ref', '$defs', 'pattern'])
      expect(keys.has(k), k).toBe(false);
    const bounds = JSON.stringify(generated).match(/9007199254740991/g);
    expect(bounds).toBeNull();
  });
});
