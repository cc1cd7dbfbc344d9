/**
 * Checkpoint retention (the original's `Pruner.trim`): each
 * project keeps `checkpoints.max_snapshots` checkpoints, dropped ones are garbage-collected from
 * the shadow store (throttled), retained ones still restore, and other projects and the user's own
 * repository are never touched. Everything runs real git.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createCheckpoint, listCheckpoints, restoreCheckpoint } from './checkpoints.js';
import { CHECKPOINT_GC_INTERVAL_MS, maybeGcStore } from './prune.js';
import { projectPaths, runGit, storePaths } from './store.js';
import { CheckpointTracker } from './tracker.js';
import { gitIn } from './testing.js';

const sh = gitIn;

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'ckpt-prune-'));
  const home = new HermesHome(join(root, 'home')).ensure();
  const dir = (name: string) => {
    const d = join(root, name);
    mkdirSync(d, { recursive: true });
    return d;
  };
  return { root, home, dir };
}

/**
 * Writes `n.txt` = `v<i>` (plus `p.txt` naming the folder, so two projects never share a commit)
 * and takes checkpoint `r<i>` for i in [from, to].
 */
async function snapshots(home: HermesHome, cwd: string, from: number, to: number, max?: number) {
  const results = [];
  writeFileSync(join(cwd, 'p.txt'), cwd);
  for (let i = from; i <= to; i++) {
    writeFileSync(join(cwd, 'n.txt'), `v${i}\n`);
    results.push(
      await createCheckpoint(
        home,
        cwd,
        { reason: `r${i}`, turn: i, session: 'sess' },
        max === undefined ? {} : { maxSnapshots: max },
      ),
    );
  }
  return results;
}

/** Whether the shadow store still has object `sha`. */
async function hasObject(home: HermesHome, sha: string): Promise<boolean> {
  return (await runGit(storePaths(home).store, ['cat-file', '-e', `${sha}^{commit}`])).ok;
}

const refTip = (home: HermesHome, cwd: string) =>
  sh(
    storePaths(home).store,
    '--git-dir',
    storePaths(home).store,
    'rev-parse',
    projectPaths(storePaths(home), cwd).ref,
  ).trim();

describe('checkpoint retention', () => {
  it('keeps the newest max_snapshots of one project, garbage-collects the rest, leaves other projects alone', async () => {
    const { home, dir } = setup();
    const p1 = dir('p1');
    const p2 = dir('p2');
    await snapshots(home, p2, 1, 2, 3);
    const p2Tip = refTip(home, p2);

    const made = await snapshots(home, p1, 1, 3, 3);
    expect(made.map((r) => r.pruned)).toEqual([undefined, undefined, undefined]);
    const fourth = (await snapshots(home, p1, 4, 5, 3)).at(-1)!;
    expect(fourth).toMatchObject({ created: true, pruned: 1 });

    const list = await listCheckpoints(home, p1);
    expect(list.map((c) => c.reason)).toEqual(['r5', 'r4', 'r3']);
    // trailers survive the rewrite; the newest hash reported is the one on the ref
    expect(list.map((c) => [c.turn, c.session])).toEqual([
      ['5', 'sess'],
      ['4', 'sess'],
      ['3', 'sess'],
    ]);
    expect(fourth.hash).toBe(list[0]!.hash);
    // the chain ends at the oldest retained one: a root commit
    const store = storePaths(home).store;
    expect(sh(store, '--git-dir', store, 'rev-list', '--count', list[0]!.hash).trim()).toBe('3');
    expect(sh(store, '--git-dir', store, 'rev-list', '--max-parents=0', list[0]!.hash).trim()).toBe(
      list[2]!.hash,
    );

    // the first rewrite ran gc at once: the dropped snapshots' commits are gone from the store
    expect(existsSync(join(storePaths(home).base, 'last-gc'))).toBe(true);
    expect(await hasObject(home, made[0]!.hash!)).toBe(false);
    expect(await hasObject(home, made[1]!.hash!)).toBe(false);

    // the other project: same ref, same history
    expect(refTip(home, p2)).toBe(p2Tip);
    expect((await listCheckpoints(home, p2)).map((c) => c.reason)).toEqual(['r2', 'r1']);

    // a retained checkpoint still restores
    const r = await restoreCheckpoint(home, p1, '3');
    expect(readFileSync(join(p1, 'n.txt'), 'utf8')).toBe('v3\n');
    expect(r.written).toEqual(['n.txt']);
  });

  it('collects garbage at most once per interval; a forced run collects what is pending', async () => {
    const { home, dir } = setup();
    const p = dir('p');
    await snapshots(home, p, 1, 3, 2); // first rewrite: gc runs
    const paths = storePaths(home);
    const lastGc = Number(readFileSync(join(paths.base, 'last-gc'), 'utf8'));
    const [fourth] = await snapshots(home, p, 4, 4, 10); // a higher limit: nothing to drop
    expect(fourth!.pruned).toBeUndefined();
    const before = (await listCheckpoints(home, p)).map((c) => c.hash);
    const [fifth] = await snapshots(home, p, 5, 5, 2); // drops two, gc is throttled
    expect(fifth!.pruned).toBe(2);
    expect(existsSync(join(paths.base, 'gc-pending'))).toBe(true);
    expect(await hasObject(home, before.at(-1)!)).toBe(true); // unreachable but still stored

    expect(await maybeGcStore(paths, { now: lastGc + 1000 })).toBe(false);
    expect(await maybeGcStore(paths, { now: lastGc + CHECKPOINT_GC_INTERVAL_MS })).toBe(true);
    expect(existsSync(join(paths.base, 'gc-pending'))).toBe(false);
    expect(await hasObject(home, before.at(-1)!)).toBe(false);
    expect((await listCheckpoints(home, p)).map((c) => c.reason)).toEqual(['r5', 'r4']);
    expect(await maybeGcStore(paths, { now: lastGc + 3 * CHECKPOINT_GC_INTERVAL_MS })).toBe(false); // nothing pending
  });

  it('a restore prunes after writing back; undo resolves; a restored file whose blob was collected snapshots again', async () => {
    const { root, home, dir } = setup();
    const p = dir('repo');
    writeFileSync(join(p, 'keep.txt'), 'user file\n');
    sh(p, 'init', '-q', '-b', 'main');
    sh(p, 'add', '-A');
    sh(p, 'commit', '-q', '-m', 'init');
    const userRepo = () => ({
      refs: sh(p, 'for-each-ref', '--format=%(refname) %(objectname)'),
      objects: readdirSync(join(p, '.git', 'objects')).sort(),
      git: readdirSync(join(p, '.git')).sort(),
    });
    const before = userRepo();

    const [a] = await snapshots(home, p, 1, 2, 2); // n.txt = v1 (A), v2 (B)
    writeFileSync(join(p, 'n.txt'), 'v-current\n');
    const r = await restoreCheckpoint(home, p, a!.hash!, { maxSnapshots: 2 });
    // the undo snapshot made three; the restored one (the oldest) was dropped and collected
    expect(readFileSync(join(p, 'n.txt'), 'utf8')).toBe('v1\n');
    const list = await listCheckpoints(home, p);
    expect(list.map((c) => c.reason)).toEqual([expect.stringMatching(/^before restoring/), 'r2']);
    expect(r.undo).toBe(list[0]!.hash);
    expect(await hasObject(home, a!.hash!)).toBe(false);

    // "v1" exists only on disk and in the project's index now: the next snapshot re-stages it
    const again = await createCheckpoint(home, p, { reason: 'after restore' }, { maxSnapshots: 2 });
    expect(again.created).toBe(true);
    await restoreCheckpoint(home, p, r.undo!);
    expect(readFileSync(join(p, 'n.txt'), 'utf8')).toBe('v-current\n');
    await restoreCheckpoint(home, p, again.hash!);
    expect(readFileSync(join(p, 'n.txt'), 'utf8')).toBe('v1\n');

    // gc ran in the shadow store only
    expect(userRepo()).toEqual(before);
    expect(existsSync(join(root, 'home', 'checkpoints', 'last-gc'))).toBe(true);
  });

  it('the agent tracker applies checkpoints.max_snapshots', async () => {
    const { home, dir } = setup();
    const p = dir('proj');
    writeFileSync(join(p, 'package.json'), '{}');
    const config = ConfigSchema.parse({ checkpoints: { max_snapshots: 2 } });
    const tracker = new CheckpointTracker({ home, config, sessionId: 's' });
    for (let turn = 1; turn <= 4; turn++) {
      tracker.newTurn(`turn ${turn}`);
      writeFileSync(join(p, 'f.txt'), `turn ${turn}\n`);
      await tracker.beforeFileChange(join(p, 'f.txt'), p);
    }
    expect((await listCheckpoints(home, p)).map((c) => c.turn)).toEqual(['4', '3']);
  });
});
