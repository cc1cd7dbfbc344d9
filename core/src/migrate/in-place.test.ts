import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CronStore } from '../cron/store.js';
import { HermesHome } from '../home/home.js';
import { SessionDB } from '../state/session-db.js';
import { stamp } from './in-place.js';
import { migratePythonHome } from './migrate.js';
import { hashTree, PY_SESSIONS, writePythonStateDb, writeTree } from './testing.js';

const NOW = Date.parse('2026-12-05T06:00:00Z');
let root: string;

beforeEach(() => {
  root = join(mkdtempSync(join(tmpdir(), 'in-place-')), '.hermes');
  writePythonStateDb(join(root, 'state.db'), PY_SESSIONS);
  writeTree(root, {
    'config.yaml': '_config_version: 17\nmodel:\n  default: some/model\n',
    'SOUL.md': 'soul\n',
    'cron/jobs.json': JSON.stringify({
      jobs: [{ id: 'abcabcabcabc', prompt: 'p', schedule: { kind: 'interval', minutes: 60 } }],
    }),
    'sessions/sessions.json': '{"python": "routing"}',
    'hermes-agent/run.py': 'print(1)\n',
    'profiles/work/SOUL.md': 'work soul\n',
  });
});
afterEach(() => rmSync(join(root, '..'), { recursive: true, force: true }));

describe('migrating this hermes own root when it is a home of the Python Hermes', () => {
  it('dry run: reports and changes nothing', async () => {
    const before = hashTree(root);
    const report = await migratePythonHome({ from: root, root, dryRun: true, now: () => NOW });
    expect(report.backup).toBe(join(root, `python-hermes-backup-${stamp(NOW)}`));
    expect(report.profiles[0]!.sessions).toMatchObject({ sessions: 3, messages: 8 });
    expect(hashTree(root)).toEqual(before);
  });

  it('copies, verifies, then moves the originals unchanged into the backup folder', async () => {
    const before = hashTree(root);
    const report = await migratePythonHome({ from: root, root, now: () => NOW });
    const backup = join(root, `python-hermes-backup-${stamp(NOW)}`);
    expect(report.backup).toBe(backup);
    const { 'hermes-agent/run.py': program, ...data } = before;
    expect(hashTree(backup)).toEqual(data);
    expect(hashTree(root)['hermes-agent/run.py']).toBe(program);
    expect(readdirSync(root).filter((n) => n.startsWith('.migrate-staging'))).toEqual([]);
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    expect(db.listSessions().length).toBe(3);
    db.close();
    expect(new CronStore(new HermesHome(root)).read().map((j) => j.state)).toEqual(['paused']);
    expect(hashTree(root)['profiles/work/SOUL.md']).toBe(before['profiles/work/SOUL.md']);
    expect(hashTree(root)['sessions/sessions.json']).toBeUndefined();
    await expect(migratePythonHome({ from: root, root, now: () => NOW })).rejects.toThrow(
      /own root, not a home/,
    );
    const again = await migratePythonHome({ from: backup, root, now: () => NOW });
    expect(again.profiles[0]!.sessions).toMatchObject({ sessions: 0, alreadyMigrated: 3 });
  });

  it('changes nothing when a file cannot be migrated, or the original seems to be running', async () => {
    writeFileSync(join(root, 'config.yaml'), 'model: [broken\n');
    const before = hashTree(root);
    await expect(migratePythonHome({ from: root, root, now: () => NOW })).rejects.toThrow(
      /config\.yaml: not valid YAML[\s\S]*nothing was changed/,
    );
    expect(hashTree(root)).toEqual(before);
    mkdirSync(join(root, 'x'), { recursive: true });
    writeFileSync(join(root, 'state.db-wal'), 'frames');
    await expect(migratePythonHome({ from: root, root, now: () => NOW })).rejects.toThrow(
      /seems to be running/,
    );
  });
});
