import { describe, expect, it } from 'vitest';
import { isCanonicalSessionId, newSessionId, sessionIdProblem } from './session-id.js';

describe('session ids', () => {
  it('are YYYYMMDD_HHMMSS_<6 hex> in local time', () => {
    const id = newSessionId(new Date(2026, 10, 29, 9, 5, 7));
    expect(id).toMatch(/^20261129_090507_[0-9a-f]{6}$/);
    expect(isCanonicalSessionId(id)).toBe(true);
    expect(new Set(Array.from({ length: 200 }, () => newSessionId())).size).toBe(200);
  });

  it('explains what is wrong with a caller-supplied id', () => {
    expect(sessionIdProblem('20261129_090507_abcdef')).toBeNull();
    expect(sessionIdProblem('test-1')).toBeNull();
    expect(sessionIdProblem('')).toMatch(/empty/);
    expect(sessionIdProblem('a b')).toMatch(/may only contain/);
    expect(sessionIdProblem('x'.repeat(129))).toMatch(/at most 128/);
  });
});
