/**
 * `hermes profile …` and `hermes -p NAME …` end to end: the compiled CLI
 * (`npm run build` first) in a temporary HERMES_HOME and a temporary $HOME, against the scripted
 * model server. Never touches the real ~/.hermes or ~/.local/bin.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDB } from '@hermes/core/state';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { HERMES_BIN, makeTestHome, runHermes, type HermesRun } from './support/hermes-cli.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer();
});
afterAll(async () => {
  await model.close();
});

const PASSTHROUGH = 'terminal:\n  env_passthrough: [WORK_SECRET]';

/** A root whose config (model + passthrough) `--clone` copies into `work`. */
function rootWithWork(): { root: string; user: string; work: string } {
  const root = makeTestHome({ modelUrl: model.url, config: PASSTHROUGH, env: 'ROOT_ONLY=1\n' });
  chmodSync(join(root, '.env'), 0o644);
  const user = mkdtempSync(join(tmpdir(), 'hermes-user-'));
  return { root, user, work: join(root, 'profiles', 'work') };
}

/** Runs hermes with HOME pointed at a temporary user folder. */
const hermes = (
  root: string,
  user: string,
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<HermesRun> => runHermes(root, args, { env: { HOME: user, ...extra } });

async function ok(run: Promise<HermesRun>): Promise<HermesRun> {
  const r = await run;
  expect(r.code, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
  return r;
}

const sessionsOf = async (root: string, user: string, pre: string[] = []): Promise<Array<{ id: string }>> =>
  JSON.parse((await ok(hermes(root, user, [...pre, 'sessions', 'list', '--json']))).stdout) as Array<{
    id: string;
  }>;

function userPrompts(dbFile: string): string[] {
  const db = SessionDB.open(dbFile, { readonly: true });
  try {
    return db
      .listSessions()
      .flatMap((s) => db.getMessages(s.id))
      .filter((m) => m.role === 'user')
      .map((m) => m.content ?? '');
  } finally {
    db.close();
  }
}

describe('hermes profile (compiled CLI)', () => {
  it('create names the command as it can be typed here (no hermes on PATH: the path of bin/hermes)', async () => {
    const { root, user } = rootWithWork();
    const path = [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
    const created = await ok(hermes(root, user, ['profile', 'create', 'side'], { PATH: path }));
    const self = realpathSync(HERMES_BIN);
    expect(created.stdout).toContain(
      `Use it with: ${self} -p side …  or make it sticky: ${self} profile use side\n`,
    );
  });

  it('creates a clone with a 0600 .env and lists it; -p with a missing profile fails in one line', async () => {
    const { root, user, work } = rootWithWork();
    const created = await ok(
      hermes(root, user, ['profile', 'create', 'work', '--clone', '--description', 'Day job']),
    );
    expect(created.stdout).toContain(`Created profile "work" at ${work}`);
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o644);
    expect(statSync(join(work, '.env')).mode & 0o777).toBe(0o600);
    const list = JSON.parse(
      (await ok(hermes(root, user, ['-p', 'work', 'profile', 'list', '--json']))).stdout,
    ) as Array<Record<string, unknown>>;
    expect(list.map((p) => [p.name, p.active, p.model, p.sessions, p.description ?? null])).toEqual([
      ['default', false, 'fake-model', 0, null],
      ['work', true, 'fake-model', 0, 'Day job'],
    ]);

    const missing = await hermes(root, user, ['-p', 'ghost', 'sessions', 'list']);
    expect(missing.code).toBe(1);
    // the command as it runs in this install: `hermes` on PATH, else this executable's path
    expect(missing.stderr).toMatch(
      /^hermes: profile "ghost" does not exist; create it with: (hermes|\S+\/bin\/hermes) profile create ghost\n$/,
    );
    const reserved = await hermes(root, user, ['profile', 'create', 'default']);
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toMatch(/reserved/);
  });

  it('runs chat -q and sessions list in the selected profile only, with only its own secrets', async () => {
    const { root, user, work } = rootWithWork();
    await ok(hermes(root, user, ['profile', 'create', 'work', '--clone']));
    writeFileSync(join(work, '.env'), 'WORK_SECRET=ws4711\n', { mode: 0o600 });
    const prompt = 'print the work secret';
    const turn = () =>
      model.push(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "secret=[$WORK_SECRET]"' } }] },
        { echo: 'last_tool_result', prefix: 'The tool said: ' },
      );

    turn();
    const inDefault = await ok(hermes(root, user, ['chat', '-q', prompt]));
    expect(inDefault.stdout).toContain('secret=[]');
    expect(inDefault.stdout).not.toContain('ws4711');

    turn();
    const inWork = await ok(hermes(root, user, ['-p', 'work', 'chat', '-q', prompt]));
    expect(inWork.stdout).toContain('secret=[ws4711]');

    // the same prompt landed in two different state.db files
    expect(userPrompts(join(root, 'state.db'))).toEqual([prompt]);
    expect(userPrompts(join(work, 'state.db'))).toEqual([prompt]);
    const def = await sessionsOf(root, user);
    const wrk = await sessionsOf(root, user, ['-p', 'work']);
    expect(def).toHaveLength(1);
    expect(wrk).toHaveLength(1);
    expect(def[0]!.id).not.toBe(wrk[0]!.id);
    // HERMES_HOME pointing at the profile selects it too
    expect((await sessionsOf(work, user)).map((s) => s.id)).toEqual([wrk[0]!.id]);
    // the sticky selection
    await ok(hermes(root, user, ['profile', 'use', 'work']));
    expect((await sessionsOf(root, user)).map((s) => s.id)).toEqual([wrk[0]!.id]);
    expect((await sessionsOf(root, user, ['-p', 'default'])).map((s) => s.id)).toEqual([def[0]!.id]);
    const listed = JSON.parse((await ok(hermes(root, user, ['profile', 'list', '--json']))).stdout) as Array<{
      name: string;
      active: boolean;
      sticky: boolean;
      sessions: number;
    }>;
    expect(listed.map((p) => [p.name, p.active, p.sticky, p.sessions])).toEqual([
      ['default', false, false, 1],
      ['work', true, true, 1],
    ]);
    await ok(hermes(root, user, ['profile', 'delete', 'work', '--yes']));
    expect(existsSync(work)).toBe(false);
    expect(existsSync(join(root, 'active_profile'))).toBe(false);
    expect((await sessionsOf(root, user)).map((s) => s.id)).toEqual([def[0]!.id]);
  });

  it('exports and imports a profile; a crafted archive is refused and writes nothing', async () => {
    const { root, user, work } = rootWithWork();
    await ok(hermes(root, user, ['profile', 'create', 'work', '--clone-all']));
    writeFileSync(join(work, 'SOUL.md'), 'I am work.');
    const out = mkdtempSync(join(tmpdir(), 'hermes-export-'));
    const file = join(out, 'work.tar.gz');
    const exported = await ok(hermes(root, user, ['profile', 'export', 'work', '-o', file]));
    expect(exported.stdout).toContain(`Exported profile "work" to ${file}`);
    const imported = await ok(hermes(root, user, ['profile', 'import', file, '--name', 'copy']));
    expect(imported.stdout).toContain('Imported profile "copy"');
    expect(readdirSync(join(root, 'profiles', 'copy')).sort()).toEqual(
      expect.arrayContaining(['SOUL.md', 'config.yaml', 'memories', 'sessions', 'skills']),
    );
    expect(existsSync(join(root, 'profiles', 'copy', '.env'))).toBe(false);
    const again = await hermes(root, user, ['profile', 'import', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('profile "work" already exists');

    const outside = mkdtempSync(join(tmpdir(), 'hermes-outside-'));
    const member = (path: string, type: string, body = '', linkpath?: string): Buffer => {
      const h = new Header({
        path,
        type: type as never,
        mode: 0o644,
        size: body.length,
        mtime: new Date(0),
        ...(linkpath ? { linkpath } : {}),
      });
      h.encode();
      return Buffer.concat([
        h.block!,
        ...(body ? [Buffer.concat([Buffer.from(body), Buffer.alloc(512 - body.length)])] : []),
      ]);
    };
    const crafted = join(out, 'crafted.tar.gz');
    writeFileSync(
      crafted,
      gzipSync(
        Buffer.concat([
          member('evil/', 'Directory'),
          member('evil/config.yaml', 'File', 'model: x\n'),
          member('../x', 'File', 'up'),
          member(`${outside}/x`, 'File', 'abs'),
          member('/etc/x', 'File', 'etc'),
          member('evil/link', 'SymbolicLink', '', outside),
          Buffer.alloc(1024),
        ]),
      ),
    );
    const before = readdirSync(join(root, 'profiles')).sort();
    const refused = await hermes(root, user, ['profile', 'import', crafted]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('hermes: Unsafe archive member path: ../x\n');
    expect(readdirSync(join(root, 'profiles')).sort()).toEqual(before);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('writes an alias wrapper that runs the profile, refuses collisions and removes only its own', async () => {
    const { root, user } = rootWithWork();
    await ok(hermes(root, user, ['profile', 'create', 'work']));
    const bin = join(user, '.local', 'bin');
    // no `hermes` on this PATH: the wrapper runs this checkout's bin/hermes by absolute path
    const made = await ok(
      hermes(root, user, ['profile', 'alias', 'work', '--as', 'wk'], { PATH: '/usr/bin:/bin' }),
    );
    expect(made.stdout).toContain(`Created ${join(bin, 'wk')}: runs hermes -p work`);

    // the wrapper selects the profile: `wk profile list` runs in work
    const r = spawnSync(join(bin, 'wk'), ['profile', 'list', '--json'], {
      env: { ...process.env, HOME: user, HERMES_HOME: root },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(
      (JSON.parse(r.stdout) as Array<{ name: string; active: boolean }>).find((p) => p.active)?.name,
    ).toBe('work');

    const sub = await hermes(root, user, ['profile', 'alias', 'work', '--as', 'sessions']);
    expect(sub.code).toBe(1);
    expect(sub.stderr).toMatch(/hermes sub-command/);
    const onPath = await hermes(root, user, ['profile', 'alias', 'work', '--as', 'sh']);
    expect(onPath.code).toBe(1);
    expect(onPath.stderr).toMatch(/on PATH/);

    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'mine'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
    const foreign = await hermes(root, user, ['profile', 'alias', 'work', '--as', 'mine', '--remove']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('was not written by hermes');
    expect(existsSync(join(bin, 'mine'))).toBe(true);
    const over = await hermes(root, user, ['profile', 'alias', 'work', '--as', 'mine'], {
      PATH: '/usr/bin:/bin',
    });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('not overwriting it');
    await ok(hermes(root, user, ['profile', 'alias', 'work', '--as', 'wk', '--remove']));
    expect(readdirSync(bin)).toEqual(['mine']);
  });
});
