import { describe, expect, it } from 'vitest';
import { blockedNote } from './blocked.js';

describe('blockedNote', () => {
  it('says a command the sandbox stopped was blocked, and how to change the cron lane', () => {
    const note = blockedNote([{ command: 'rm -rf ~/x', why: 'sandbox' }]);
    expect(note).toContain('1 command was blocked: rm -rf ~/x.');
    expect(note).toContain('Cron jobs run in the sandbox');
    expect(note).toContain('terminal.sandbox.cron off');
    expect(note).not.toContain('cron_mode');
  });
});
