import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionDB } from '../state/session-db.js';
import { loadConfig } from '../config/config-file.js';
import { HermesHome } from '../home/home.js';
import { CronStore } from '../cron/store.js';
import { migratePythonHome } from './migrate.js';
import { formatReport } from './report.js';
import { hashTree, PY_SESSIONS, writePythonStateDb, writeTree } from './testing.js';

let base: string;
let src: string;
let root: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'migrate-unit-'));
  src = join(base, 'python-home');
  root = join(base, 'ours');
  writePythonStateDb(join(src, 'state.db'), PY_SESSIONS);
  writeTree(src, {
    'config.yaml': [
      '_config_version: 17',
      'model:',
      '  default: deepseek-chat',
      '  provider: openrouter',
      'agent:',
      '  max_turns: 60',
      'display:',
      '  skin: slate',
      'compression:',
      '  threshold: 7',
      '',
    ].join('\n'),
    '.env': 'DEEPSEEK_API_KEY=sk-deep\nWEIRD="a\\\\b\\"c"\n',
    'SOUL.md': 'You are a gardener.\n',
    'memories/MEMORY.md': 'User grows tomatoes.\n',
    'skills/garden/tomato-care/SKILL.md':
      '---\nname: tomato-care\ndescription: Care for tomatoes\n---\nWater daily.\n',
    'cron/jobs.json': JSON.stringify({
      jobs: [
        {
          id: 'abcdef123456',
          name: 'Morning check',
          prompt: 'Check the weather',
          schedule: { kind: 'cron', expr: '0 7 * * *', display: '0 7 * * *' },
          schedule_display: '0 7 * * *',
          enabled: true,
          state: 'scheduled',
          deliver: 'local',
        },
        {
          id: 'script1',
          prompt: '',
          no_agent: true,
          script: '/x.sh',
          schedule: { kind: 'interval', minutes: 5 },
        },
      ],
      updated_at: '2025-03-01T00:00:00Z',
    }),
  });
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('migratePythonHome', () => {
  it('brings sessions, config, keys, files, skills and paused cron jobs; leaves the source unchanged', async () => {
    const before = hashTree(src);
    const report = await migratePythonHome({ from: src, root });
    expect(hashTree(src)).toEqual(before);
    const p = report.profiles[0]!;
    expect(p.errors).toEqual([]);
    expect(p.sessions).toMatchObject({ sessions: 3, messages: 8, alreadyMigrated: 0 });
    expect(p.sessions!.skippedMessages).toEqual({
      'removed in the Python Hermes (rewound)': 1,
      'context-compression summary (the messages it summarises are brought)': 1,
    });
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    try {
      const s = db.getSession('20250302_100000_d4e5f6')!;
      expect(s.source).toBe('telegram');
      const msgs = db.getMessages(s.id);
      expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(JSON.parse(msgs[1]!.tool_calls!)[0].function.name).toBe('terminal');
      expect(msgs[2]!.tool_call_id).toBe('call_1');
      expect(msgs[0]!.timestamp).toBe(1740909601000);
      expect(db.getSession('20250302_110000_0a0b0c')!.parent_session_id).toBe(s.id);
      expect(db.getSession('20250301_090000_a1b2c3')).toMatchObject({
        title: 'Plan the garden',
        prompt_tokens: 1200,
      });
      expect(db.search('quokka').map((h) => h.session_id)).toContain(s.id);
    } finally {
      db.close();
    }
    const config = loadConfig(new HermesHome(root));
    expect(config.model.default).toBe('deepseek-chat');
    expect(config.agent.max_turns).toBe(60);
    expect(p.config!.unknown).toContain('display');
    expect(p.config!.invalid.map((i) => i.item)).toEqual(['compression.threshold']);
    expect(p.env!.added).toEqual(['DEEPSEEK_API_KEY', 'WEIRD']);
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(root, 'skills', 'tomato-care', 'SKILL.md'), 'utf8')).toContain('Water daily');
    const jobs = new CronStore(new HermesHome(root)).read();
    expect(jobs.map((j) => [j.id, j.state, j.enabled, j.next_run_at])).toEqual([
      ['abcdef123456', 'paused', false, null],
    ]);
    expect(p.cron!.skipped[0]!.reason).toMatch(/no_agent/);
    expect(formatReport(report)).toMatch(/abcdef123456 {2}0 7 \* \* \* {2}Morning check {2}\(paused\)/);
  });

  it('a second run adds nothing', async () => {
    await migratePythonHome({ from: src, root });
    const after = hashTree(root);
    const again = await migratePythonHome({ from: src, root });
    const p = again.profiles[0]!;
    expect(p.sessions).toMatchObject({ sessions: 0, messages: 0, alreadyMigrated: 3 });
    expect(p.cron).toMatchObject({ jobs: [], alreadyMigrated: 1 });
    expect(p.env!.added).toEqual([]);
    expect(p.config!.keys).toEqual([]);
    const db = SessionDB.open(join(root, 'state.db'), { readonly: true });
    expect(db.listSessions().length).toBe(3);
    expect(db.countMessages()).toBe(8);
    db.close();
    for (const f of ['config.yaml', '.env', 'cron/jobs.json', 'SOUL.md'])
      expect(hashTree(root)[f]).toBe(after[f]);
  });

  it('a dry run changes neither home', async () => {
    const s = hashTree(src);
    const report = await migratePythonHome({ from: src, root, dryRun: true });
    expect(existsSync(root)).toBe(false);
    expect(hashTree(src)).toEqual(s);
    expect(report.profiles[0]!.sessions).toMatchObject({ sessions: 3, messages: 8 });
    expect(formatReport(report)).toMatch(/^Dry run/);
    await migratePythonHome({ from: src, root });
    const ours = hashTree(root);
    const again = await migratePythonHome({ from: src, root, dryRun: true });
    expect(again.profiles[0]!.sessions).toMatchObject({ sessions: 0, alreadyMigrated: 3 });
    expect(hashTree(root)).toEqual(ours);
  });

  it('a damaged source state.db is an error naming it; the other kinds still come, a rerun works', async () => {
    writeFileSync(join(src, 'state.db'), Buffer.alloc(8192, 7));
    const report = await migratePythonHome({ from: src, root });
    const p = report.profiles[0]!;
    expect(p.errors).toEqual([
      { item: join(src, 'state.db'), reason: expect.stringMatching(/not a database|damaged/) },
    ]);
    expect(existsSync(join(root, 'SOUL.md'))).toBe(true);
    expect(existsSync(join(root, 'state.db'))).toBe(false);
    writePythonStateDb(join(base, 'fixed.db'), PY_SESSIONS);
    rmSync(join(src, 'state.db'));
    writeFileSync(join(src, 'state.db'), readFileSync(join(base, 'fixed.db')));
    const again = await migratePythonHome({ from: src, root });
    expect(again.profiles[0]!.errors).toEqual([]);
    expect(again.profiles[0]!.sessions).toMatchObject({ sessions: 3, messages: 8 });
  });

  it('refuses to migrate from its own root when that is not a home of the original', async () => {
    await expect(migratePythonHome({ from: root, root })).rejects.toThrow(/no such folder/);
    await migratePythonHome({ from: src, root });
    await expect(migratePythonHome({ from: root, root })).rejects.toThrow(
      /own root, not a home of the Python Hermes/,
    );
    await expect(migratePythonHome({ from: join(root, 'profiles', 'x'), root })).rejects.toThrow(
      /no such folder/,
    );
    await expect(migratePythonHome({ from: join(base, 'nowhere'), root })).rejects.toThrow(/no such folder/);
  });
});
