/** `error` events of kind `notice` (told once, not a failure) show as warnings, without "Error:". */
import { describe, expect, it } from 'vitest';
import { snapshotResult, wire } from '../testing/fixtures.js';
import { createSessionReducer, initialSessionState } from './session-reducer.js';

describe('notice events', () => {
  it('shows kind notice as a warning and other errors as errors', () => {
    const reduce = createSessionReducer();
    let s = reduce(initialSessionState(), { type: 'attach', result: snapshotResult({ seq: 0 }), now: 0 });
    const message = 'Reasoning effort "high" is not supported by custom (model m); requests go without it.';
    s = reduce(s, { type: 'event', event: wire('error', 1, { message, kind: 'notice' }), now: 0 });
    s = reduce(s, { type: 'event', event: wire('error', 2, { message: 'boom', kind: 'server' }), now: 0 });
    expect(s.items.slice(-2).map(({ n: _n, ...i }) => i)).toEqual([
      { kind: 'notice', text: message, tone: 'warn' },
      { kind: 'notice', text: 'Error: boom', tone: 'error' },
    ]);
  });
});
