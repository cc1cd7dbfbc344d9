/**
 * A platform's own default reset policy (`PlatformEntry.defaultReset`) stands in for
 * `gateway.session_reset`: the API server's named conversations are not reset after a quiet
 * period, while a chat platform's are.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePipelineTests } from './pipeline-testing.js';
import type { ResetPolicyConfig } from './reset-policy.js';

const pipes = usePipelineTests();
afterEach(() => vi.useRealTimers());

describe('defaultReset', () => {
  it.each<[string, ResetPolicyConfig | undefined, number]>([
    ['the global policy resets a quiet conversation', undefined, 2],
    ["the platform's own policy (none) keeps it", { mode: 'none' }, 1],
  ])('%s', async (_name, defaultReset, sessions) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { adapter, db } = pipes.create({
      platform: { allowed_users: ['alice'] },
      config: { gateway: { session_reset: { mode: 'idle', idle_minutes: 5 } } },
      entry: defaultReset ? { defaultReset } : {},
    });
    const source = { platform: 'memory', chatType: 'dm' as const, chatId: 'dm-alice', userId: 'alice' };
    pipes.model.push({ text: 'one' });
    await adapter.receive({ source, text: 'first' });
    vi.setSystemTime(Date.now() + 60 * 60_000); // an hour later
    pipes.model.push({ text: 'two' });
    await adapter.receive({ source, text: 'second' });
    expect(db.listSessions({ source: 'memory' })).toHaveLength(sessions);
  });
});
