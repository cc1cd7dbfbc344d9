import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../testing.js';
import { CliExit } from '../context.js';

const answers: boolean[] = [];
const asked: string[] = [];
vi.mock('../confirm.js', () => ({
  confirm: (question: string) => {
    asked.push(question);
    return Promise.resolve(answers.shift() ?? false);
  },
}));

let home: HermesHome;
const wasTTY = process.stdin.isTTY;

/** Runs `hermes ARGS` in process; returns stdout. */
const hermes = async (...argv: string[]): Promise<string> => (await runCliInProcess(home, argv)).out;

function addSkill(name: string): string {
  const dir = join(home.skillsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: does ${name}\n---\nbody\n`);
  return dir;
}

const setTTY = (tty: boolean): void => {
  Object.defineProperty(process.stdin, 'isTTY', { value: tty, configurable: true });
};

beforeEach(() => {
  home = new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-skills-cmd-'))).ensure();
  answers.length = 0;
  asked.length = 0;
});
afterEach(() => {
  Object.defineProperty(process.stdin, 'isTTY', { value: wasTTY, configurable: true });
  vi.restoreAllMocks();
});

describe('hermes skills', () => {
  it('lists without a sub-command, as `list` does', async () => {
    addSkill('alpha');
    const listed = await hermes('skills', 'list');
    expect(listed).toBe('alpha  does alpha\n');
    expect(await hermes('skills')).toBe(listed);
    expect(JSON.parse(await hermes('skills', '--json'))).toEqual(
      JSON.parse(await hermes('skills', 'list', '--json')),
    );
  });

  it('remove asks on a terminal and keeps the skill on "no"', async () => {
    const dir = addSkill('beta');
    setTTY(true);
    answers.push(false);
    const err = await hermes('skills', 'remove', 'beta').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliExit);
    expect((err as CliExit).message).toBe('not removed');
    expect(asked).toEqual([`Remove skill "beta" and everything in ${dir}? [y/N] `]);
    expect(existsSync(dir)).toBe(true);
    answers.push(true);
    expect(await hermes('skills', 'remove', 'beta')).toBe(`Removed ${dir}\n`);
    expect(existsSync(dir)).toBe(false);
  });

  it('remove does not ask with --yes, nor when stdin is not a terminal', async () => {
    const a = addSkill('gamma');
    const b = addSkill('delta');
    setTTY(true);
    await hermes('skills', 'remove', 'gamma', '--yes');
    setTTY(false);
    await hermes('skills', 'remove', 'delta');
    expect(asked).toEqual([]);
    expect(existsSync(a) || existsSync(b)).toBe(false);
  });

  it('remove names a missing skill before asking', async () => {
    setTTY(true);
    const err = await hermes('skills', 'remove', 'nope').then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('no skill "nope"');
    expect(asked).toEqual([]);
  });
});
