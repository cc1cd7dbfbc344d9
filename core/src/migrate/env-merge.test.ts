import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { planEnv } from './env-merge.js';

describe('planEnv', () => {
  it('appends the original lines of new keys so that every value reads back the same', () => {
    const src = [
      'PLAIN=abc',
      'HASH="a#b c"',
      "SINGLE='x\\y\"z'",
      'export EXPORTED=1',
      'MULTI="line one',
      'line two"',
      '# a comment',
      'SPACES = padded ',
    ].join('\n');
    const { result, text } = planEnv(src, 'OURS=1\n');
    expect(result.added).toEqual(['PLAIN', 'HASH', 'SINGLE', 'EXPORTED', 'MULTI', 'SPACES']);
    const back = parse(text!);
    for (const [k, v] of Object.entries(parse(src))) expect(back[k]).toBe(v);
    expect(back.OURS).toBe('1');
  });

  it("keeps this home's keys, reports a different value by name only", () => {
    const { result, text } = planEnv('A=theirs\nB=same\n', 'A=mine\nB=same\n');
    expect(result).toEqual({ status: 'unchanged', added: [], conflicts: ['A'], skipped: [] });
    expect(text).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain('theirs');
  });
});
