/**
 * The JSON Schemas sent to the model: the committed table (tool-schemas.generated.ts) is what the
 * tools' zod definitions generate, imports nothing, and is what the tools carry. Its schemas are
 * the ones sent before the tools were defined with zod (tool-schemas.baseline.json, captured from
 * the hand-written schemas): same names, descriptions, properties, required fields, types, enums,
 * bounds and defaults. One deliberate difference: an empty `required: []` is left out (it
 * requires nothing either way).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinTools, toolSchemas, type OpenAIToolSchema } from './registry.js';
import { TOOL_SCHEMAS } from './tool-schemas.generated.js';
import { renderToolSchemas, TOOL_SCHEMAS_FILE, toolSchemaTable } from './tool-schemas.js';

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

describe('generated tool schema table', () => {
  it('core/src/tools/tool-schemas.generated.ts is up to date (run `npm run gen:protocol`)', async () => {
    const generated = await toolSchemaTable(builtinTools());
    // exact, key order included: the table is what the model receives
    expect(JSON.stringify(TOOL_SCHEMAS, null, 2)).toBe(JSON.stringify(generated, null, 2));
  });

  it('imports nothing (no zod at start-up)', () => {
    const text = readFileSync(TOOL_SCHEMAS_FILE, 'utf8');
    expect(text).not.toMatch(/^\s*(import|export .* from)\b/m);
    expect(renderToolSchemas({})).not.toMatch(/^\s*(import|export .* from)\b/m);
  });

  it('is where every built-in tool takes its JSON Schema from', () => {
    for (const t of builtinTools()) expect(t.parameters, t.name).toBe(TOOL_SCHEMAS[t.name]);
  });
});

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
