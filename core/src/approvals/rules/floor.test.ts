/**
 * The floor table: catastrophic commands refused in every mode, found however they are written
 * and wherever they are nested — and the near misses the floor must leave to the asked classes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOOR_KEYS } from './index.js';
import { FLOOR, keysOf, makeFixture, type Fixture } from './testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/** Ways of nesting a command: each must still be found. */
const NESTINGS: [string, (c: string) => string][] = [
  ['$( )', (c) => `echo $(${c})`],
  ['backticks', (c) => `echo \`${c}\``],
  ['( )', (c) => `(${c})`],
  ['{ ; }', (c) => `{ ${c}; }`],
  ['bash -c', (c) => `bash -c '${c}'`],
  ['sh -c', (c) => `sh -c "${c}"`],
  ['xargs', (c) => `echo | xargs ${c}`],
  ['env', (c) => `env -i PATH=/bin ${c}`],
  ['sudo', (c) => `sudo -u root ${c}`],
  ['timeout', (c) => `timeout 5 ${c}`],
  ['nohup &', (c) => `nohup ${c} &`],
  ['eval', (c) => `eval '${c}'`],
  ['stdin script', (c) => `echo '${c}' | sh`],
  ['here-string', (c) => `bash <<< '${c}'`],
  ['function', (c) => `g() { ${c}; }; g`],
  ['if', (c) => `if true; then ${c}; fi`],
  ['&&', (c) => `ls && ${c}`],
  ['su -c', (c) => `su -c '${c}'`],
  ['npx -c', (c) => `npx -c '${c}'`],
];

/** Floor commands written without quotes of their own, for the nesting table. */
const NESTED: [string, string][] = [
  ['rm -rf /', 'delete-root-path'],
  ['rm -rf ~/*', 'delete-root-path'],
  ['find / -delete', 'delete-root-path'],
  ['mkfs.ext4 /dev/sdb1', 'mkfs'],
  ['dd if=/dev/zero of=/dev/sda', 'dd-to-device'],
  ['wipefs -a /dev/sda', 'wipe-device'],
  ['kill -9 -1', 'kill-all-processes'],
  ['reboot', 'shutdown-reboot'],
  ['systemctl poweroff', 'shutdown-reboot'],
];

/** Near misses: asked (or nothing), never refused. */
const NOT_FLOOR = [
  'rm -rf build',
  'rm -rf ~/Documents',
  'rm -rf /tmp/x',
  'rm -rf ~/*.log',
  "rm -rf '/*'",
  'rm ~/*',
  'cd build && rm -rf *',
  '(cd / && ls); rm -rf build',
  'bash -c "cd /" && rm -rf build',
  'X=$(mktemp -d); rm -rf $X/*',
  'X=$HOME/build; rm -rf $X',
  'X=$UNKNOWN; rm -rf $X/',
  'read X; rm -rf $X/',
  "printf 'build\\n' | xargs rm -rf",
  "python3 -c 'import os; os.kill(1234, 9)'",
  "perl -e 'kill 0, $pid'",
  'rm -rf "${HOME%[u]}"/build',
  'rm -rf "${PWD%%/src}"/build',
  'for f in *; do rm -rf "$f"/; done',
  'rm -rf "$UNKNOWN_DIR"/',
  'rm -rf "$1"/',
  'find / -name "*.pyc" -delete',
  'find ~ -name "*.tmp" -exec rm {} +',
  'mkfs.ext4 disk.img',
  'dd if=/dev/sda of=disk.img',
  'dd if=/dev/zero of=file.img bs=1M count=10',
  'fdisk -l /dev/sda',
  'wipefs -n /dev/sda',
  'shred -u notes.txt',
  'f() { f; }; f',
  'kill -1 1234',
  'pkill -u bob node',
  'kill $(pgrep -x vim)',
  'ls / | xargs echo',
  'kill 1',
  'shutdown -c',
  'systemctl suspend',
  'systemctl restart nginx',
  'telinit q',
  'echo reboot',
  'git commit -m "rm -rf / and reboot"',
  'python3 -c "print(\'rm -rf /\')"',
  'python3 -c "import shutil; shutil.rmtree(\'build\')"',
  'python3 -c "import shutil; shutil.rmtree(\'~\')"',
  "python3 -c 'import os; os.fork()'",
  'rm -rf "${BUILD:-build}"',
  'rm -rf "$(pwd)/build"',
  'mv build dist',
  'echo cm0gLXJmIC8K | base64 -d',
  "echo 'reboot' > notes.txt",
];

describe('the floor', () => {
  it.each(FLOOR)('refuses %j (%s)', async (line, key) => {
    expect((await keysOf(line, fx.at())).floor).toContain(key);
    expect(FLOOR_KEYS.has(key)).toBe(true);
  });

  const cases = NESTINGS.flatMap(([how, wrap]) => NESTED.map(([c, key]) => [how, wrap(c), key] as const));
  it.each(cases)('finds it nested in %s: %j', async (_how, line, key) => {
    expect((await keysOf(line, fx.at())).floor).toContain(key);
  });

  it('finds it in a line of several commands, and in a function called later', async () => {
    expect((await keysOf('npm test; git status\nrm -rf ~', fx.at())).floor).toEqual(['delete-root-path']);
    expect((await keysOf('cleanup() { rm -rf /; }', fx.at())).floor).toEqual(['delete-root-path']);
  });

  it('judges relative paths in the folder the command runs in (the home folder as cwd)', async () => {
    expect((await keysOf('rm -rf *', fx.at(fx.home))).floor).toEqual(['delete-root-path']);
    expect((await keysOf('rm -rf .', fx.at(fx.home))).floor).toEqual(['delete-root-path']);
    expect((await keysOf('rm -rf *', fx.at(fx.proj))).floor).toEqual([]);
  });

  it.each(NOT_FLOOR)('does not refuse %j', async (line) => {
    expect((await keysOf(line, fx.at())).floor).toEqual([]);
  });
});
