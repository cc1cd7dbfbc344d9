import { mkdtempSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome, readActiveProfile, resolveRoot } from './home.js';
import { validateNewProfileName } from './profile-name.js';

describe('resolveRoot', () => {
  it.each([
    { env: { HERMES_HOME: '/x/.hermes' }, root: '/x/.hermes', profile: undefined },
    { env: { HERMES_HOME: '/x/.hermes/profiles/work' }, root: '/x/.hermes', profile: 'work' },
    { env: { HERMES_HOME: '/custom/root' }, root: '/custom/root', profile: undefined },
    { env: { HERMES_HOME: '/x/profiles/NOT_VALID!' }, root: '/x/profiles/NOT_VALID!', profile: undefined },
    { env: { HOME: '/home/u' }, root: '/home/u/.hermes', profile: undefined },
  ])('$env', ({ env, root, profile }) => {
    const r = resolveRoot(env as NodeJS.ProcessEnv);
    expect(r.root).toBe(root);
    expect(r.envProfile).toBe(profile);
  });
});

describe('HermesHome', () => {
  it('puts default at the root and named profiles under profiles/', () => {
    expect(new HermesHome('/r').dir).toBe('/r');
    expect(new HermesHome('/r', 'Work').dir).toBe('/r/profiles/work');
    expect(new HermesHome('/r', 'work').configFile).toBe('/r/profiles/work/config.yaml');
    // root-only files stay at the root whatever the profile
    expect(new HermesHome('/r', 'work').discoveryFile).toBe('/r/tui-gateway.json');
  });

  it('refuses an invalid profile id', () => {
    expect(() => new HermesHome('/r', '../etc')).toThrow(/Invalid profile id/);
  });

  it('creates the standard layout', () => {
    const root = mkdtempSync(join(tmpdir(), 'hh-'));
    const home = new HermesHome(root, 'work').ensure();
    for (const sub of ['memories', 'skills', 'cron/output', 'logs', 'sessions']) {
      expect(statSync(join(home.dir, sub)).isDirectory()).toBe(true);
    }
  });

  it('reads the sticky profile and ignores junk', () => {
    const root = mkdtempSync(join(tmpdir(), 'hh-'));
    expect(readActiveProfile(root)).toBeUndefined();
    writeFileSync(join(root, 'active_profile'), 'Work\n');
    expect(readActiveProfile(root)).toBe('work');
    writeFileSync(join(root, 'active_profile'), '../../x');
    expect(readActiveProfile(root)).toBeUndefined();
    mkdirSync(join(root, 'profiles'), { recursive: true });
  });
});

describe('validateNewProfileName', () => {
  it.each([
    ['work', 'work'],
    ['  Work ', 'work'],
    ['a_b-1', 'a_b-1'],
  ])('accepts %s', (input, canon) => expect(validateNewProfileName(input)).toBe(canon));
  it.each([
    ['default', /reserved/],
    ['hermes', /reserved/],
    ['chat', /sub-command/],
    ['-x', /Invalid/],
    ['a'.repeat(65), /Invalid/],
    ['a b', /Invalid/],
  ])('refuses %s', (input, why) => expect(() => validateNewProfileName(input)).toThrow(why));
});
