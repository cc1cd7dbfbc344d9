import { describe, expect, it } from 'vitest';
import { bwrapArgs, isWithin, type BwrapPlan } from './bwrap-args.js';

const plan = (over: Partial<BwrapPlan> = {}): BwrapPlan => ({
  mode: 'workspace',
  cwd: '/home/u/project',
  tmpDir: '/tmp/hermes-sandbox-1/s1',
  network: true,
  hiddenDirs: ['/home/u/.hermes', '/home/u/.ssh'],
  hiddenFiles: ['/home/u/.netrc'],
  placeholderFile: '/tmp/hermes-sandbox-1/hidden',
  ...over,
});

/** The index of the pair `flag value…` in `args`. */
const at = (args: string[], ...seq: string[]): number =>
  args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

describe('bwrapArgs', () => {
  it('mounts / read-only, the workspace and the session temp writable, hides the rest, keeps the group', () => {
    const a = bwrapArgs(plan());
    expect(a.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(at(a, '--bind', '/tmp/hermes-sandbox-1/s1', '/tmp')).toBeGreaterThan(0);
    expect(at(a, '--setenv', 'TMPDIR', '/tmp')).toBeGreaterThan(0);
    expect(at(a, '--setenv', 'npm_config_cache', '/tmp/.npm')).toBeGreaterThan(0);
    expect(at(a, '--bind', '/home/u/project', '/home/u/project')).toBeGreaterThan(0);
    expect(at(a, '--perms', '0000', '--tmpfs', '/home/u/.hermes')).toBeGreaterThan(0);
    expect(at(a, '--perms', '0000', '--tmpfs', '/home/u/.ssh')).toBeGreaterThan(0);
    expect(at(a, '--ro-bind', '/tmp/hermes-sandbox-1/hidden', '/home/u/.netrc')).toBeGreaterThan(0);
    expect(a).toContain('--share-net');
    expect(a).toContain('--die-with-parent');
    expect(a).toContain('--cap-drop');
    expect(a).not.toContain('--new-session');
    expect(a.slice(-3)).toEqual(['--chdir', '/home/u/project', '--']);
  });

  it('cuts the network when off and always in strict', () => {
    expect(bwrapArgs(plan({ network: false }))).not.toContain('--share-net');
    expect(bwrapArgs(plan({ mode: 'strict', network: true }))).not.toContain('--share-net');
  });

  it('re-binds a workspace inside a hidden folder after hiding it (traversable, not listable)', () => {
    const a = bwrapArgs(plan({ cwd: '/home/u/.hermes/profiles/w/workspace' }));
    const hide = at(a, '--perms', '0111', '--tmpfs', '/home/u/.hermes');
    const binds = a.flatMap((x, i) =>
      x === '--bind' && a[i + 1] === '/home/u/.hermes/profiles/w/workspace' ? [i] : [],
    );
    expect(hide).toBeGreaterThan(0);
    expect(binds.length).toBe(2);
    expect(binds[1]!).toBeGreaterThan(hide);
  });

  it('leaves out --die-with-parent for a detached run and adds read-only paths last', () => {
    const a = bwrapArgs(plan({ detach: true, readOnlyPaths: ['/tmp/hermes-exec-x'] }));
    expect(a).not.toContain('--die-with-parent');
    expect(at(a, '--ro-bind', '/tmp/hermes-exec-x', '/tmp/hermes-exec-x')).toBeGreaterThan(
      at(a, '--tmpfs', '/home/u/.ssh'),
    );
  });

  it('starts in a folder other than the workspace without making it writable', () => {
    const a = bwrapArgs(plan({ chdir: '/home/u' }));
    expect(a.slice(-3)).toEqual(['--chdir', '/home/u', '--']);
    expect(at(a, '--bind', '/home/u', '/home/u')).toBe(-1);
  });

  it('isWithin', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
  });
});
