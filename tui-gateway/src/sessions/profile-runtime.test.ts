import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProfileNames, ProfileRuntime } from './profile-runtime.js';
import { SessionRegistry } from './session-registry.js';

function rootWith(...profiles: Array<[string, string]>): string {
  const root = mkdtempSync(join(tmpdir(), 'hermes-runtime-'));
  writeFileSync(join(root, '.env'), 'ROOT_SECRET=root\n');
  for (const [name, env] of profiles) {
    mkdirSync(join(root, 'profiles', name), { recursive: true });
    writeFileSync(join(root, 'profiles', name, '.env'), env);
  }
  return root;
}

describe('listProfileNames', () => {
  it('is profilesToServe: default once, then valid profile folders, sorted', () => {
    const root = rootWith(['work', ''], ['alpha', '']);
    mkdirSync(join(root, 'profiles', 'default'));
    mkdirSync(join(root, 'profiles', '.staging-x-1'));
    expect(listProfileNames(root)).toEqual(['default', 'alpha', 'work']);
  });
});

describe('ProfileRuntime config', () => {
  it('logs the unknown keys of config.yaml through the registry log when the profile is loaded', async () => {
    const root = rootWith(['work', '']);
    writeFileSync(
      join(root, 'profiles', 'work', 'config.yaml'),
      '_config_version: 2\nmodle:\n  default: x\n',
    );
    const lines: string[] = [];
    const registry = new SessionRegistry({ root, epoch: 'e', log: (l) => lines.push(l) });
    const work = registry.profile('work');
    expect((work.config as Record<string, unknown>).modle).toEqual({ default: 'x' });
    const warnings = lines.filter((l) => l.includes('unknown key'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('profile work: warning:');
    expect(warnings[0]).toContain(join(root, 'profiles', 'work', 'config.yaml'));
    expect(warnings[0]).toContain('did you mean "model"?');
    void work.config; // cached: not logged again
    expect(lines.filter((l) => l.includes('unknown key'))).toHaveLength(1);
    await registry.drain(1000);
  });
});

describe('ProfileRuntime isolation', () => {
  it('keeps each profile’s secrets and database apart', () => {
    const root = rootWith(['work', 'WORK_SECRET=w\n']);
    const def = new ProfileRuntime(root, 'default');
    const work = new ProfileRuntime(root, 'work');
    expect(def.secrets).toEqual({ ROOT_SECRET: 'root' });
    expect(work.secrets).toEqual({ WORK_SECRET: 'w' });
    expect(work.home.stateDbFile).not.toBe(def.home.stateDbFile);
    def.close();
    work.close();
  });

  it('never hands out a deleted or replaced profile’s cached secrets and database', async () => {
    const root = rootWith(['work', 'WORK_SECRET=old\n']);
    const registry = new SessionRegistry({ root, epoch: 'e' });
    const first = registry.profile('work');
    expect(first.secrets).toEqual({ WORK_SECRET: 'old' });
    expect(first.db.listSessions()).toEqual([]);
    expect(registry.profile('work')).toBe(first);

    // `hermes profile rename work old-work` then `hermes profile create work`
    renameSync(join(root, 'profiles', 'work'), join(root, 'profiles', 'old-work'));
    mkdirSync(join(root, 'profiles', 'work'));
    writeFileSync(join(root, 'profiles', 'work', '.env'), 'OTHER=new\n');
    expect(first.isCurrent()).toBe(false);
    const second = registry.profile('work');
    expect(second).not.toBe(first);
    expect(second.secrets).toEqual({ OTHER: 'new' });

    // `hermes profile delete work`
    rmSync(join(root, 'profiles', 'work'), { recursive: true });
    expect(() => registry.profile('work')).toThrow(/profile "work" does not exist/);
    expect(registry.profile('default').isCurrent()).toBe(true);
    await registry.drain(1000);
  });
});
