/**
 * Profile selection before any command runs: the `-p`
 * pre-parse and the root/profile resolution from HERMES_HOME, the sticky file and the flag.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliExit } from './context.js';
import { extractProfileFlag } from './profile-flag.js';
import { resolveCliHome } from './resolve-home.js';

describe('extractProfileFlag', () => {
  it.each([
    // the three forms, anywhere before `--`
    { args: ['-p', 'work', 'chat'], profile: 'work', rest: ['chat'] },
    { args: ['--profile', 'work', 'chat'], profile: 'work', rest: ['chat'] },
    { args: ['--profile=work', 'chat'], profile: 'work', rest: ['chat'] },
    { args: ['chat', '-q', 'hi', '-p', 'work'], profile: 'work', rest: ['chat', '-q', 'hi'] },
    {
      args: ['sessions', 'list', '--profile=work', '--json'],
      profile: 'work',
      rest: ['sessions', 'list', '--json'],
    },
    { args: ['-p', 'Work', 'tui'], profile: 'work', rest: ['tui'] },
    { args: ['-p', 'a', '-p', 'b', 'chat'], profile: 'a', rest: ['-p', 'b', 'chat'] },
    // values of options that take one are never the flag
    { args: ['chat', '-m', 'p'], profile: undefined, rest: ['chat', '-m', 'p'] },
    { args: ['chat', '-q', '-p', 'work'], profile: undefined, rest: ['chat', '-q', '-p', 'work'] },
    { args: ['chat', '--session', '-p'], profile: undefined, rest: ['chat', '--session', '-p'] },
    { args: ['chat', '-m', '--profile=work'], profile: undefined, rest: ['chat', '-m', '--profile=work'] },
    { args: ['chat', '--model', 'x', '-p', 'work'], profile: 'work', rest: ['chat', '--model', 'x'] },
    {
      args: ['profile', 'alias', 'work', '--as', '-p'],
      profile: undefined,
      rest: ['profile', 'alias', 'work', '--as', '-p'],
    },
    // after `--` nothing is taken
    { args: ['chat', '--', '-p', 'work'], profile: undefined, rest: ['chat', '--', '-p', 'work'] },
    { args: ['chat', '--', '--profile=work'], profile: undefined, rest: ['chat', '--', '--profile=work'] },
    // a value that is not a profile id is not a profile flag
    { args: ['-p', 'no:xdist', 'chat'], profile: undefined, rest: ['-p', 'no:xdist', 'chat'] },
    { args: ['--profile=../etc', 'chat'], profile: undefined, rest: ['--profile=../etc', 'chat'] },
    { args: ['--profile', '-x'], profile: undefined, rest: ['--profile', '-x'] },
    { args: ['chat', '-p'], profile: undefined, rest: ['chat', '-p'] },
    { args: ['--profile='], profile: undefined, rest: ['--profile='] },
  ])('$args → $profile', ({ args, profile, rest }) => {
    const r = extractProfileFlag(args);
    expect(r.profile).toBe(profile);
    expect(r.argv).toEqual(rest);
  });
});

describe('resolveCliHome', () => {
  const setup = (): { root: string; custom: string } => {
    const base = mkdtempSync(join(tmpdir(), 'hermes-resolve-'));
    const root = join(base, '.hermes');
    for (const p of ['work', 'play']) mkdirSync(join(root, 'profiles', p), { recursive: true });
    const custom = join(base, 'custom-root');
    mkdirSync(join(custom, 'profiles', 'work'), { recursive: true });
    return { root, custom };
  };

  it.each([
    {
      what: 'HERMES_HOME = the root',
      env: 'root',
      flag: undefined,
      sticky: undefined,
      profile: 'default',
      dir: '',
    },
    {
      what: 'HERMES_HOME = a profile',
      env: 'root/profiles/work',
      flag: undefined,
      sticky: undefined,
      profile: 'work',
      dir: 'profiles/work',
    },
    {
      what: 'HERMES_HOME = a custom root',
      env: 'custom',
      flag: undefined,
      sticky: undefined,
      profile: 'default',
      dir: '',
    },
    {
      what: 'a custom root and -p',
      env: 'custom',
      flag: 'work',
      sticky: undefined,
      profile: 'work',
      dir: 'profiles/work',
    },
    {
      what: 'the flag beats a profile HERMES_HOME',
      env: 'root/profiles/work',
      flag: 'play',
      sticky: undefined,
      profile: 'play',
      dir: 'profiles/play',
    },
    {
      what: 'the sticky file without a flag',
      env: 'root',
      flag: undefined,
      sticky: 'play',
      profile: 'play',
      dir: 'profiles/play',
    },
    {
      what: 'the flag beats the sticky file',
      env: 'root',
      flag: 'work',
      sticky: 'play',
      profile: 'work',
      dir: 'profiles/work',
    },
    {
      what: '-p default beats the sticky file',
      env: 'root',
      flag: 'default',
      sticky: 'play',
      profile: 'default',
      dir: '',
    },
    {
      what: 'a profile HERMES_HOME beats the sticky file',
      env: 'root/profiles/work',
      flag: undefined,
      sticky: 'play',
      profile: 'work',
      dir: 'profiles/work',
    },
  ])('$what', ({ env, flag, sticky, profile, dir }) => {
    const { root, custom } = setup();
    const base = env.startsWith('custom') ? custom : root;
    const hermesHome = env === 'custom' ? custom : env.replace(/^root/, root);
    if (sticky) writeFileSync(join(base, 'active_profile'), `${sticky}\n`);
    const home = resolveCliHome(flag, { HERMES_HOME: hermesHome });
    expect(home.root).toBe(base);
    expect(home.profile).toBe(profile);
    expect(home.dir).toBe(dir ? join(base, dir) : base);
    // root-only files stay at the root whatever the profile
    expect(home.activeProfileFile).toBe(join(base, 'active_profile'));
  });

  it('uses ~/.hermes without HERMES_HOME', () => {
    const home = resolveCliHome(undefined, { HOME: '/home/someone' });
    expect(home.root).toBe('/home/someone/.hermes');
    expect(home.profile).toBe('default');
  });

  it('refuses a missing profile with a one-line error that says how to create it', () => {
    const { root } = setup();
    const fail = (fn: () => unknown): CliExit => {
      try {
        fn();
      } catch (err) {
        return err as CliExit;
      }
      throw new Error('did not throw');
    };
    const flagged = fail(() => resolveCliHome('ghost', { HERMES_HOME: root }));
    expect(flagged).toBeInstanceOf(CliExit);
    expect(flagged.code).toBe(1);
    expect(flagged.message).toBe(
      'profile "ghost" does not exist; create it with: hermes profile create ghost',
    );
    const viaEnv = fail(() => resolveCliHome(undefined, { HERMES_HOME: join(root, 'profiles', 'ghost') }));
    expect(viaEnv.message).toContain('hermes profile create ghost');

    writeFileSync(join(root, 'active_profile'), 'gone\n');
    const stale = fail(() => resolveCliHome(undefined, { HERMES_HOME: root }));
    expect(stale.message).toContain(
      `the sticky profile "gone" (${join(root, 'active_profile')}) does not exist`,
    );
    expect(stale.message).toContain('hermes profile use default');
    expect(stale.message).not.toContain('\n');
    const warnings: string[] = [];
    const lenient = resolveCliHome(
      undefined,
      { HERMES_HOME: root },
      { lenientSticky: true, warn: (l) => warnings.push(l) },
    );
    expect(lenient.profile).toBe('default');
    expect(warnings).toEqual([expect.stringContaining('using default')]);
  });
});
