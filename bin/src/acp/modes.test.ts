import { describe, expect, it } from 'vitest';
import { ACP_MODES, approvalModeOf, modeState } from './modes.js';

describe('ACP modes', () => {
  it('are the approval modes, and nothing else maps to one', () => {
    expect(ACP_MODES.map((m) => m.id)).toEqual(['manual', 'smart', 'off']);
    expect(approvalModeOf('off')).toBe('off');
    expect(approvalModeOf('bypassPermissions')).toBeUndefined();
    expect(approvalModeOf('')).toBeUndefined();
  });

  it("name the session's current mode, manual when the daemon does not say", () => {
    expect(modeState({ approval_mode: 'smart' }).currentModeId).toBe('smart');
    expect(modeState({}).currentModeId).toBe('manual');
    expect(modeState({}).availableModes).toHaveLength(3);
  });
});
