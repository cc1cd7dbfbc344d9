import { describe, expect, it } from 'vitest';
import { describeResolution } from './event-items.js';

const self = { instanceId: 'me', connectionId: 'c1' };

describe('who answered a request', () => {
  it('names the chat platform and the person for an answer from a chat (an escalated approval)', () => {
    expect(describeResolution('approval', 'once', 'telegram:Ann', self).text).toBe(
      '✓ Approved once (answered from telegram by Ann)',
    );
  });

  it('keeps the other wordings', () => {
    expect(describeResolution('approval', 'deny', 'client:me', self).text).toBe('✗ Denied (answered here)');
    expect(describeResolution('approval', 'once', 'client:other', self).text).toBe(
      '✓ Approved once (answered in another window)',
    );
    expect(describeResolution('approval', 'deny', 'timeout', self).text).toBe('✗ Denied (no answer in time)');
    expect(describeResolution('approval', 'once', 'smart', self).text).toBe('✓ Approved once (by smart)');
  });
});
