import { describe, expect, it } from 'vitest';
import { commandForm, withCommandForm } from './command-form.js';

const files: Record<string, string> = {
  '/repo/bin/hermes': '/repo/bin/hermes',
  '/home/u/.local/bin/hermes': '/repo/bin/hermes',
  '/usr/bin/hermes': '/usr/lib/other/hermes',
  '/repo/node_modules/.bin/hermes': '/repo/bin/hermes',
};
const realpath = (p: string): string => {
  const r = files[p];
  if (!r) throw new Error(`ENOENT ${p}`);
  return r;
};

describe('commandForm', () => {
  it('is plain `hermes` when PATH finds this same program', () => {
    expect(
      commandForm({
        script: '/repo/bin/hermes',
        env: { PATH: '/usr/local/bin:/home/u/.local/bin' },
        cwd: '/tmp',
        realpath,
      }),
    ).toBe('hermes');
  });

  it('is the path of this program when PATH has none, or another one', () => {
    const env = { PATH: '/usr/bin:/bin' };
    expect(commandForm({ script: '/repo/bin/hermes', env, cwd: '/repo', realpath })).toBe('./bin/hermes');
    expect(commandForm({ script: '/repo/bin/hermes', env, cwd: '/repo/core', realpath })).toBe(
      '/repo/bin/hermes',
    );
    expect(commandForm({ script: '/repo/bin/hermes', env, cwd: '/elsewhere', realpath })).toBe(
      '/repo/bin/hermes',
    );
  });

  it('does not count the node_modules/.bin npm puts on the PATH of `npm start`', () => {
    const env = { PATH: '/repo/node_modules/.bin:/node_modules/.bin:/usr/bin:/bin' };
    expect(commandForm({ script: '/repo/bin/hermes', env, cwd: '/repo', realpath })).toBe('./bin/hermes');
  });

  it('quotes a path with spaces for the shell', () => {
    const spaced = (p: string): string => (p === '/my repo/bin/hermes' ? p : realpath(p));
    expect(
      commandForm({ script: '/my repo/bin/hermes', env: { PATH: '' }, cwd: '/elsewhere', realpath: spaced }),
    ).toBe("'/my repo/bin/hermes'");
  });

  it('is `hermes` when this process is not the hermes executable (tests, other hosts)', () => {
    expect(commandForm({ script: '/x/vitest.mjs', env: { PATH: '' }, cwd: '/', realpath: (p) => p })).toBe(
      'hermes',
    );
  });
});

describe('withCommandForm', () => {
  it('rewrites the commands a core message suggests, nothing else', () => {
    const core =
      'No model provider is configured. Set it (`hermes auth add openrouter` does it) … (`hermes model` lists them all)';
    expect(withCommandForm(core, './bin/hermes')).toBe(
      'No model provider is configured. Set it (`./bin/hermes auth add openrouter` does it) … (`./bin/hermes model` lists them all)',
    );
    expect(withCommandForm('no cron job "x" (see hermes cron list)', './bin/hermes')).toBe(
      'no cron job "x" (see ./bin/hermes cron list)',
    );
    expect(withCommandForm('hermes: the hermes daemon', './bin/hermes')).toBe('hermes: the hermes daemon');
    expect(withCommandForm(core, 'hermes')).toBe(core);
  });
});
