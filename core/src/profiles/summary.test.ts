import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { createProfile } from './create.js';
import { profileNames } from './lookup.js';
import { profilesToServe } from './serve.js';
import { listProfiles, showProfile } from './summary.js';
import { useProfile } from './use.js';

function rootWithProfiles(): HermesHome {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hp-list-'))).ensure();
  writeFileSync(home.configFile, 'model:\n  default: root-model\n  provider: custom\n');
  const work = createProfile(home, 'work', { description: 'Day job' }).home;
  writeFileSync(work.configFile, 'model: work-model\n');
  writeFileSync(work.envFile, 'K=v\n');
  createProfile(home, 'alpha');
  const db = SessionDB.open(work.stateDbFile);
  for (let i = 0; i < 3; i++) {
    const s = db.createSession({ source: 'cli' });
    db.appendMessage(s.id, { role: 'user', content: `hello ${i}` });
  }
  db.close();
  return home;
}

describe('listProfiles', () => {
  it('lists default first, then the named profiles, with model, sessions and description', () => {
    const home = rootWithProfiles();
    const list = listProfiles(home.forProfile('work'));
    expect(list.map((p) => p.name)).toEqual(['default', 'alpha', 'work']);
    const [root, alpha, work] = list;
    expect(root).toMatchObject({
      active: false,
      sticky: true,
      model: 'root-model',
      provider: 'custom',
      sessions: 0,
    });
    expect(root!.path).toBe(home.root);
    expect(alpha).toMatchObject({ active: false, sticky: false, sessions: 0 });
    expect(alpha!.model).toBeUndefined();
    expect(work).toMatchObject({ active: true, model: 'work-model', sessions: 3, description: 'Day job' });
    // counting never creates a database
    expect(existsSync(home.forProfile('alpha').stateDbFile)).toBe(false);
  });

  it('marks the sticky profile and survives a broken config and a damaged database', () => {
    const home = rootWithProfiles();
    useProfile(home, 'alpha');
    writeFileSync(home.forProfile('alpha').configFile, 'model: [unclosed\n');
    writeFileSync(home.stateDbFile, 'this is not sqlite');
    const list = listProfiles(home);
    expect(list.find((p) => p.sticky)?.name).toBe('alpha');
    expect(list.find((p) => p.active)?.name).toBe('default');
    expect(list[0]!.sessions).toBeNull();
    expect(list[0]!.sessions_error).toContain('state.db');
    expect(list.find((p) => p.name === 'alpha')!.model).toBeUndefined();
  });
});

describe('showProfile', () => {
  it('shows one profile without secret values', () => {
    const home = rootWithProfiles();
    const work = home.forProfile('work');
    writeFileSync(join(work.skillsDir, 'README'), 'not a skill');
    createProfile(home, 'x'); // unrelated
    const shown = showProfile(home, 'WORK');
    expect(shown).toMatchObject({ name: 'work', has_env: true, has_soul: false, sessions: 3, messages: 3 });
    expect(JSON.stringify(shown)).not.toContain('K=v');
    expect(() => showProfile(home, 'nope')).toThrow(
      /profile "nope" does not exist.*hermes profile create nope/,
    );
  });
});

describe('profilesToServe', () => {
  it('serves default and every valid profile folder; staging and junk folders are not profiles', () => {
    const home = rootWithProfiles();
    for (const junk of ['.staging-x-1', 'Bad Name', 'default']) {
      const p = join(home.profilesDir, junk);
      if (!existsSync(p)) mkdirSync(p);
    }
    writeFileSync(join(home.profilesDir, 'file-not-dir'), '');
    expect(profileNames(home)).toEqual(['default', 'alpha', 'work']);
    expect(profilesToServe(home.root)).toEqual([
      { name: 'default', dir: home.root },
      { name: 'alpha', dir: join(home.profilesDir, 'alpha') },
      { name: 'work', dir: join(home.profilesDir, 'work') },
    ]);
    expect(profilesToServe(home.root, { multiplex: false })).toEqual([{ name: 'default', dir: home.root }]);
    useProfile(home, 'work');
    expect(profilesToServe(home.root, { multiplex: false })).toEqual([
      { name: 'work', dir: join(home.profilesDir, 'work') },
    ]);
  });
});
