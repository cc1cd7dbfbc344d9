import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bareProfile } from './tui.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('bareProfile', () => {
  it('is the sticky profile, else default; a stale sticky one reads as default', () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-bare-'));
    roots.push(root);
    const env = { HERMES_HOME: root };
    expect(bareProfile(env)).toBe('default');
    mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
    writeFileSync(join(root, 'active_profile'), 'work\n');
    expect(bareProfile(env)).toBe('work');
    writeFileSync(join(root, 'active_profile'), 'gone\n');
    expect(bareProfile(env)).toBe('default');
  });
});
