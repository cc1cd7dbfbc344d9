import { describe, expect, it } from 'vitest';
import {
  denialMessage,
  describeMatches,
  describeWithSmart,
  refuseFloor,
  SCRIPT_SHOWN_LINES,
  scriptRequestText,
} from './guard-messages.js';
import type { RuleHit } from './detection-types.js';

describe('denialMessage', () => {
  it('names the reason and tells the model not to retry', () => {
    expect(denialMessage('denied', 'recursive delete')).toMatch(
      /^BLOCKED: The user denied a command flagged as dangerous \(recursive delete\)\. Do not run it again/,
    );
    expect(denialMessage('timeout', 'x', 30)).toContain('within 30 s');
    expect(denialMessage('no_frontend', 'x', undefined, 'running a command outside the sandbox')).toMatch(
      /^BLOCKED: Running a command outside the sandbox \(x\) needs the user's approval/,
    );
    expect(denialMessage('floor', 'x')).toMatch(/^REFUSED: .* in any approval mode/);
  });

  it('refuses floor hits with their descriptions, each once', () => {
    const hit = { description: 'delete the root folder' } as RuleHit;
    const v = refuseFloor([hit, hit]);
    expect(v).toMatchObject({ allowed: false, reason: 'floor' });
    expect(v.message).toContain('this command (delete the root folder)');
  });
});

describe('descriptions', () => {
  it('joins rule descriptions once and appends the smart verdict', () => {
    expect(
      describeMatches([
        { key: 'a', description: 'one' },
        { key: 'b', description: 'one' },
      ]),
    ).toBe('one');
    expect(describeWithSmart('d', undefined)).toBe('d');
    expect(describeWithSmart('d', { verdict: 'deny', reason: 'wipes data' } as never)).toBe(
      'd — smart check: judged dangerous (wipes data)',
    );
  });

  it("shows a script's head and says how much is not shown", () => {
    const code = Array.from({ length: SCRIPT_SHOWN_LINES + 5 }, (_, i) => `print(${i})`).join('\n');
    const text = scriptRequestText({ code, language: 'python' });
    expect(text.startsWith('execute_code (python):\nprint(0)')).toBe(true);
    expect(text).toMatch(/… \(\d+ more chars, 5 more lines not shown\)$/);
    expect(scriptRequestText({ code: 'x = 1', language: 'python' })).toBe('execute_code (python):\nx = 1');
  });
});
