import { describe, expect, it } from 'vitest';
import { detectSandbox, findOnPath, probeSandbox, userNamespaceState } from './detect.js';

describe('sandbox detection', () => {
  it('says bwrap is not installed, with how to install it, when it is not on PATH', () => {
    const s = probeSandbox({ pathVar: '' });
    expect(s.available).toBe(false);
    expect(s.path).toBeUndefined();
    expect(s.reason).toMatch(/bwrap \(bubblewrap\) is not installed.*apt install bubblewrap/);
  });

  it("keeps bwrap's own words when it cannot start a sandbox", () => {
    const s = probeSandbox({ path: '/bin/false' });
    expect(s.available).toBe(false);
    expect(s.reason).toMatch(/^bwrap cannot start a sandbox here/);
  });

  it('caches the probe', () => {
    expect(detectSandbox()).toBe(detectSandbox());
    expect(typeof userNamespaceState()).toBe('string');
  });

  it.skipIf(!findOnPath('bwrap'))('finds a working bwrap with its version [needs bwrap]', () => {
    const s = probeSandbox();
    expect(s.path).toBe(findOnPath('bwrap'));
    if (s.available) expect(s.version).toMatch(/bubblewrap/);
    else expect(s.reason).toBeTruthy();
  });
});
