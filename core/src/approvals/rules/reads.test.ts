/**
 * Reading is not writing: a source file read by `cat`/`cp` is not a changed target, Hermes's plain
 * files (config.yaml, SOUL.md, memory) may be read, a raw disk read by `dd if=` asks — in the rules
 * and in the fallback table used when a line cannot be parsed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectDangerousCommand } from '../dangerous-patterns.js';
import { keysOf, makeFixture, type Fixture } from './testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
  writeFileSync(join(fx.home, '.ssh', 'config'), 'Host x\n');
  writeFileSync(join(fx.root, 'SOUL.md'), 'me');
  writeFileSync(join(fx.root, '.env'), 'K=v');
});
afterAll(() => fx.remove());

describe('the rules', () => {
  const asked: Array<[string, string]> = [
    ['dd if=/dev/sda', 'raw-disk-read'],
    ['dd if=/dev/sda of=/tmp/disk.img', 'raw-disk-read'],
    ['dd if=/dev/nvme0n1 bs=512 count=1 | xxd', 'raw-disk-read'],
    ['sudo dd if=/dev/vda | gzip > vda.gz', 'raw-disk-read'],
    ['cat /dev/sdb1 > part.img', 'raw-disk-read'],
    ['cp /tmp/x ~/.ssh/config', 'credential-files'],
    ['cp /tmp/k ~/.ssh/authorized_keys', 'credential-files'],
    ['echo "Host y" >> ~/.ssh/config', 'credential-files'],
    ['mv ~/.ssh/config /tmp/x', 'credential-files'],
    ['cp ~/.ssh/config ~/.ssh/config.bak', 'credential-files'],
    ['cat ~/.hermes/.env', 'hermes-home'],
    ['cp ~/.hermes/.env /tmp/e', 'hermes-home'],
    ['cat ~/.hermes/config.yaml ~/.hermes/.env', 'hermes-home'],
    ['cp /tmp/c.yaml ~/.hermes/config.yaml', 'hermes-home'],
    ['cat /tmp/x > ~/.hermes/config.yaml', 'hermes-home'],
    ['sed -i s/a/b/ ~/.hermes/config.yaml', 'hermes-home'],
    ['tee ~/.hermes/SOUL.md < /tmp/x', 'hermes-home'],
  ];
  it.each(asked)('asks for %j (%s)', async (line, key) => {
    expect((await keysOf(line, fx.at())).hits).toContain(key);
  });
  const notAsked = [
    'cat ~/.hermes/config.yaml',
    'less ~/.hermes/config.yaml',
    'grep model ~/.hermes/config.yaml',
    'head -n 20 ~/.hermes/SOUL.md',
    'cp ~/.hermes/config.yaml /tmp/c.yaml',
    'cp ~/.ssh/config /tmp/x',
    'cat ~/.ssh/config',
    'cp ~/.bashrc /tmp/bashrc.copy',
    'dd if=/dev/zero of=file.img bs=1M count=1',
    'dd if=disk.img of=copy.img',
  ];
  it.each(notAsked)('does not ask for %j', async (line) => {
    expect(await keysOf(line, fx.at())).toEqual({ floor: [], hits: [] });
  });
});

describe('the fallback table (unparsable lines)', () => {
  const keys = (line: string): string[] =>
    detectDangerousCommand(line, { hermesRoot: fx.root, userHome: fx.home }).map((m) => m.key);
  const flagged: Array<[string, string]> = [
    ['dd if=/dev/sda', 'raw-disk-read'],
    ['dd bs=4M if=/dev/nvme0n1 status=progress', 'raw-disk-read'],
    ['cat /dev/sda > x', 'raw-disk-read'],
    ['gzip -c < /dev/sda > sda.gz', 'raw-disk-read'],
    ['cp /tmp/x ~/.ssh/config', 'credential-files'],
    ['cp /tmp/x ~/.ssh/config', 'write-credentials'],
    ['cp /tmp/k "$HOME/.ssh/authorized_keys"', 'credential-files'],
    ['mv ~/.ssh/config /tmp/x', 'credential-files'],
    ['rsync /tmp/k ~/.ssh/authorized_keys', 'credential-files'],
    ['cp /tmp/c ~/.hermes/config.yaml', 'write-hermes-config'],
  ];
  it.each(flagged)('flags %j (%s)', (line, key) => expect(keys(line)).toContain(key));
  const notFlagged: Array<[string, string]> = [
    ['cp ~/.ssh/config /tmp/x', 'credential-files'],
    ['cp ~/.ssh/config /tmp/x', 'write-credentials'],
    ['cp ~/.bashrc /tmp/b; ls', 'credential-files'],
    ['rsync ~/.ssh/config host:/tmp/x', 'credential-files'],
    ['cp ~/.hermes/config.yaml /tmp/c', 'write-hermes-config'],
    ['dd if=/dev/zero of=file.img', 'raw-disk-read'],
    ['cat /dev/null', 'raw-disk-read'],
  ];
  it.each(notFlagged)('does not flag %j as %s', (line, key) => expect(keys(line)).not.toContain(key));
});
