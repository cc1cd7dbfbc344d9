/**
 * `defineTool`: the JSON Schema (generated table for built-in tools, from zod for others), the zod
 * schema built once on first use, parsing once before `run`, typed arguments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, nonEmpty, type Zod } from './define.js';
import { runTool } from './registry.js';
import { defineTestTool, makeToolContext } from './testing.js';
import { TOOL_SCHEMAS } from './tool-schemas.generated.js';
import { toolJsonSchema } from './tool-schemas.js';
import type { ToolContext } from './types.js';

let root: string;
let ctx: ToolContext;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-define-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const seen: unknown[] = [];
const probe = defineTestTool({
  name: 'probe',
  description: 'test tool',
  parameters: (zod) =>
    zod.object({
      text: nonEmpty(zod).describe('Some text.'),
      n: zod.int().min(1).describe('A count.').optional(),
      flag: zod.boolean().default(false),
      mode: zod.enum(['a', 'b']).optional(),
      list: zod.array(zod.string()).meta({ maxItems: 2 }).optional(),
    }),
  readOnly: true,
  toolsets: ['file'],
  inScripts: true,
  verb: ['Probed', 'Probing'],
  async run(args) {
    // typed: `args.n` is number | undefined, `args.flag` a boolean
    const n: number | undefined = args.n;
    const flag: boolean = args.flag;
    seen.push({ ...args, n, flag });
    return { ok: true, content: 'ran' };
  },
});

describe('defineTool', () => {
  it('generates the JSON Schema from zod: descriptions, bounds, defaults, enums, required', () => {
    expect(probe.parameters).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'Some text.' },
        n: { type: 'integer', minimum: 1, description: 'A count.' },
        flag: { type: 'boolean', default: false },
        mode: { type: 'string', enum: ['a', 'b'] },
        list: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      },
      required: ['text'],
    });
  });

  it('copies the facts onto the definition', () => {
    expect(probe).toMatchObject({
      name: 'probe',
      readOnly: true,
      toolsets: ['file'],
      inScripts: true,
      verb: ['Probed', 'Probing'],
    });
  });

  it('runs with parsed arguments: coerced, defaults filled, nulls dropped, unknown keys stripped', async () => {
    seen.length = 0;
    const r = await runTool(probe, '{"text":"x","n":"3","mode":null,"extra":1,"list":"[\\"a\\"]"}', ctx);
    expect(r).toMatchObject({ ok: true, content: 'ran' });
    expect(seen).toEqual([{ text: 'x', n: 3, flag: false, list: ['a'] }]);
  });

  it('never runs on bad arguments; the error names the field', async () => {
    seen.length = 0;
    const bad = async (args: object) => (await runTool(probe, JSON.stringify(args), ctx)).content;
    expect(await bad({})).toBe(
      'probe: missing required argument: "text". Call it again with arguments matching its schema.',
    );
    expect(await bad({ text: '  ' })).toContain('argument "text" must not be empty');
    expect(await bad({ text: 'x', n: 0 })).toContain('argument "n" must be >= 1 (got 0)');
    expect(await bad({ text: 'x', n: 1.5 })).toContain('argument "n" must be of type integer (got 1.5)');
    expect(await bad({ text: 'x', mode: 'c' })).toContain(
      'argument "mode" must be one of "a", "b" (got "c")',
    );
    expect(await bad({ text: 'x', list: ['a', 2] })).toContain(
      'argument "list[1]" must be of type string (got 2)',
    );
    expect(seen).toEqual([]);
  });

  it('states advisory bounds (meta) without enforcing them', async () => {
    seen.length = 0;
    expect((await runTool(probe, '{"text":"x","list":["a","b","c"]}', ctx)).ok).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('builds the zod schema on first use, once, and parses every call with it', async () => {
    let built = 0;
    const counted = defineTestTool({
      name: 'counted',
      description: '',
      parameters: (zod) => {
        built++;
        return zod.object({ n: zod.int() });
      },
      readOnly: true,
      run: async (args) => ({ ok: true, content: String(args.n + 1) }),
    });
    expect(built).toBe(0);
    // defineTestTool builds one to make the JSON Schema (the generator's job for built-in tools)
    expect(counted.parameters).toMatchObject({ required: ['n'] });
    built = 0;
    const schema = await counted.argsSchema!();
    expect(built).toBe(1);
    expect((await runTool(counted, '{"n":1}', ctx)).content).toBe('2');
    expect((await runTool(counted, '{"n":"2"}', ctx)).content).toBe('3');
    expect(await counted.argsSchema!()).toBe(schema);
    expect(built).toBe(1);
  });

  it('a built-in tool takes its JSON Schema from the generated table, by name', () => {
    const parameters = (zod: Zod) => zod.object({ path: nonEmpty(zod) });
    const tool = defineTool({
      name: 'read_file',
      description: '',
      parameters,
      readOnly: true,
      run: async () => ({ ok: true, content: '' }),
    });
    expect(tool.parameters).toBe(TOOL_SCHEMAS.read_file);
  });

  it('a tool missing from the generated table says to regenerate it', () => {
    const tool = defineTool({
      name: 'not_generated',
      description: '',
      parameters: (zod) => zod.object({}),
      readOnly: true,
      run: async () => ({ ok: true, content: '' }),
    });
    expect(() => tool.parameters).toThrow('no generated JSON Schema for tool "not_generated"');
  });

  it('toolJsonSchema leaves out $schema, additionalProperties and the safe-integer bounds', () => {
    const schema = toolJsonSchema(z.object({ a: z.int() }));
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
  });

  it('refuses a schema JSON Schema cannot express', () => {
    expect(() => toolJsonSchema(z.object({ when: z.date() }))).toThrow();
  });
});
