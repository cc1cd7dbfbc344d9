import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { describe, expect, it } from 'vitest';
import { CliExit } from '../context.js';
import { runProfile, type ProfileArgs, type ProfileEnv } from './run-profile.js';

function setup(): { home: HermesHome; env: ProfileEnv; out: () => string } {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-runprofile-'))).ensure();
  writeFileSync(home.configFile, 'model:\n  default: root-model\n');
  writeFileSync(home.envFile, 'ROOT_KEY=1\n', { mode: 0o644 });
  let text = '';
  const homeDir = mkdtempSync(join(tmpdir(), 'hermes-user-'));
  return {
    home,
    env: { homeDir, PATH: '/usr/bin:/bin', interactive: false, write: (t) => void (text += t) },
    out: () => text,
  };
}

const run = (home: HermesHome, env: ProfileEnv, args: ProfileArgs): Promise<void> =>
  runProfile({ home, version: 'test' }, args, env);

async function refused(p: Promise<void>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliExit);
  expect((err as CliExit).code).toBe(1);
  return (err as CliExit).message;
}

describe('hermes profile (in process)', () => {
  it('creates, lists (text and JSON), shows and switches profiles', async () => {
    const { home, env, out } = setup();
    await run(home, env, {
      action: 'create',
      name: 'work',
      clone: false,
      cloneAll: false,
      from: 'default',
      description: 'Day job',
    });
    expect(out()).toContain(
      `Created profile "work" at ${join(home.root, 'profiles', 'work')} (clone of "default": 2 files)`,
    );
    expect(statSync(join(home.root, 'profiles', 'work', '.env')).mode & 0o777).toBe(0o600);

    await run(home, env, { action: 'list', json: false });
    const table = out()
      .split('\n')
      .filter((l) => /^[* ] +(NAME|default|work)\b/.test(l));
    expect(table[0]).toMatch(/^ +NAME +MODEL +SESSIONS +PATH +DESCRIPTION$/);
    expect(table[1]).toMatch(/^\* +default +root-model +0 /);
    expect(table[2]).toMatch(/^ +work +root-model +0 .*profiles\/work +Day job$/);

    await run(home, env, { action: 'use', name: 'work' });
    expect(readFileSync(home.activeProfileFile, 'utf8')).toBe('work\n');
    await run(home.forProfile('work'), env, { action: 'list', json: true });
    const listed = JSON.parse(out().slice(out().lastIndexOf('\n[') + 1)) as Array<{
      name: string;
      active: boolean;
      sticky: boolean;
    }>;
    expect(listed.map((p) => [p.name, p.active, p.sticky])).toEqual([
      ['default', false, false],
      ['work', true, true],
    ]);

    await run(home, env, { action: 'alias', name: 'work', as: 'wk', remove: false });
    expect(out()).toContain(`is not on PATH`);
    await run(home, env, { action: 'show', json: true, name: 'work' });
    const shown = JSON.parse(out().slice(out().lastIndexOf('\n{') + 1)) as Record<string, unknown>;
    expect(shown).toMatchObject({ name: 'work', has_env: true, aliases: ['wk'], description: 'Day job' });
  });

  it('turns refusals into one-line CliExit(1) errors naming the profile', async () => {
    const { home, env } = setup();
    expect(
      await refused(run(home, env, { action: 'create', name: 'chat', clone: false, cloneAll: false })),
    ).toMatch(/"chat" is a hermes sub-command/);
    expect(await refused(run(home, env, { action: 'create', name: 'x', clone: true, cloneAll: true }))).toBe(
      'give --clone or --clone-all, not both',
    );
    expect(await refused(run(home, env, { action: 'show', json: false, name: 'ghost' }))).toMatch(
      /profile "ghost" does not exist/,
    );
    expect(await refused(run(home, env, { action: 'delete', name: 'default', yes: true }))).toBe(
      'the default profile cannot be deleted',
    );
    expect(await refused(run(home, env, { action: 'rename', from: 'default', to: 'x' }))).toBe(
      'the default profile cannot be renamed',
    );
  });

  it('deletes only with --yes when stdin is not a terminal', async () => {
    const { home, env, out } = setup();
    await run(home, env, { action: 'create', name: 'work', clone: false, cloneAll: false });
    expect(await refused(run(home, env, { action: 'delete', name: 'work', yes: false }))).toBe(
      'not deleting profile "work" without confirmation; pass --yes',
    );
    expect(existsSync(join(home.root, 'profiles', 'work'))).toBe(true);
    await run(home, env, { action: 'delete', name: 'work', yes: true });
    expect(out()).toContain(`Deleted profile "work"`);
    expect(existsSync(join(home.root, 'profiles', 'work'))).toBe(false);
  });
});
