import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJobsText, renderJobsFile } from '../cron/store.js';
import { makeJob } from '../cron/testing.js';
import { HermesHome, HOME_SUBDIRS } from '../home/home.js';
import { createProfile } from './create.js';
import type { ProfileError } from './errors.js';
import { readProfileMeta } from './meta.js';

const tempRoot = (): HermesHome => new HermesHome(mkdtempSync(join(tmpdir(), 'hp-create-')));

function put(dir: string, rel: string, text = rel, mode = 0o644): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text, { mode });
}

/** Every file under `dir`, relative, sorted (folders only when empty). */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    const names = readdirSync(d);
    if (names.length === 0 && rel) out.push(`${rel}/`);
    for (const n of names) {
      const r = rel ? `${rel}/${n}` : n;
      if (statSync(join(d, n)).isDirectory()) walk(join(d, n), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

const mode = (p: string): number => statSync(p).mode & 0o777;

/** A default profile with something of every kind in it. */
function populatedRoot(): HermesHome {
  const home = tempRoot();
  const r = home.dir;
  put(r, 'config.yaml', 'model:\n  default: m1\n');
  put(r, '.env', 'KEY=secret\n', 0o644);
  put(r, 'SOUL.md', 'soul');
  put(r, 'memories/MEMORY.md', 'mem');
  put(r, 'memories/USER.md', 'user');
  put(r, 'memories/MEMORY.md.lock/x', 'lock dir of proper-lockfile');
  put(r, 'memories/notes.md', 'not in --clone');
  put(r, 'skills/git/SKILL.md', 'skill');
  put(r, 'skills/git/scripts/run.sh', '#!/bin/sh', 0o755);
  put(r, 'cron/jobs.json', '[]');
  put(r, 'hooks/h/HOOK.yaml', 'name: h');
  put(r, 'state.db', 'db');
  put(r, 'state.db-wal', 'wal');
  put(r, 'state.db-shm', 'shm');
  put(r, 'sessions/sessions.json', '{}');
  put(r, 'sessions/locks/abc.lock', '');
  put(r, 'checkpoints/x/HEAD', 'ref');
  put(r, `media/${'b'.repeat(64)}.png`, 'image of a stored message');
  put(r, 'backups/b.tar.gz', 'b');
  put(r, 'state-snapshots/s', 's');
  put(r, 'logs/tui-gateway.log', 'log');
  put(r, 'input_history.jsonl', '"hi"\n');
  put(r, 'gateway.pid', '1');
  put(r, 'workspace/tool.sock', '');
  put(r, 'workspace/notes.txt', 'kept');
  put(r, 'profile.yaml', 'description: the source\n');
  put(r, 'active_profile', 'work\n');
  put(r, 'tui-gateway.json', '{}');
  put(r, 'tui-gateway.lock', '');
  put(r, '.clean_shutdown', '');
  put(r, 'node_modules/x/index.js', 'x');
  put(r, 'hermes-agent/README', 'x');
  put(r, 'bin/tirith', 'x');
  put(r, 'profiles/other/config.yaml', 'other');
  return home;
}

describe('createProfile', () => {
  it('creates a blank profile with the standard sub-folders and nothing else', () => {
    const home = tempRoot();
    const made = createProfile(home, '  Work ', { description: 'Day job' });
    expect(made.home.dir).toBe(join(home.root, 'profiles', 'work'));
    expect(made.copied).toEqual([]);
    for (const sub of HOME_SUBDIRS) expect(statSync(made.home.path(sub)).isDirectory()).toBe(true);
    expect(tree(made.home.dir).filter((f) => !f.endsWith('/'))).toEqual(['profile.yaml']);
    expect(readProfileMeta(made.home.profileMetaFile)).toEqual({ description: 'Day job' });
  });

  it.each([
    ['default', /reserved/],
    ['hermes', /reserved/],
    ['tmp', /reserved/],
    ['chat', /sub-command/],
    ['profile', /sub-command/],
    ['-x', /Invalid profile name/],
    ['a/b', /Invalid profile name/],
    ['../x', /Invalid profile name/],
    ['a'.repeat(65), /Invalid profile name/],
    ['', /Invalid profile name/],
  ])('refuses the name %j saying why', (name, why) => {
    const home = tempRoot();
    expect(() => createProfile(home, name)).toThrow(why);
    expect(existsSync(home.profilesDir) ? readdirSync(home.profilesDir) : []).toEqual([]);
  });

  it('refuses an existing profile and a missing source', () => {
    const home = tempRoot();
    createProfile(home, 'work');
    expect(() => createProfile(home, 'work')).toThrow(/profile "work" already exists/);
    const err = (() => {
      try {
        createProfile(home, 'copy', { mode: 'clone', from: 'nope' });
      } catch (e) {
        return e as ProfileError;
      }
    })();
    expect(err?.code).toBe('ENOENT');
    expect(err?.message).toMatch(/profile "nope" does not exist/);
    expect(existsSync(home.forProfile('copy').dir)).toBe(false);
  });

  it('--clone copies config, .env, SOUL.md, the memory files and skills only; .env becomes 0600', () => {
    const home = populatedRoot();
    const made = createProfile(home, 'work', { mode: 'clone' });
    expect(made.from).toBe('default');
    expect(made.copied).toEqual([
      '.env',
      'SOUL.md',
      'config.yaml',
      'memories/MEMORY.md',
      'memories/USER.md',
      'skills/git/SKILL.md',
      'skills/git/scripts/run.sh',
    ]);
    const files = tree(made.home.dir).filter((f) => !f.endsWith('/'));
    expect(files).toEqual(made.copied);
    expect(mode(join(home.root, '.env'))).toBe(0o644);
    expect(mode(made.home.envFile)).toBe(0o600);
    expect(mode(made.home.path('skills/git/scripts/run.sh'))).toBe(0o755);
    expect(readFileSync(made.home.configFile, 'utf8')).toContain('default: m1');
    for (const sub of HOME_SUBDIRS) expect(existsSync(made.home.path(sub))).toBe(true);
  });

  it('--clone-all copies everything but history, runtime state and root infrastructure', () => {
    const home = populatedRoot();
    const made = createProfile(home, 'full', { mode: 'clone-all' });
    const files = tree(made.home.dir).filter((f) => !f.endsWith('/'));
    expect(files).toEqual([
      '.env',
      'SOUL.md',
      'config.yaml',
      'cron/jobs.json',
      'hooks/h/HOOK.yaml',
      'memories/MEMORY.md',
      'memories/USER.md',
      'memories/notes.md',
      'skills/git/SKILL.md',
      'skills/git/scripts/run.sh',
      'workspace/notes.txt',
    ]);
    expect(mode(made.home.envFile)).toBe(0o600);
    // history folders come back empty (standard layout), never with the source's content
    expect(readdirSync(made.home.sessionsDir)).toEqual([]);
    expect(readdirSync(made.home.checkpointsDir)).toEqual([]);
    expect(readdirSync(made.home.logsDir)).toEqual([]);
  });

  it('--clone-all brings the cron jobs paused, so one daemon does not fire them twice', () => {
    const home = populatedRoot();
    const jobs = [
      makeJob({
        id: 'aaaaaaaaaaaa',
        name: 'daily',
        running: { pid: 1, host: 'h', since: 'x', for_time: null },
      }),
      makeJob({ id: 'bbbbbbbbbbbb', name: 'done', state: 'completed', enabled: false, next_run_at: null }),
    ];
    writeFileSync(home.cronJobsFile, renderJobsFile(jobs, Date.now()));
    const made = createProfile(home, 'full', { mode: 'clone-all' });
    const cloned = parseJobsText(readFileSync(made.home.cronJobsFile, 'utf8'));
    expect(cloned.map((j) => [j.id, j.state, j.enabled, j.running])).toEqual([
      ['aaaaaaaaaaaa', 'paused', false, null],
      ['bbbbbbbbbbbb', 'completed', false, null],
    ]);
    expect(cloned[0]!.paused_at).not.toBeNull();
    // the source keeps its schedule
    expect(parseJobsText(readFileSync(home.cronJobsFile, 'utf8'))[0]!.state).toBe('scheduled');
  });

  it('--clone-all from a named profile copies its own files, and --from picks the source', () => {
    const home = tempRoot();
    const work = createProfile(home, 'work').home;
    put(work.dir, 'config.yaml', 'model:\n  default: work-model\n');
    put(work.dir, '.env', 'WORK=1\n', 0o644);
    put(work.dir, 'state.db', 'db');
    put(work.dir, 'bin/tool', 'a named profile keeps its own bin/');
    const made = createProfile(home, 'work2', { mode: 'clone-all', from: 'work' });
    expect(made.from).toBe('work');
    expect(made.copied).toEqual(['.env', 'bin/tool', 'config.yaml']);
    expect(mode(made.home.envFile)).toBe(0o600);
  });

  it('leaves nothing behind when the create fails before the rename', () => {
    const home = populatedRoot();
    const before = readdirSync(home.profilesDir).sort();
    let staging = '';
    expect(() =>
      createProfile(home, 'broken', {
        mode: 'clone-all',
        beforeCommit: (dir) => {
          staging = dir;
          expect(existsSync(join(dir, 'config.yaml'))).toBe(true);
          throw new Error('disk full (injected)');
        },
      }),
    ).toThrow('disk full (injected)');
    expect(staging).toContain(home.profilesDir);
    expect(existsSync(staging)).toBe(false);
    expect(existsSync(home.forProfile('broken').dir)).toBe(false);
    expect(readdirSync(home.profilesDir).sort()).toEqual(before);
  });
});
