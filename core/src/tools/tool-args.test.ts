/** Reading a call's arguments: coercion, zod parsing, JSON-Schema checking, field-naming errors. */
import { describe, expect, it } from 'vitest';
import { defineTestTool } from './testing.js';
import { coerceArgs, parseArgs, parseToolArgs, validateArgs } from './tool-args.js';
import type { ToolDefinition } from './types.js';

const zodTool = defineTestTool({
  name: 'z',
  description: 'zod tool',
  parameters: (z) =>
    z.object({
      a: z.string(),
      b: z.string(),
      n: z.number().optional(),
      items: z.array(z.object({ id: z.string() })).optional(),
      when: z.int().min(1, { message: 'must be between 1 and 5' }).max(5).optional(),
    }),
  readOnly: true,
  run: async () => ({ ok: true, content: '' }),
});

const jsonTool: ToolDefinition = {
  name: 'j',
  description: 'plain JSON Schema tool (as MCP tools are)',
  parameters: {
    type: 'object',
    properties: { n: { type: 'integer' }, obj: { type: 'object' }, any: {} },
    required: ['n'],
  },
  readOnly: true,
  handler: async () => ({ ok: true, content: '' }),
};

describe('parseToolArgs', () => {
  it('reads empty text as {} and refuses non-objects', () => {
    expect(parseToolArgs('  ')).toEqual({});
    expect(parseToolArgs(null)).toEqual({});
    expect(() => parseToolArgs('3')).toThrow('the arguments must be a JSON object, got number');
  });
});

describe('coerceArgs', () => {
  it('applies the lenient coercions where a value fits the declared type, drops nulls', () => {
    expect(coerceArgs(jsonTool, { n: '7', obj: '{"k":1}', any: 'x', gone: null })).toEqual({
      n: 7,
      obj: { k: 1 },
      any: 'x',
    });
    expect(coerceArgs(jsonTool, { n: 'seven' })).toEqual({ n: 'seven' });
  });
});

describe('parseArgs', () => {
  it('names every missing required field at once', async () => {
    await expect(parseArgs(zodTool, {})).rejects.toThrow('missing required arguments: "a", "b"');
    await expect(parseArgs(zodTool, { a: 'x', b: null })).rejects.toThrow('missing required argument: "b"');
  });

  it('names nested fields by path and joins several errors', async () => {
    await expect(parseArgs(zodTool, { a: 'x', b: 'y', items: [{ id: 'ok' }, {}] })).rejects.toThrow(
      'argument "items[1].id" is required',
    );
    await expect(parseArgs(zodTool, { a: 1, b: 'y', n: 'many' })).rejects.toThrow(
      'argument "a" must be of type string (got 1); argument "n" must be of type number (got "many")',
    );
  });

  it("uses the schema's own message, with the number given", async () => {
    await expect(parseArgs(zodTool, { a: 'x', b: 'y', when: 0 })).rejects.toThrow(
      'argument "when" must be between 1 and 5 (got 0)',
    );
    await expect(parseArgs(zodTool, { a: 'x', b: 'y', when: 9 })).rejects.toThrow(
      'argument "when" must be <= 5 (got 9)',
    );
  });

  it('checks tools without a zod schema against their JSON Schema', async () => {
    expect(await parseArgs(jsonTool, { n: '2', extra: true })).toEqual({ n: 2, extra: true });
    await expect(parseArgs(jsonTool, {})).rejects.toThrow('missing required argument: "n"');
    expect(() => validateArgs(jsonTool, { n: 1.5 })).toThrow(
      'argument "n" must be of type integer (got 1.5)',
    );
  });
});
