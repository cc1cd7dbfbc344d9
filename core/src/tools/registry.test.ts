import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, DEFAULT_MAX_RESULT_CHARS, runTool, toolSchemas } from './registry.js';
import { makeToolContext } from './testing.js';
import type { ToolContext, ToolDefinition } from './types.js';

let root: string;
let ctx: ToolContext;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-registry-'));
  ctx = makeToolContext(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function fake(handler: ToolDefinition['handler'], extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name: 'fake',
    description: 'test tool',
    parameters: {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        flag: { type: 'boolean' },
        mode: { type: 'string', enum: ['a', 'b'] },
        text: { type: 'string' },
      },
      required: ['text'],
    },
    readOnly: true,
    handler,
    ...extra,
  };
}

const echo = fake(async (args) => ({ ok: true, content: JSON.stringify(args) }));

describe('builtinTools / toolSchemas', () => {
  it('has the original names and parameter names', () => {
    const params = Object.fromEntries(
      builtinTools().map((t) => [t.name, Object.keys((t.parameters as { properties: object }).properties)]),
    );
    expect(params).toEqual({
      terminal: ['command', 'timeout', 'workdir', 'background', 'notify_on_complete', 'outside_sandbox'],
      process: ['action', 'id', 'offset', 'timeout', 'data'],
      read_file: ['path', 'offset', 'limit'],
      write_file: ['path', 'content'],
      patch: ['path', 'old_string', 'new_string', 'replace_all'],
      search_files: ['pattern', 'target', 'path', 'file_glob', 'limit'],
      web_search: ['query', 'limit'],
      web_extract: ['urls'],
      todo: ['todos', 'merge'],
      memory: ['action', 'target', 'content', 'old_text'],
      clarify: ['question', 'choices'],
      skills_list: [],
      skill_view: ['name'],
      skill_manage: ['action', 'name', 'content'],
      execute_code: ['code', 'language'],
      cronjob: ['action', 'job_id', 'schedule', 'prompt', 'name', 'deliver', 'repeat', 'skills', 'model'],
      delegate_task: ['goal', 'context', 'toolsets', 'tools', 'max_iterations', 'model', 'tasks'],
    });
    const readOnly = builtinTools()
      .filter((t) => t.readOnly)
      .map((t) => t.name);
    expect(readOnly).toEqual([
      'read_file',
      'search_files',
      'web_search',
      'web_extract',
      'skills_list',
      'skill_view',
    ]);
  });

  it('produces OpenAI function schemas', () => {
    const schemas = toolSchemas(builtinTools());
    expect(schemas).toHaveLength(17);
    for (const s of schemas) {
      expect(s.type).toBe('function');
      expect(s.function.description.length).toBeGreaterThan(20);
      expect(s.function.parameters).toMatchObject({ type: 'object' });
    }
  });
});

describe('runTool', () => {
  it('parses arguments and coerces lenient types', async () => {
    const r = await runTool(echo, '{"text":"x","n":"5","flag":"true","mode":"b"}', ctx);
    expect(JSON.parse(r.content)).toEqual({ text: 'x', n: 5, flag: true, mode: 'b' });
  });

  it('turns bad JSON and non-objects into error results naming the problem', async () => {
    const bad = await runTool(echo, '{"text": "x"', ctx);
    expect(bad.ok).toBe(false);
    expect(bad.content).toMatch(/^fake: the arguments are not valid JSON \(.+\)\. Call it again/);
    expect((await runTool(echo, '[1,2]', ctx)).content).toContain('must be a JSON object, got an array');
    expect((await runTool(echo, '"text"', ctx)).content).toContain('got string');
  });

  it('reports missing required arguments, wrong types and enum violations by name', async () => {
    expect((await runTool(echo, '', ctx)).content).toContain('missing required argument: "text"');
    expect((await runTool(echo, '{"text":null}', ctx)).content).toContain(
      'missing required argument: "text"',
    );
    expect((await runTool(echo, '{"text":"x","n":1.5}', ctx)).content).toContain(
      '"n" must be of type integer (got 1.5)',
    );
    expect((await runTool(echo, '{"text":"x","mode":"c"}', ctx)).content).toContain(
      '"mode" must be one of "a", "b"',
    );
    expect((await runTool(echo, '{"text":5}', ctx)).content).toContain('"text" must be of type string');
  });

  it('catches handler exceptions', async () => {
    const boom = fake(async () => {
      throw new Error('disk on fire');
    });
    expect(await runTool(boom, '{"text":"x"}', ctx)).toMatchObject({
      ok: false,
      content: 'fake failed: disk on fire',
    });
  });

  it('does not run a tool once interrupted', async () => {
    let ran = false;
    const t = fake(async () => {
      ran = true;
      return { ok: true, content: '' };
    });
    const ctrl = new AbortController();
    ctrl.abort();
    const r = await runTool(t, '{"text":"x"}', makeToolContext(root, { signal: ctrl.signal }));
    expect(r.ok).toBe(false);
    expect(ran).toBe(false);
  });

  it('caps content at maxResultChars (default 100,000) keeping head and tail', async () => {
    const big = 'H' + 'x'.repeat(300_000) + 'T';
    const t = fake(async () => ({ ok: true, content: big }));
    const r = await runTool(t, '{"text":"x"}', ctx);
    expect(r.content.length).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_CHARS);
    expect(r.content.startsWith('Hxxx')).toBe(true);
    expect(r.content.endsWith('xxxT')).toBe(true);
    expect(r.content).toMatch(/\[\.\.\. 2\d\d,\d{3} chars omitted \.\.\.\]/);
    const small = await runTool({ ...t, maxResultChars: 1_000 }, '{"text":"x"}', ctx);
    expect(small.content.length).toBeLessThanOrEqual(1_000);
  });
});

describe('secret redaction', () => {
  it("replaces the profile's secret values in tool results", async () => {
    const { redactSecrets } = await import('./registry.js');
    const r = redactSecrets(
      {
        ok: true,
        content: 'OPENAI_API_KEY=sk-SECRETVALUE-12345\nshort=abc',
        summary: 'sk-SECRETVALUE-12345',
      },
      { OPENAI_API_KEY: 'sk-SECRETVALUE-12345', SHORT: 'abc' },
    );
    expect(r.content).toBe('OPENAI_API_KEY=[REDACTED:OPENAI_API_KEY]\nshort=abc');
    expect(r.summary).toBe('[REDACTED:OPENAI_API_KEY]');
  });
});
