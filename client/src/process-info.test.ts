import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, isSameProcessAlive, processStartTime, selfIdentity } from './process-info.js';

const ABSURD_PID = 2 ** 22 + 12345;
const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

describe('isProcessAlive', () => {
  it('sees this process and not an absurd pid', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(ABSURD_PID)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(1.5)).toBe(false);
  });
});

describe('processStartTime', () => {
  it.runIf(hasProc)('reads field 22 of /proc/<pid>/stat, the same at every read', () => {
    const t = processStartTime(process.pid);
    expect(t).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(t);
  });

  it('is undefined for a process that does not exist', () => {
    expect(processStartTime(ABSURD_PID)).toBeUndefined();
  });
});

describe('isSameProcessAlive', () => {
  it('accepts this process by its own identity and rejects another start time', () => {
    expect(isSameProcessAlive(selfIdentity())).toBe(true);
    expect(isSameProcessAlive({ pid: process.pid })).toBe(true);
    expect(isSameProcessAlive({ pid: ABSURD_PID })).toBe(false);
  });

  it.runIf(hasProc)('tells a reused pid by its recorded start time', () => {
    expect(selfIdentity().proc_start).toBe(processStartTime(process.pid));
    expect(isSameProcessAlive({ pid: process.pid, proc_start: 'not-my-start-time' })).toBe(false);
  });
});
