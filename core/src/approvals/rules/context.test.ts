/**
 * How rules/context.ts expands path words: braces, `~` forms, variables (from the context and from
 * the line), relative paths (also after a `cd`), `..` through symlinks, bash-style globs with
 * their limits, and the daemon's pid and port from the root's files.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DetectContext } from '../detection-types.js';
import { analyzeShell } from '../shell/analyze.js';
import {
  daemonInfo,
  expandBraces,
  expandTilde,
  expandVariables,
  GLOB_MATCH_LIMIT,
  globPaths,
  lineAssignments,
  physicalPath,
  ruleContext,
  segmentRegex,
} from './context.js';

let base: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hermes-ctx-')));
  mkdirSync(join(base, 'home', '.hermes', 'profiles', 'work'), { recursive: true });
  mkdirSync(join(base, 'proj', 'a', 'b'), { recursive: true });
  mkdirSync(join(base, 'many'));
  for (let i = 0; i < GLOB_MATCH_LIMIT + 50; i++) writeFileSync(join(base, 'many', `f${i}.txt`), '');
  writeFileSync(join(base, 'home', '.hermes', 'config.yaml'), '');
  writeFileSync(join(base, 'home', '.hermes', '.env'), '');
  writeFileSync(join(base, 'home', 'visible.txt'), '');
  symlinkSync(join(base, 'home', '.hermes', 'profiles', 'work'), join(base, 'proj', 'w'));
  writeFileSync(join(base, 'home', '.hermes', 'tui-gateway.json'), JSON.stringify({ pid: 4321, port: 9999 }));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The paths `ctx.paths` gives the argument `index` of the line's `cat` command. */
async function pathsOf(line: string, opts: Partial<DetectContext> = {}, index = 1): Promise<string[]> {
  const analysis = await analyzeShell(line);
  const ctx = ruleContext(analysis, {
    userHome: join(base, 'home'),
    cwd: join(base, 'proj'),
    env: {},
    ...opts,
  });
  const cmd = analysis.commands.find((c) => c.argv[0]?.value === 'cat')!;
  return ctx.paths(cmd.argv[index]!);
}

describe('expandBraces', () => {
  it('expands lists, nested lists and sequences like bash', () => {
    expect(expandBraces('a/{b,c}/d')).toEqual(['a/b/d', 'a/c/d']);
    expect(expandBraces('{x,y{1,2}}z')).toEqual(['xz', 'y1z', 'y2z']);
    expect(expandBraces('f{1..3}')).toEqual(['f1', 'f2', 'f3']);
    expect(expandBraces('{c..a}')).toEqual(['c', 'b', 'a']);
    expect(expandBraces('{0..10..5}')).toEqual(['0', '5', '10']);
  });
  it('leaves variables, single items and unbalanced braces alone', () => {
    expect(expandBraces('${HOME}/x')).toEqual(['${HOME}/x']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(expandBraces('{a,b')).toEqual(['{a,b']);
  });
});

describe('expandTilde', () => {
  const env = { OLDPWD: '/old' };
  it('expands ~, ~/x, ~+, ~- and ~user (the current user → the given home; others from passwd)', () => {
    expect(expandTilde('~', '/h', '/cwd', env)).toBe('/h');
    expect(expandTilde('~/x', '/h', '/cwd', env)).toBe('/h/x');
    expect(expandTilde('~+/x', '/h', '/cwd', env)).toBe('/cwd/x');
    expect(expandTilde('~-/x', '/h', '/cwd', env)).toBe('/old/x');
    expect(expandTilde(`~${userInfo().username}/x`, '/h', '/cwd', env)).toBe('/h/x');
    const other = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => f[0] && f[5] && f[0] !== userInfo().username);
    if (other) expect(expandTilde(`~${other[0]}/x`, '/h', '/cwd', env)).toBe(`${other[5]}/x`);
  });
  it('keeps an unknown user and a ~ that is not leading as written', () => {
    expect(expandTilde('~no-such-user-xyz/x', '/h', '/c', env)).toBe('~no-such-user-xyz/x');
    expect(expandTilde('a/~/x', '/h', '/c', env)).toBe('a/~/x');
  });
});

describe('expandVariables', () => {
  const vars = new Map([
    ['A', ['/a']],
    ['M', ['/m1', '/m2']],
    ['E', ['']],
  ]);
  it('expands plain, braced and defaulted forms, each value of a many-valued variable', () => {
    expect(expandVariables('$A/x', vars)).toEqual(['/a/x']);
    expect(expandVariables('${A}x', vars)).toEqual(['/ax']);
    expect(expandVariables('$M/f', vars)).toEqual(['/m1/f', '/m2/f']);
    expect(expandVariables('${NOPE:-/d}/f', vars)).toEqual(['/d/f']);
    expect(expandVariables('${E:-/d}', vars)).toEqual(['/d']);
    expect(expandVariables('${E-/d}', vars)).toEqual(['']);
    expect(expandVariables('${A:+/alt}', vars)).toEqual(['/alt']);
    expect(expandVariables('$NOPE/x', vars)).toEqual(['/x']);
  });
  it('gives up on substitutions and other ${…} forms', () => {
    expect(expandVariables('$(pwd)/x', vars)).toBeUndefined();
    expect(expandVariables('`pwd`/x', vars)).toBeUndefined();
    expect(expandVariables('${A/a/b}', vars)).toBeUndefined();
    expect(expandVariables('${A%[a]}', vars)).toBeUndefined();
  });

  it('removes a pattern from the start or end of a value', () => {
    const v = new Map([['P', ['/home/u/proj/']]]);
    expect(expandVariables('${P%/}', v)).toEqual(['/home/u/proj']);
    expect(expandVariables('${P%/*}', v)).toEqual(['/home/u/proj']);
    expect(expandVariables('${P%%/*}', v)).toEqual(['']);
    expect(expandVariables('${P#/*/}', v)).toEqual(['u/proj/']);
    expect(expandVariables('${P##*/}', v)).toEqual(['']);
    expect(expandVariables('${P%x}', v)).toEqual(['/home/u/proj/']);
  });
});

describe('lineAssignments', () => {
  it('reads plain, exported and quoted assignments and for-lists', () => {
    const a = lineAssignments(
      `R=~/.hermes; export S="$HOME/x y"; local T='/t'; for f in a "b" ~/c; do :; done`,
    );
    expect(a.get('R')).toEqual(['~/.hermes']);
    expect(a.get('S')).toEqual(['$HOME/x y']);
    expect(a.get('T')).toEqual(['/t']);
    expect(a.get('f')).toEqual(['a', 'b', '~/c']);
  });
});

describe('globs', () => {
  it('follow bash: a leading dot must be matched explicitly, ** is *, classes and negation', () => {
    expect(segmentRegex('*').test('.hermes')).toBe(false);
    expect(segmentRegex('.h*').test('.hermes')).toBe(true);
    expect(segmentRegex('[!a]x').test('bx')).toBe(true);
    expect(segmentRegex('[!a]x').test('ax')).toBe(false);
    expect(segmentRegex('**').test('abc')).toBe(true);
    expect(globPaths(join(base, 'home', '*'))).toEqual([join(base, 'home', 'visible.txt')]);
    expect(globPaths(join(base, 'h?me', '.*', 'c*.yaml'))).toEqual([
      join(base, 'home', '.hermes', 'config.yaml'),
    ]);
  });
  it('stop at GLOB_MATCH_LIMIT matches and never walk the whole disk', () => {
    expect(globPaths(join(base, 'many', '*'))).toHaveLength(GLOB_MATCH_LIMIT);
    const started = Date.now();
    globPaths('/*/*/*/*/.env');
    expect(Date.now() - started).toBeLessThan(3_000);
  });
  it('read `..` as the kernel does, through symlinks', () => {
    expect(physicalPath(`${base}/proj/w/../x`)).toBe(join(base, 'home', '.hermes', 'profiles', 'x'));
    expect(physicalPath('/a/b/../c')).toBe('/a/c');
  });
});

describe('ruleContext.paths', () => {
  const h = (...p: string[]): string => join(base, 'home', ...p);
  const p = (...x: string[]): string => join(base, 'proj', ...x);

  it('expands ~, $HOME, ${HERMES_HOME} (the root when unset) and relative paths against the cwd', async () => {
    expect(await pathsOf('cat ~/.hermes/.env')).toContain(h('.hermes', '.env'));
    expect(await pathsOf('cat "$HOME/.hermes"')).toContain(h('.hermes'));
    expect(await pathsOf('cat ${HERMES_HOME}/x', { hermesRoot: h('.hermes') })).toContain(h('.hermes', 'x'));
    expect(await pathsOf('cat ${HERMES_HOME}/x', { env: { HERMES_HOME: '/elsewhere' } })).toContain(
      '/elsewhere/x',
    );
    expect(await pathsOf('cat a/b')).toContain(p('a', 'b'));
    expect(await pathsOf('cat $PWD/a')).toContain(p('a'));
  });

  it('uses variables the line assigns and resolves relative words after a cd, too', async () => {
    expect(await pathsOf('R=~/.hermes; cat $R/.env')).toContain(h('.hermes', '.env'));
    expect(await pathsOf('cd a/b && cat ../../../home/.env')).toContain(h('.env'));
  });

  it('lists globs and braces as matched on disk plus the pattern, real paths of symlinks, both readings of ..', async () => {
    const glob = await pathsOf('cat ~/.h*/{config.yaml,.e?v}');
    expect(glob).toEqual(expect.arrayContaining([h('.hermes', 'config.yaml'), h('.hermes', '.env')]));
    expect(glob).toContain(h('.h*', 'config.yaml'));
    expect(await pathsOf('cat w')).toContain(h('.hermes', 'profiles', 'work'));
    const dots = await pathsOf('cat w/../config.yaml');
    expect(dots).toEqual(expect.arrayContaining([p('config.yaml'), h('.hermes', 'profiles', 'config.yaml')]));
  });

  it('does not expand quoted text, and knows nothing of a command substitution', async () => {
    expect(await pathsOf("cat '~/.h*'")).toEqual([p('~', '.h*')]);
    expect(await pathsOf('cat "$(pwd)/x"')).toEqual([]);
  });

  it("takes the daemon's pid and port from the root's discovery file unless given", async () => {
    expect(daemonInfo(h('.hermes'))).toEqual({ pid: 4321, port: 9999 });
    expect(daemonInfo(join(base, 'nowhere'))).toEqual({});
    const analysis = await analyzeShell('true');
    const ctx = ruleContext(analysis, { hermesRoot: h('.hermes'), userHome: h() });
    expect([ctx.daemonPid, ctx.daemonPort]).toEqual([4321, 9999]);
    expect(ruleContext(analysis, { hermesRoot: h('.hermes'), daemonPid: 7 }).daemonPid).toBe(7);
  });
});
