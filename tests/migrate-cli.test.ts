/**
 * `hermes migrate` through the real CLI, from a home of the Python Hermes built in the original's
 * documented layout: its state.db made with the original's schema DDL (sessions, messages, the
 * FTS5 index and its triggers) and filled with several sessions including a tool round trip;
 * config.yaml with its keys and `provider: deepseek`; .env; SOUL.md; memories; two skills (one in a
 * category folder); cron jobs; a second profile. And the other side: this hermes refusing to work
 * in such a home when it is its own root.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderName } from '@hermes/core/config';
import { PY_SESSIONS, writePythonStateDb, writeTree } from '@hermes/core/testing';
import { runHermes as run } from './support/hermes-cli.js';

function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const JOBS = {
  jobs: [
    {
      id: 'a1b2c3d4e5f6',
      name: 'Morning brief',
      prompt: 'Summarise the news',
      skills: ['news-digest'],
      schedule: { kind: 'cron', expr: '0 9 * * *', display: '0 9 * * *' },
      schedule_display: '0 9 * * *',
      repeat: { times: null, completed: 4 },
      enabled: true,
      state: 'scheduled',
      deliver: 'local',
      next_run_at: '2025-03-03T09:00:00+00:00',
    },
    {
      id: '0f0e0d0c0b0a',
      name: 'Server check',
      prompt: 'Check the server',
      schedule: { kind: 'interval', minutes: 120, display: 'every 120m' },
      schedule_display: 'every 2h',
      enabled: true,
      state: 'scheduled',
      deliver: 'local',
    },
  ],
  updated_at: '2025-03-02T12:00:00+00:00',
};

/** A home of the Python Hermes at `dir`. */
function buildPythonHome(dir: string): void {
  writePythonStateDb(join(dir, 'state.db'), PY_SESSIONS);
  writeTree(dir, {
    'config.yaml': [
      '_config_version: 17',
      'model:',
      '  default: deepseek-chat',
      '  provider: deepseek',
      'agent:',
      '  max_turns: 60',
      'terminal:',
      '  backend: local',
      '  timeout: 120',
      'compression:',
      '  enabled: true',
      '  threshold: 0.7',
      'display:',
      '  skin: slate',
      '  tool_progress: all',
      'memory:',
      '  memory_enabled: true',
      '  memory_char_limit: 2200',
      'timezone: Europe/Berlin',
      '',
    ].join('\n'),
    '.env': 'DEEPSEEK_API_KEY=sk-deep-123\nTELEGRAM_BOT_TOKEN="12:ab#c d"\n',
    'SOUL.md': 'You are a patient gardener.\n',
    'memories/MEMORY.md': 'The user grows tomatoes on a balcony.\n§\nPrefers short answers.\n',
    'memories/USER.md': 'Name: Alex\n',
    'skills/research/news-digest/SKILL.md':
      '---\nname: news-digest\ndescription: Digest the news\n---\nRead feeds.\n',
    'skills/tomato-care/SKILL.md':
      '---\nname: tomato-care\ndescription: Care for tomatoes\n---\nWater daily.\n',
    'cron/jobs.json': JSON.stringify(JOBS, null, 2),
    'profiles/work/config.yaml': 'model:\n  default: gpt-4o\n  provider: openai\n',
    'profiles/work/SOUL.md': 'You are a terse engineer.\n',
    'profiles/Bad Name/SOUL.md': 'x\n',
  });
  writePythonStateDb(join(dir, 'profiles', 'work', 'state.db'), [
    {
      id: '20250310_080000_feed01',
      title: 'Deploy plan',
      started_at: 1741593600,
      messages: [
        { role: 'user', content: 'Plan the pelican deploy', timestamp: 1741593601 },
        { role: 'assistant', content: 'Step one: freeze the branch.', timestamp: 1741593602 },
      ],
    },
  ]);
}

let base: string;
let src: string;
let root: string;
let sourceHashes: Record<string, string>;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'migrate-cli-'));
  src = join(base, 'python-hermes');
  root = join(base, 'ours');
  buildPythonHome(src);
  sourceHashes = hashTree(src);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const json = <T>(text: string): T => JSON.parse(text) as T;

/** `hermes ARGS` in `home` (run from the test's folder: the home may not exist yet). */
const runHermes = (home: string, args: string[]) => run(home, args, { cwd: base });

describe('hermes migrate', () => {
  it('--dry-run says what would come and changes nothing', async () => {
    const r = await runHermes(root, ['migrate', '--from', src, '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Dry run/);
    expect(r.stdout).toContain('sessions: 3 sessions with 8 messages would come');
    expect(r.stdout).toMatch(/a1b2c3d4e5f6 {2}0 9 \* \* \* {2}Morning brief {2}\(paused\)/);
    expect(r.stdout).toMatch(/profile Bad Name: not brought: Invalid profile name/);
    const asJson = await runHermes(root, ['migrate', '--from', src, '--dry-run', '--json']);
    const report = json<{
      dryRun: boolean;
      profiles: Array<{ name: string; sessions: { messages: number } }>;
    }>(asJson.stdout);
    expect(report.dryRun).toBe(true);
    expect(report.profiles.map((p) => [p.name, p.sessions.messages])).toEqual([
      ['default', 8],
      ['work', 2],
    ]);
    expect(hashTree(src)).toEqual(sourceHashes);
    expect(hashTree(root)).toEqual({});
  });

  it('brings every session and message (searchable), config, keys, files, skills, paused cron jobs and profiles', async () => {
    const r = await runHermes(root, ['migrate', '--from', src]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sessions: 3 sessions with 8 messages brought');
    expect(r.stdout).toContain('1 message left out: removed in the Python Hermes (rewound)');
    expect(r.stdout).toMatch(/0f0e0d0c0b0a {2}every 2h {2}Server check {2}\(paused\)/);
    expect(r.stdout).toMatch(/not used by this hermes \(kept in the file\): .*display/);
    expect(hashTree(src)).toEqual(sourceHashes);

    const list = json<Array<{ id: string; source: string; message_count: number }>>(
      (await runHermes(root, ['sessions', 'list', '--json'])).stdout,
    );
    expect(list.map((s) => s.id).sort()).toEqual(PY_SESSIONS.map((s) => s.id).sort());
    expect(list.reduce((n, s) => n + s.message_count, 0)).toBe(8);
    const hits = json<Array<{ session_id: string }>>(
      (await runHermes(root, ['sessions', 'search', 'quokka', '--json'])).stdout,
    );
    expect(hits.map((h) => h.session_id)).toContain('20250302_100000_d4e5f6');
    const show = json<{
      messages: Array<{ role: string; tool_calls: string | null; tool_call_id: string | null }>;
    }>((await runHermes(root, ['sessions', 'show', '20250302_100000_d4e5f6', '--json'])).stdout);
    expect(show.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(show.messages[1]!.tool_calls).toContain('ls ~/projects');
    expect(show.messages[2]!.tool_call_id).toBe('call_1');

    const jobs = json<Array<{ id: string; state: string; enabled: boolean }>>(
      (await runHermes(root, ['cron', 'list', '--json'])).stdout,
    );
    expect(jobs.map((j) => [j.id, j.state, j.enabled])).toEqual([
      ['a1b2c3d4e5f6', 'paused', false],
      ['0f0e0d0c0b0a', 'paused', false],
    ]);

    const provider = (await runHermes(root, ['config', 'get', 'model.provider'])).stdout.trim();
    if (ProviderName.safeParse('deepseek').success) expect(provider).toBe('deepseek');
    else expect(r.stdout).toMatch(/model\.provider: "deepseek"/);
    expect((await runHermes(root, ['config', 'get', 'agent.max_turns'])).stdout.trim()).toBe('60');
    expect(readFileSync(join(root, '.env'), 'utf8')).toContain('TELEGRAM_BOT_TOKEN="12:ab#c d"');
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(root, 'SOUL.md'), 'utf8')).toBe('You are a patient gardener.\n');
    expect(readFileSync(join(root, 'memories', 'MEMORY.md'), 'utf8')).toContain('§');
    expect((await runHermes(root, ['skills', 'list'])).stdout).toMatch(/news-digest[\s\S]*tomato-care/);

    const work = json<Array<{ id: string }>>(
      (await runHermes(root, ['-p', 'work', 'sessions', 'list', '--json'])).stdout,
    );
    expect(work.map((s) => s.id)).toEqual(['20250310_080000_feed01']);
    expect(
      (await runHermes(root, ['-p', 'work', 'sessions', 'search', 'pelican', '--json'])).stdout,
    ).toContain('feed01');
    expect(readFileSync(join(root, 'profiles', 'work', 'SOUL.md'), 'utf8')).toContain('terse');
  });

  it('a second run adds nothing', async () => {
    const before = hashTree(root);
    const r = await runHermes(root, ['migrate', '--from', src]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sessions: 0 sessions with 0 messages brought; 3 already migrated');
    expect(r.stdout).toContain('cron: 0 jobs added, paused; 2 already migrated');
    const after = hashTree(root);
    for (const f of ['config.yaml', '.env', 'SOUL.md', 'cron/jobs.json', 'profiles/work/config.yaml'])
      expect(after[f]).toBe(before[f]);
    const list = json<unknown[]>((await runHermes(root, ['sessions', 'list', '--json'])).stdout);
    expect(list).toHaveLength(3);
    expect(hashTree(src)).toEqual(sourceHashes);
  });

  it('-p NAME brings only that profile of the original', async () => {
    const only = join(base, 'ours-work-only');
    const r = await runHermes(only, ['-p', 'work', 'migrate', '--from', src]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('profile work:');
    expect(r.stdout).not.toContain('profile default:');
    const work = json<Array<{ id: string }>>(
      (await runHermes(only, ['-p', 'work', 'sessions', 'list', '--json'])).stdout,
    );
    expect(work.map((s) => s.id)).toEqual(['20250310_080000_feed01']);
    expect(existsSync(join(only, 'state.db'))).toBe(false);
  });

  it('a corrupt source state.db gives an error naming it; the rest still comes and a rerun is safe', async () => {
    const bad = join(base, 'broken-python');
    buildPythonHome(bad);
    const db = join(bad, 'state.db');
    const bytes = readFileSync(db);
    bytes.fill(0x5a, 4096, bytes.length); // every page after the first: garbage
    writeFileSync(db, bytes);
    const other = join(base, 'ours-2');
    const r = await runHermes(other, ['migrate', '--from', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`error: ${db}: `);
    expect(readFileSync(join(other, 'SOUL.md'), 'utf8')).toContain('gardener');
    expect(json<unknown[]>((await runHermes(other, ['sessions', 'list', '--json'])).stdout)).toEqual([]);
  });
});

describe('a home of the Python Hermes as this hermes root', () => {
  it('is refused by commands (nothing of it changed), then migrated in place with the originals kept unchanged', async () => {
    const py = join(base, 'python-as-root');
    buildPythonHome(py);
    const before = hashTree(py);
    for (const args of [
      ['sessions', 'list'],
      ['config', 'set', 'agent.max_turns', '5'],
      ['cron', 'list'],
      ['gateway', 'run'],
    ]) {
      const r = await runHermes(py, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is a home of the Python Hermes');
      expect(r.stderr).toContain(`hermes migrate --from ${py}   brings it`);
    }
    const dry = await runHermes(py, ['migrate', '--from', py, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /In place: after the copy is verified, the original files would move, unchanged, to .*python-hermes-backup-/,
    );
    expect(hashTree(py)).toEqual(before);

    const r = await runHermes(py, ['migrate', '--from', py]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const backup = /moved, unchanged, to (\S+) /.exec(r.stdout)![1]!;
    expect(hashTree(backup)).toEqual(before);
    const list = JSON.parse((await runHermes(py, ['sessions', 'list', '--json'])).stdout) as unknown[];
    expect(list).toHaveLength(3);
    const jobs = JSON.parse((await runHermes(py, ['cron', 'list', '--json'])).stdout) as Array<{
      state: string;
    }>;
    expect(jobs.map((j) => j.state)).toEqual(['paused', 'paused']);
    const again = await runHermes(py, ['migrate', '--from', py]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("this hermes's own root, not a home of the Python Hermes");
  });
});

describe('first start', () => {
  it('names hermes migrate once when ~/.hermes holds the original and this root is empty', async () => {
    const user = join(base, 'user');
    buildPythonHome(join(user, '.hermes'));
    const before = hashTree(join(user, '.hermes'));
    const fresh = join(base, 'fresh-root');
    const env = { HOME: user };
    try {
      // no terminal here: the TUI itself stops at once, after the notice and the daemon's start
      const first = await run(fresh, ['tui'], { cwd: base, env });
      expect(first.stderr).toContain(
        'A home of the Python Hermes seems to be at ~/.hermes. `hermes migrate --from ~/.hermes` brings',
      );
      const second = await run(fresh, ['tui'], { cwd: base, env });
      expect(second.stderr).not.toContain('Python Hermes');
    } finally {
      await run(fresh, ['gateway', 'stop'], { cwd: base, env });
    }
    expect(hashTree(join(user, '.hermes'))).toEqual(before);
  });
});
