import { describe, expect, it } from 'vitest';
import { classifySandboxFailure } from './classify.js';

const hidden = ['/home/u/.hermes', '/home/u/.ssh'];
const c = (output: string, networkOff = false) => classifySandboxFailure({ output, hidden, networkOff });

describe('classifySandboxFailure', () => {
  it('names a write refused by the read-only file system (shell, node, python)', () => {
    expect(c("rm: cannot remove '/home/u/x/f': Read-only file system")).toMatch(
      /^\/home\/u\/x\/f is outside the workspace/,
    );
    expect(c("Error: EROFS: read-only file system, open '/etc/zz'")).toMatch(/^\/etc\/zz is outside/);
    expect(c("OSError: [Errno 30] Read-only file system: '/home/u/x'")).toMatch(/^\/home\/u\/x is outside/);
  });

  it('names a hidden path that could not be read or was not found, also through a glob', () => {
    expect(c('cat: /home/u/.ssh/id_rsa: Permission denied')).toMatch(/^\/home\/u\/\.ssh\/id_rsa is hidden/);
    expect(c('cat: /home/u/.hermes/.env: No such file or directory')).toMatch(/is hidden/);
    expect(c("cat: '/home/u/.her*/profiles/oth*/.e*': No such file or directory")).toMatch(/is hidden/);
  });

  it('says nothing for ordinary failures', () => {
    expect(c('cat: /home/u/missing: No such file or directory')).toBeUndefined();
    expect(c('make: *** [Makefile:2: test] Error 1')).toBeUndefined();
    expect(c('curl: (7) Failed to connect to 127.0.0.1 port 1: Connection refused')).toBeUndefined();
  });

  it('after a run that exited 0, counts only error lines of a program', () => {
    const ok = (output: string) =>
      classifySandboxFailure({ output, hidden, networkOff: true, succeeded: true });
    expect(ok("unlink: cannot unlink '/home/u/x/f': Read-only file system")).toMatch(
      /is outside the workspace/,
    );
    expect(
      ok("src/a.ts:  if (e.code === 'EROFS') throw new Error('read-only file system, open');"),
    ).toBeUndefined();
    expect(ok('notes: the disk was a Read-only file system then')).toBeUndefined();
    expect(ok('curl: (7) Failed to connect: Connection refused')).toBeUndefined();
  });

  it('blames the network only when it is off', () => {
    expect(c('curl: (7) Failed to connect to 127.0.0.1 port 1: Connection refused', true)).toMatch(
      /network is off/,
    );
    expect(c('TypeError: fetch failed', true)).toMatch(/network is off/);
  });

  it('names a sandbox mount point that cannot be replaced', () => {
    expect(
      c(
        "mv: inter-device move failed: '/home/u/x/f' to '/dev/null'; unable to remove target: Device or resource busy",
      ),
    ).toMatch(/^\/dev\/null is a mount point/);
  });
});
