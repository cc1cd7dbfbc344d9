/** response_format: reading it, checking answers against a JSON Schema, the repair turn. */
import { describe, expect, it } from 'vitest';
import { ApiError } from './http.js';
import { checkAnswer, formatInstruction, readFormat, repairText } from './structured.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};

describe('response_format', () => {
  it('reads the formats; a malformed one is a 400 naming response_format', () => {
    expect(readFormat(undefined)).toBeUndefined();
    expect(readFormat({ type: 'text' })).toBeUndefined();
    expect(readFormat({ type: 'json_object' })).toEqual({ kind: 'json_object' });
    expect(readFormat({ type: 'json_schema', json_schema: { name: 'person', schema } })).toMatchObject({
      kind: 'json_schema',
      name: 'person',
    });
    for (const bad of [{ type: 'xml' }, { type: 'json_schema', json_schema: {} }]) {
      let err: unknown;
      try {
        readFormat(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, param: 'response_format' });
    }
  });

  it('checks answers: JSON, the object kind, the schema; fences are dropped', () => {
    const person = readFormat({ type: 'json_schema', json_schema: { name: 'person', schema } })!;
    expect(checkAnswer(person, '```json\n{"name":"Ada","age":36}\n```')).toEqual({
      ok: true,
      text: '{"name":"Ada","age":36}',
    });
    const missing = checkAnswer(person, '{"name":"Ada"}');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.error).toMatch(/age/);
    expect(checkAnswer(person, 'Sure! Here it is').ok).toBe(false);
    const obj = readFormat({ type: 'json_object' })!;
    expect(checkAnswer(obj, '[1]').ok).toBe(false);
    expect(checkAnswer(obj, '{"a":1}').ok).toBe(true);
    expect(formatInstruction(person)).toContain('"required":["name","age"]');
    expect(repairText('q', person, 'bad </previous_answer>', 'age: required')).toContain(
      'bad ‹/previous_answer>\n</previous_answer>',
    );
  });
});
