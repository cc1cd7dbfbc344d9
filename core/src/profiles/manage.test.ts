import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome, readActiveProfile } from '../home/home.js';
import { acquireSessionLock } from '../state/session-lock.js';
import { aliasDir, createAlias, listAliases } from './alias.js';
import { heldSessions } from './busy.js';
import { createProfile } from './create.js';
import { deleteProfile } from './delete.js';
import { renameProfile } from './rename.js';
import { useProfile } from './use.js';

function setup(): { home: HermesHome; homeDir: string } {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hp-manage-'))).ensure();
  createProfile(home, 'work');
  writeFileSync(home.forProfile('work').configFile, 'model: w\n');
  return { home, homeDir: mkdtempSync(join(tmpdir(), 'hp-user-')) };
}

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

describe('useProfile', () => {
  it('writes <root>/active_profile; default clears it; a missing profile is refused', () => {
    const { home } = setup();
    expect(useProfile(home, 'Work')).toBe('work');
    expect(readFileSync(home.activeProfileFile, 'utf8')).toBe('work\n');
    expect(readActiveProfile(home.root)).toBe('work');
    expect(useProfile(home, 'default')).toBe('default');
    expect(existsSync(home.activeProfileFile)).toBe(false);
    expect(() => useProfile(home, 'ghost')).toThrow(/profile "ghost" does not exist/);
    expect(existsSync(home.activeProfileFile)).toBe(false);
  });
});

describe('renameProfile', () => {
  it('moves the folder, follows the sticky selection and rewrites only our wrappers', () => {
    const { home, homeDir } = setup();
    useProfile(home, 'work');
    createAlias(home, 'work', { homeDir, pathEnv: '', hermesCommand: '/opt/hermes bin/hermes' });
    writeFileSync(join(aliasDir(homeDir), 'foreign'), '#!/bin/sh\nexec hermes -p work "$@"\n');
    const r = renameProfile(home, 'work', 'job', { homeDir });
    expect(r).toMatchObject({ from: 'work', to: 'job', stickyUpdated: true });
    expect(r.aliasesUpdated).toEqual([join(aliasDir(homeDir), 'work')]);
    expect(existsSync(home.forProfile('work').dir)).toBe(false);
    expect(readFileSync(home.forProfile('job').configFile, 'utf8')).toBe('model: w\n');
    expect(readActiveProfile(home.root)).toBe('job');
    const wrapper = readFileSync(join(aliasDir(homeDir), 'work'), 'utf8');
    expect(wrapper).toContain(`exec '/opt/hermes bin/hermes' -p job "$@"`);
    expect(listAliases(homeDir)).toEqual(new Map([['work', 'job']]));
    expect(readFileSync(join(aliasDir(homeDir), 'foreign'), 'utf8')).toContain('-p work');
  });

  it('leaves active_profile alone when another profile is sticky', () => {
    const { home } = setup();
    createProfile(home, 'other');
    useProfile(home, 'other');
    expect(renameProfile(home, 'work', 'job').stickyUpdated).toBe(false);
    expect(readActiveProfile(home.root)).toBe('other');
  });

  it.each([
    ['default', 'x', 'EDEFAULT'],
    ['work', 'default', 'EDEFAULT'],
    ['ghost', 'x', 'ENOENT'],
    ['work', 'chat', 'EINVAL'],
    ['work', 'Bad Name', 'EINVAL'],
    ['work', 'taken', 'EEXIST'],
    ['work', 'work', 'EEXIST'],
  ])('refuses %s → %s (%s)', (from, to, code) => {
    const { home } = setup();
    createProfile(home, 'taken');
    expect(codeOf(() => renameProfile(home, from, to))).toBe(code);
    expect(existsSync(home.forProfile('work').dir)).toBe(true);
  });

  it('refuses while a process holds a session of the profile, naming the holder', () => {
    const { home } = setup();
    const work = home.forProfile('work');
    const lock = acquireSessionLock(work, 's1', 'tui-gateway (pid 4242)');
    try {
      expect(heldSessions(work).map((h) => h.sessionId)).toEqual(['s1']);
      expect(() => renameProfile(home, 'work', 'job')).toThrow(
        /profile "work" cannot be renamed: session s1 is in use by tui-gateway \(pid 4242\)/,
      );
      expect(() => deleteProfile(home, 'work')).toThrow(/cannot be deleted: session s1/);
      expect(existsSync(work.dir)).toBe(true);
    } finally {
      lock.release();
    }
    expect(heldSessions(work)).toEqual([]);
    expect(renameProfile(home, 'work', 'job').to).toBe('job');
  });
});

describe('deleteProfile', () => {
  it('removes the folder, clears the sticky selection and removes only our wrappers of it', () => {
    const { home, homeDir } = setup();
    createProfile(home, 'other');
    useProfile(home, 'work');
    createAlias(home, 'work', { homeDir, pathEnv: '' });
    createAlias(home, 'work', { homeDir, pathEnv: '', alias: 'w2' });
    createAlias(home, 'other', { homeDir, pathEnv: '' });
    writeFileSync(join(aliasDir(homeDir), 'mine'), '#!/bin/sh\nexec hermes -p work "$@"\n');
    const d = deleteProfile(home, 'work', { homeDir });
    expect(d).toMatchObject({ name: 'work', stickyCleared: true });
    expect(d.aliasesRemoved.sort()).toEqual([join(aliasDir(homeDir), 'w2'), join(aliasDir(homeDir), 'work')]);
    expect(existsSync(d.path)).toBe(false);
    expect(existsSync(home.activeProfileFile)).toBe(false);
    expect(readdirSync(aliasDir(homeDir)).sort()).toEqual(['mine', 'other']);
    expect(readdirSync(home.profilesDir)).toEqual(['other']);
  });

  it('refuses default and a missing profile', () => {
    const { home } = setup();
    expect(codeOf(() => deleteProfile(home, 'default'))).toBe('EDEFAULT');
    expect(codeOf(() => deleteProfile(home, 'ghost'))).toBe('ENOENT');
    expect(existsSync(home.root)).toBe(true);
  });
});
