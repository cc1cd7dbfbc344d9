/**
 * Checkpoints: a turn that edits files in a git repo leaves that repo's own
 * git state untouched, a restore brings the files back (and can be undone), and a second project
 * shares the object store.
 */
import { withAttachments } from '../references/render.js';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../tests/support/fake-model-server.js';
import { Agent } from '../agent/agent.js';
import { ConfigSchema, defaultConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createModelClient } from '../model/client.js';
import { SessionDB } from '../state/session-db.js';
import { runTool } from '../tools/registry.js';
import { makeToolContext } from '../tools/testing.js';
import { builtinTools } from '../tools/registry.js';
import { writeFileTool } from '../tools/write-file.js';
import {
  createCheckpoint,
  diffCheckpoint,
  listCheckpointProjects,
  listCheckpoints,
  restoreCheckpoint,
} from './checkpoints.js';
import { projectHash, storePaths } from './store.js';
import { CheckpointTracker, checkpointDirFor, looksFileMutating } from './tracker.js';
import { gitIn } from './testing.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(() => model.close());

const sh = gitIn;

/** A git repository with two committed files, plus an ignored dependency folder and a .env. */
function makeRepo(root: string, name: string): string {
  const repo = join(root, name);
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'a.txt'), 'alpha\n');
  writeFileSync(join(repo, 'src', 'b.txt'), 'shared content\n');
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n.env\n');
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'init');
  mkdirSync(join(repo, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(repo, 'node_modules', 'dep', 'index.js'), 'dep\n');
  writeFileSync(join(repo, '.env'), 'SECRET=1\n');
  return repo;
}

/** Everything of the user's own repository state that a checkpoint could disturb. */
function repoFingerprint(repo: string) {
  return {
    index: readFileSync(join(repo, '.git', 'index')).toString('base64'),
    refs: sh(repo, 'for-each-ref', '--format=%(refname) %(objectname)'),
    stash: sh(repo, 'stash', 'list'),
    gitFiles: readdirSync(join(repo, '.git')).sort(),
  };
}

function setupAgent(root: string, cwd: string) {
  const home = new HermesHome(join(root, 'home')).ensure();
  const config = ConfigSchema.parse({ model: { provider: 'custom', base_url: model.url, default: 'fake' } });
  const db = SessionDB.open(home.stateDbFile);
  const session = db.createSession({ source: 'test', cwd });
  const agent = new Agent({
    home,
    config,
    secrets: {},
    sessionId: session.id,
    cwd,
    store: db,
    model: createModelClient({ config, secrets: {} }),
    tools: builtinTools(),
    systemPrompt: 'test',
  });
  return { home, agent, db };
}

describe('checkpoints through the agent loop', () => {
  it('a turn editing a git repo leaves its git state alone; restore brings the files back and can be undone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const repo = makeRepo(root, 'proj');
    const { home, agent, db } = setupAgent(root, repo);
    const before = repoFingerprint(repo);
    expect(sh(repo, 'status', '--porcelain')).toBe('');

    model.push(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'ALPHA CHANGED\n' } },
          { name: 'write_file', arguments: { path: 'src/new.txt', content: 'brand new\n' } },
          { name: 'patch', arguments: { path: 'src/b.txt', old_string: 'shared', new_string: 'patched' } },
        ],
      },
      { text: 'edited' },
    );
    expect((await agent.runTurn('edit three files')).status).toBe('complete');

    // The user's repository: its index, refs, stash and .git are untouched (checked before our own
    // `git status`, which may refresh the index), and only the agent's edits show.
    expect(repoFingerprint(repo)).toEqual(before);
    expect(sh(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M a.txt',
      ' M src/b.txt',
      '?? src/new.txt',
    ]);

    // One snapshot for the turn (three file changes in one directory).
    const list = await listCheckpoints(home, repo);
    expect(list).toHaveLength(1);
    expect(list[0]!.turn).toBe('1');
    expect(list[0]!.reason).toContain('edit three files');
    expect(list[0]!.files.sort()).toEqual(['a.txt', 'src/b.txt', 'src/new.txt']);

    const diff = await diffCheckpoint(home, repo, '1');
    expect(diff.diff).toContain('-alpha');
    expect(diff.diff).toContain('+ALPHA CHANGED');

    const restored = await restoreCheckpoint(home, repo, '1');
    expect(restored.deleted).toEqual(['src/new.txt']);
    expect(restored.written.sort()).toEqual(['a.txt', 'src/b.txt']);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(join(repo, 'src', 'b.txt'), 'utf8')).toBe('shared content\n');
    expect(existsSync(join(repo, 'src', 'new.txt'))).toBe(false);
    expect(repoFingerprint(repo).refs).toEqual(before.refs);
    expect(sh(repo, 'status', '--porcelain')).toBe('');
    // ignored files were neither snapshotted nor touched
    expect(readFileSync(join(repo, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(existsSync(join(repo, 'node_modules', 'dep', 'index.js'))).toBe(true);

    // The restore took a snapshot first: restoring it undoes the restore.
    expect(restored.undo).toBeDefined();
    await restoreCheckpoint(home, repo, restored.undo!);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('ALPHA CHANGED\n');
    expect(readFileSync(join(repo, 'src', 'new.txt'), 'utf8')).toBe('brand new\n');
    db.close();
  });

  it('takes one snapshot per directory per turn, a new one next turn', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const repo = makeRepo(root, 'proj');
    const { home, agent, db } = setupAgent(root, repo);
    model.push(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'two\n' } }] },
      { text: 'done 1' },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'three\n' } }] },
      { text: 'done 2' },
    );
    await agent.runTurn('first');
    expect(await listCheckpoints(home, repo)).toHaveLength(1);
    await agent.runTurn('second');
    const list = await listCheckpoints(home, repo);
    expect(list.map((c) => c.turn)).toEqual(['2', '1']);
    await restoreCheckpoint(home, repo, '2'); // the older one: before turn 1
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    await restoreCheckpoint(home, repo, list[0]!.hash); // before turn 2
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('two\n');
    db.close();
  });
});

describe('checkpoint store', () => {
  it('a second project shares the object store; each has its own ref, index and metadata', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const p1 = makeRepo(root, 'one');
    const p2 = makeRepo(root, 'two');
    const r1 = await createCheckpoint(home, p1, { reason: 'first project', turn: 1 });
    const r2 = await createCheckpoint(home, p2, { reason: 'second project', turn: 1 });
    expect(r1.created && r2.created).toBe(true);

    const { store } = storePaths(home);
    expect(readdirSync(join(store, 'refs', 'hermes')).sort()).toEqual(
      [projectHash(p1), projectHash(p2)].sort(),
    );
    expect(readdirSync(join(store, 'indexes')).sort()).toEqual([projectHash(p1), projectHash(p2)].sort());
    expect(
      listCheckpointProjects(home)
        .map((p) => p.workdir)
        .sort(),
    ).toEqual([p1, p2].sort());
    // Same content, same blob, stored once in the one objects/ folder.
    const blob = (ref: string) =>
      execFileSync('git', ['--git-dir', store, 'rev-parse', `${ref}:src/b.txt`], { encoding: 'utf8' }).trim();
    expect(blob(`refs/hermes/${projectHash(p1)}`)).toBe(blob(`refs/hermes/${projectHash(p2)}`));
    expect(existsSync(join(store, 'objects'))).toBe(true);
    expect(existsSync(join(p1, '.git', 'refs', 'hermes'))).toBe(false);

    // An unchanged directory is not stored twice.
    const again = await createCheckpoint(home, p1, { reason: 'again' });
    expect(again).toMatchObject({ created: false, skipped: 'unchanged', hash: r1.hash });
  });

  it('never snapshots /, the home directory or the temp folder itself', async () => {
    const home = new HermesHome(join(mkdtempSync(join(tmpdir(), 'ckpt-')), 'home')).ensure();
    for (const dir of ['/', homedir(), tmpdir()])
      expect(await createCheckpoint(home, dir, { reason: 'x' })).toEqual({
        created: false,
        skipped: 'too broad',
      });
  });

  it('restores one file only, and refuses paths outside the directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const repo = makeRepo(root, 'proj');
    await createCheckpoint(home, repo, { reason: 'base' });
    writeFileSync(join(repo, 'a.txt'), 'changed a\n');
    writeFileSync(join(repo, 'src', 'b.txt'), 'changed b\n');
    const r = await restoreCheckpoint(home, repo, '1', { file: 'src/b.txt' });
    expect(r.written).toEqual(['src/b.txt']);
    expect(readFileSync(join(repo, 'src', 'b.txt'), 'utf8')).toBe('shared content\n');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('changed a\n');
    await expect(restoreCheckpoint(home, repo, '1', { file: '../x' })).rejects.toThrow(/outside/);
    await expect(restoreCheckpoint(home, repo, 'zzz')).rejects.toThrow(/neither a checkpoint number/);
    await expect(restoreCheckpoint(home, repo, '9')).rejects.toThrow(/No checkpoint #9/);
  });
});

describe('CheckpointTracker', () => {
  it('a failed snapshot is logged and never stops the tool', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    rmSync(home.checkpointsDir, { recursive: true });
    writeFileSync(home.checkpointsDir, 'not a folder'); // every store operation fails
    const work = join(root, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'package.json'), '{}');
    const tracker = new CheckpointTracker({ home, config: defaultConfig(), sessionId: 's1' });
    tracker.newTurn('go');
    const ctx = makeToolContext(root, {
      home,
      cwd: work,
      beforeFileChange: (p, info) => tracker.beforeFileChange(p, work, info),
    });
    const r = await runTool(writeFileTool, JSON.stringify({ path: 'x.txt', content: 'hi' }), ctx);
    expect(r.ok).toBe(true);
    expect(readFileSync(join(work, 'x.txt'), 'utf8')).toBe('hi');
    expect(readFileSync(join(home.logsDir, 'checkpoints.log'), 'utf8')).toMatch(
      /checkpoint of .*work failed/,
    );
  });

  it('labels a checkpoint with what the user typed, not the content of attached references', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const repo = makeRepo(root, 'proj');
    const tracker = new CheckpointTracker({ home, config: defaultConfig(), sessionId: 's1' });
    const chip = { kind: 'file' as const, ref: 'a.txt', bytes: 19 };
    tracker.newTurn(withAttachments('fix the bug', [{ chip, content: 'SECRET FILE CONTENT', notes: [] }]));
    await tracker.beforeFileChange(join(repo, 'a.txt'), repo);
    const [cp] = await listCheckpoints(home, repo);
    expect(cp?.reason).toBe('before turn 1: fix the bug');
  });

  it('is off with checkpoints.enabled: false', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const home = new HermesHome(join(root, 'home')).ensure();
    const repo = makeRepo(root, 'proj');
    const config = ConfigSchema.parse({ checkpoints: { enabled: false } });
    const tracker = new CheckpointTracker({ home, config, sessionId: 's1' });
    tracker.newTurn('go');
    await tracker.beforeFileChange(join(repo, 'a.txt'), repo);
    expect(await listCheckpoints(home, repo)).toEqual([]);
  });

  it('picks the project root of a file and recognises file-changing shell commands', () => {
    const root = mkdtempSync(join(tmpdir(), 'ckpt-'));
    const repo = makeRepo(root, 'proj');
    expect(checkpointDirFor(join(repo, 'src', 'deep', 'new', 'file.ts'), root)).toBe(repo);
    const loose = join(root, 'loose', 'sub');
    mkdirSync(loose, { recursive: true });
    expect(checkpointDirFor(join(loose, 'f.txt'), join(root, 'loose'))).toBe(join(root, 'loose'));
    for (const c of ['rm -rf build', 'echo hi > out.txt', "sed -i 's/a/b/' f", 'git checkout -- .', 'mv a b'])
      expect(looksFileMutating(c)).toBe(true);
    for (const c of ['ls -la', 'git status', 'echo hi 2>/dev/null', 'cat a | grep b', 'npm test'])
      expect(looksFileMutating(c)).toBe(false);
  });
});
