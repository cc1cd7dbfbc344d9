import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { ALIAS_MARKER, aliasCollision, aliasDir, createAlias, readOurWrapper, removeAlias } from './alias.js';
import { createProfile } from './create.js';

function setup(): { home: HermesHome; homeDir: string; otherBin: string } {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hp-alias-'))).ensure();
  createProfile(home, 'work');
  createProfile(home, 'play');
  const homeDir = mkdtempSync(join(tmpdir(), 'hp-user-'));
  const otherBin = mkdtempSync(join(tmpdir(), 'hp-bin-'));
  return { home, homeDir, otherBin };
}

describe('createAlias', () => {
  it('writes an executable wrapper marked as ours that runs hermes -p <profile>', () => {
    const { home, homeDir } = setup();
    const pathEnv = `/usr/bin:${aliasDir(homeDir)}`;
    const a = createAlias(home, 'work', { homeDir, pathEnv, alias: 'wk', hermesCommand: '/x/hermes' });
    expect(a).toMatchObject({ alias: 'wk', profile: 'work', replaced: false, onPath: true });
    expect(a.path).toBe(join(homeDir, '.local', 'bin', 'wk'));
    const text = readFileSync(a.path, 'utf8');
    expect(text.split('\n')[0]).toBe('#!/bin/sh');
    expect(text.split('\n')[1]).toMatch(new RegExp(`^${ALIAS_MARKER} work `));
    expect(text).toContain('exec /x/hermes -p work "$@"');
    expect(statSync(a.path).mode & 0o777).toBe(0o755);
    expect(readOurWrapper(a.path)).toBe('work');
    expect(createAlias(home, 'work', { homeDir, pathEnv: '/usr/bin' })).toMatchObject({
      alias: 'work',
      onPath: false,
    });
  });

  it.each([
    ['hermes', /reserved/],
    ['default', /reserved/],
    ['sudo', /reserved/],
    ['chat', /hermes sub-command/],
    ['gateway', /hermes sub-command/],
    ['../evil', /not a valid alias name/],
  ])('refuses the alias %s', (alias, why) => {
    const { home, homeDir } = setup();
    expect(() => createAlias(home, 'work', { homeDir, pathEnv: '', alias })).toThrow(why);
    expect(existsSync(aliasDir(homeDir))).toBe(false);
  });

  it('refuses a name of another program on PATH, but not our own wrapper', () => {
    const { home, homeDir, otherBin } = setup();
    writeFileSync(join(otherBin, 'work'), '#!/bin/sh\necho other\n');
    chmodSync(join(otherBin, 'work'), 0o755);
    writeFileSync(join(otherBin, 'notexec'), 'data');
    const pathEnv = `${aliasDir(homeDir)}:${otherBin}`;
    expect(aliasCollision('work', { homeDir, pathEnv })).toContain(join(otherBin, 'work'));
    expect(() => createAlias(home, 'work', { homeDir, pathEnv })).toThrow(/shadow.*on PATH/);
    expect(aliasCollision('notexec', { homeDir, pathEnv })).toBeUndefined();
    createAlias(home, 'work', { homeDir, pathEnv: aliasDir(homeDir), alias: 'wk' });
    // our own wrapper on PATH is no collision: re-running replaces it
    expect(createAlias(home, 'play', { homeDir, pathEnv, alias: 'wk' })).toMatchObject({ replaced: true });
    expect(readOurWrapper(join(aliasDir(homeDir), 'wk'))).toBe('play');
  });

  it('never overwrites a file it did not write, and refuses a missing profile', () => {
    const { home, homeDir } = setup();
    mkdirSync(aliasDir(homeDir), { recursive: true });
    const foreign = join(aliasDir(homeDir), 'work');
    writeFileSync(foreign, '#!/bin/sh\n# my own script that mentions hermes -p work\n');
    expect(() => createAlias(home, 'work', { homeDir, pathEnv: '' })).toThrow(/was not written by hermes/);
    expect(readFileSync(foreign, 'utf8')).toContain('my own script');
    expect(() => createAlias(home, 'ghost', { homeDir, pathEnv: '' })).toThrow(
      /profile "ghost" does not exist/,
    );
  });
});

describe('removeAlias', () => {
  it('removes only wrappers it wrote for that profile', () => {
    const { home, homeDir } = setup();
    createAlias(home, 'work', { homeDir, pathEnv: '' });
    createAlias(home, 'play', { homeDir, pathEnv: '', alias: 'pl' });
    const foreign = join(aliasDir(homeDir), 'fw');
    writeFileSync(foreign, '#!/bin/sh\nexec hermes -p work "$@"\n');
    expect(() => removeAlias('work', { homeDir, alias: 'fw' })).toThrow(/not written by hermes/);
    expect(() => removeAlias('work', { homeDir, alias: 'pl' })).toThrow(/runs profile "play", not "work"/);
    expect(() => removeAlias('work', { homeDir, alias: 'nothing' })).toThrow(/no alias/);
    expect(removeAlias('work', { homeDir })).toBe(join(aliasDir(homeDir), 'work'));
    expect(existsSync(join(aliasDir(homeDir), 'work'))).toBe(false);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(join(aliasDir(homeDir), 'pl'))).toBe(true);
  });
});
