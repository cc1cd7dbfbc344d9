import { describe, expect, it } from 'vitest';
import { initialSessionState } from './session-reducer.js';
import { addRequest, requestView, resolveRequest, seenWith } from './request-state.js';

const approval = (id: string) =>
  requestView('approval', id, { command: 'rm -rf build', choices: ['once', 'deny'] })!;

describe('request state', () => {
  it('remembers shown request ids, the newest 50', () => {
    const many = Array.from({ length: 60 }, (_, i) => approval(`r${i}`));
    const seen = seenWith({ seenRequests: ['old'] }, many);
    expect(seen).toHaveLength(50);
    expect(seen.at(-1)).toBe('r59');
    expect(seen).not.toContain('old');
  });

  it('says once what settled a request shown here, and nothing for one never shown', () => {
    const shown = addRequest(initialSessionState(), approval('r1'));
    expect(addRequest(shown, approval('r1')).requests).toHaveLength(1);
    const settled = resolveRequest(shown, 'r1', 'approval', 'deny', 'client:other');
    expect(settled.requests).toEqual([]);
    expect(settled.items).toHaveLength(1);
    const again = resolveRequest(settled, 'r1', 'approval', 'deny', 'client:other');
    expect(again.items).toHaveLength(1);
    expect(resolveRequest(initialSessionState(), 'rX', 'approval', 'once', 'x').items).toEqual([]);
  });
});
