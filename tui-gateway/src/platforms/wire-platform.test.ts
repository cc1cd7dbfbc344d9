import { describe, expect, it } from 'vitest';
import { liveLimits } from './wire-platform.js';

// wirePlatform itself runs in adapter-host.test.ts (a fake platform through the whole host).
describe('liveLimits', () => {
  it('reads max_live_sessions and live_idle_minutes, ignoring what is not a usable number', () => {
    expect(liveLimits({ max_live_sessions: 3.7, live_idle_minutes: 2 })).toEqual({
      maxLive: 3,
      idleMs: 120_000,
    });
    expect(liveLimits({ max_live_sessions: 0, live_idle_minutes: -1 })).toEqual({});
    expect(liveLimits({ max_live_sessions: '5' })).toEqual({});
    expect(liveLimits(undefined)).toEqual({});
  });
});
