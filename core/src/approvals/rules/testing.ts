/**
 * Test fixture of the rule and detection tests (rules/*.test.ts, detect.test.ts,
 * guard-floor.test.ts): a temporary home folder (with `.ssh/`, `Documents/` and a Hermes root
 * `.hermes/`) and a project folder (a git repository on branch `feature`, with `build/`, `src/`
 * and a few files), and the keys a line is flagged with there. Kept out of core's build
 * (core/tsconfig.json excludes `testing.ts`).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { detectCommand, type DetectContext } from '../detect.js';

/** The folders of one fixture. */
export interface Fixture {
  base: string;
  home: string;
  root: string;
  proj: string;
  /** The context of a line run in `cwd` (default the project). */
  at(cwd?: string): DetectContext;
  remove(): void;
}

/** Creates the fixture's folders and files. */
export function makeFixture(): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'hermes-detect-')));
  const home = join(base, 'home');
  const root = join(home, '.hermes');
  const proj = join(base, 'proj');
  for (const d of [
    join(home, '.ssh'),
    join(home, 'Documents'),
    root,
    join(proj, 'build'),
    join(proj, 'src'),
    join(proj, '.git'),
  ])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'key');
  writeFileSync(join(home, '.bashrc'), '');
  writeFileSync(join(root, 'config.yaml'), '');
  writeFileSync(join(proj, 'file.txt'), 'x');
  writeFileSync(join(proj, 'src', 'app.ts'), 'x');
  writeFileSync(join(proj, '.git', 'HEAD'), 'ref: refs/heads/feature\n');
  return {
    base,
    home,
    root,
    proj,
    at: (cwd = proj) => ({ cwd, userHome: home, hermesRoot: root, env: {} }),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** The keys a line is flagged with: floor and asked, in that order. */
export async function keysOf(line: string, ctx: DetectContext): Promise<{ floor: string[]; hits: string[] }> {
  const d = await detectCommand(line, ctx);
  return { floor: d.floor.map((h) => h.key), hits: d.hits.map((h) => h.key) };
}

/** The floor table: [command, floor key] (rules/floor.test.ts, guard-floor.test.ts). */
export const FLOOR: [string, string][] = [
  ['rm -rf /', 'delete-root-path'],
  ['rm -rf ~', 'delete-root-path'],
  ['rm -rf ~/', 'delete-root-path'],
  ['rm -rf ~/*', 'delete-root-path'],
  ['rm -rf ~/.*', 'delete-root-path'],
  ['rm -rf /*', 'delete-root-path'],
  ['rm -rf --no-preserve-root /', 'delete-root-path'],
  ['rm -fr /etc', 'delete-root-path'],
  ['rm -r -f /usr', 'delete-root-path'],
  ['sudo rm -rf /var', 'delete-root-path'],
  ['rm -rf /home', 'delete-root-path'],
  ['rm -rf /u*', 'delete-root-path'],
  ['rm -rf "$HOME"', 'delete-root-path'],
  ['rm -rf ${HOME}/', 'delete-root-path'],
  ['rm -rf /usr/bin/..', 'delete-root-path'],
  ['rm -rf //', 'delete-root-path'],
  ["'rm' -rf '/'", 'delete-root-path'],
  ['r\\m -rf /', 'delete-root-path'],
  ['rm${IFS}-rf${IFS}/', 'delete-root-path'],
  ['X=/; rm -rf $X', 'delete-root-path'],
  ['X=$HOME; rm -rf $X', 'delete-root-path'],
  ['rm -rf "${HOME%/}"', 'delete-root-path'],
  ["printf '/\\0' | xargs -0 rm -rf", 'delete-root-path'],
  ["printf '/\\n' | xargs rm -rf", 'delete-root-path'],
  ['rm -rf "${HOME%/*}/${HOME##*/}"', 'delete-root-path'],
  ['D="$HOME"; T=$D; rm -rf "$T"', 'delete-root-path'],
  ['cd / && rm -rf *', 'delete-root-path'],
  ['cd ~ && rm -rf ./*', 'delete-root-path'],
  ['cd /usr/bin && rm -rf ..', 'delete-root-path'],
  ['find / -delete', 'delete-root-path'],
  ['find ~ -delete', 'delete-root-path'],
  ['find /etc -depth -delete', 'delete-root-path'],
  ['find / -exec rm -rf {} +', 'delete-root-path'],
  ['find /var -type f -exec rm {} \\;', 'delete-root-path'],
  ['npx rimraf ~', 'delete-root-path'],
  ['rsync -a --delete empty/ /etc/', 'delete-root-path'],
  ['rm -rf /{etc,usr}', 'delete-root-path'],
  ['find / -print0 | xargs -0 rm -rf', 'delete-root-path'],
  ['echo ~ | xargs rm -rf', 'delete-root-path'],
  ['mkfs.ext4 /dev/sdb1', 'mkfs'],
  ['sudo mkfs -t vfat /dev/sdc', 'mkfs'],
  ['mkswap /dev/sda2', 'mkfs'],
  ['mke2fs /dev/nvme0n1p1', 'mkfs'],
  ['mkfs.ext4 $DEV', 'mkfs'],
  ['dd if=/dev/zero of=/dev/sda bs=1M', 'dd-to-device'],
  ['dd if=img.iso of=/dev/disk2', 'dd-to-device'],
  ['sudo dd of=/dev/nvme0n1 if=x', 'dd-to-device'],
  ['xzcat os.img.xz | sudo dd of=/dev/mmcblk0 bs=4M', 'dd-to-device'],
  ['cat image.iso > /dev/sdb', 'write-block-device'],
  ['echo x > /dev/nvme0n1', 'write-block-device'],
  ['tee /dev/sda < x', 'write-block-device'],
  ['cp disk.img /dev/sda', 'write-block-device'],
  ['curl -o /dev/sda https://x.io/img', 'write-block-device'],
  ['pv img > /dev/sdc', 'write-block-device'],
  ['ddrescue disk.img /dev/sdb', 'write-block-device'],
  ['wipefs -a /dev/sda', 'wipe-device'],
  ['shred -n 3 /dev/sda', 'wipe-device'],
  ['blkdiscard /dev/nvme0n1', 'wipe-device'],
  ['sgdisk --zap-all /dev/sda', 'wipe-device'],
  ['cryptsetup luksFormat /dev/sdb', 'wipe-device'],
  ['diskutil eraseDisk JHFS+ X disk2', 'wipe-device'],
  [':(){ :|:& };:', 'fork-bomb'],
  ['f(){ f|f& };f', 'fork-bomb'],
  ['bomb() { bomb | bomb & }; bomb', 'fork-bomb'],
  ['kill -9 -1', 'kill-all-processes'],
  ['kill -1', 'kill-all-processes'],
  ['kill -KILL -1', 'kill-all-processes'],
  ['kill -s KILL -1', 'kill-all-processes'],
  ['kill -- -1', 'kill-all-processes'],
  ['killall5 -9', 'kill-all-processes'],
  ['pkill -9 -u $USER', 'kill-all-processes'],
  ['killall -u bob', 'kill-all-processes'],
  ['loginctl terminate-user bob', 'kill-all-processes'],
  ['loginctl kill-user -s KILL bob', 'kill-all-processes'],
  ['pkill .', 'kill-all-processes'],
  ['kill -9 $(pgrep -f .)', 'kill-all-processes'],
  ['sudo shutdown -h now', 'shutdown-reboot'],
  ['reboot', 'shutdown-reboot'],
  ['halt', 'shutdown-reboot'],
  ['poweroff', 'shutdown-reboot'],
  ['systemctl poweroff', 'shutdown-reboot'],
  ['systemctl reboot', 'shutdown-reboot'],
  ['loginctl poweroff', 'shutdown-reboot'],
  ['loginctl reboot', 'shutdown-reboot'],
  ['sudo systemctl --force halt', 'shutdown-reboot'],
  ['systemctl kexec', 'shutdown-reboot'],
  ['systemctl isolate rescue.target', 'shutdown-reboot'],
  ['systemctl start reboot.target', 'shutdown-reboot'],
  [
    'gdbus call --system --dest org.freedesktop.login1 --object-path /org/freedesktop/login1 --method org.freedesktop.login1.Manager.PowerOff true',
    'shutdown-reboot',
  ],
  ['init 0', 'shutdown-reboot'],
  ['init 6', 'shutdown-reboot'],
  ['sudo telinit 6', 'shutdown-reboot'],
  ['echo b > /proc/sysrq-trigger', 'shutdown-reboot'],
  ['\u001b[31mreboot\u001b[0m', 'shutdown-reboot'],
  ['ＲＥＢＯＯＴ', 'shutdown-reboot'],
  // scripts built as text and run (rules/hidden.ts)
  ['echo cm0gLXJmIC8K | base64 -d | sh', 'delete-root-path'],
  ['base64 -d <<< cmVib290 | sh', 'shutdown-reboot'],
  ["printf 'rm\\x20-rf /' | bash", 'delete-root-path'],
  ['eval "$(echo rm -rf /)"', 'delete-root-path'],
  ['$(printf reboot)', 'shutdown-reboot'],
  ['X=reboot; $X', 'shutdown-reboot'],
  ['python3 -c "import os; os.system(\'reboot\')"', 'shutdown-reboot'],
  ['perl -e \'system "rm -rf /"\'', 'delete-root-path'],
  ['python3 -c \'import subprocess; subprocess.run(["rm", "-rf", "/"])\'', 'delete-root-path'],
  ['node -e \'require("child_process").execSync("rm -rf ~")\'', 'delete-root-path'],
  ["ruby -e '`kill -9 -1`'", 'kill-all-processes'],
  ['python3 - <<EOF\nimport os\nos.system("shutdown -h now")\nEOF', 'shutdown-reboot'],
  ["echo 'reboot' > x.sh; sh x.sh", 'shutdown-reboot'],
  ['printf "rm -rf ~" > /tmp/a; . /tmp/a', 'delete-root-path'],
  ['a=r;b=m;$a$b -rf /', 'delete-root-path'],
  ['rm -rf "$(echo /)"', 'delete-root-path'],
  ['rm -rf `printf ~`', 'delete-root-path'],
  ['rm -rf ${X:-/}', 'delete-root-path'],
  ['mv /etc /tmp/etc', 'delete-root-path'],
  ['mv ~ /tmp/oldhome', 'delete-root-path'],
  ['mv ~ /dev/null', 'delete-root-path'],
  ['python3 -c "import shutil; shutil.rmtree(\'/\')"', 'delete-root-path'],
  ['python3 -c "import shutil, os; shutil.rmtree(os.path.expanduser(\'~\'))"', 'delete-root-path'],
  ['ruby -e \'require "fileutils"; FileUtils.rm_rf("/etc")\'', 'delete-root-path'],
  ['node -e \'require("fs").rmSync("/usr", { recursive: true })\'', 'delete-root-path'],
  ["perl -e 'fork while fork'", 'fork-bomb'],
  ["python3 -c 'import os\nwhile True: os.fork()'", 'fork-bomb'],
  ["python3 -c 'import os; os.kill(-1, 9)'", 'kill-all-processes'],
  ['node -e \'process.kill(-1, "SIGKILL")\'', 'kill-all-processes'],
  ["ruby -e 'Process.kill(9, -1)'", 'kill-all-processes'],
  ["perl -e 'kill 9, -1'", 'kill-all-processes'],
  ["echo 'mkfs.ext4 /dev/sda' | tee x.sh; bash x.sh", 'mkfs'],
];

/**
 * What a test table expects of a line: `ask` (at least one hit, floor or asked), `safe` (no hit),
 * `floor` (at least one floor hit), `not-floor` (no floor hit; asking is allowed).
 */
export type Expectation = 'ask' | 'safe' | 'floor' | 'not-floor';

/**
 * Checks one line against an expectation and that every hit carries a description; the message
 * names the line and what it got. Resolves when the expectation holds, rejects otherwise.
 */
export async function expectVerdict(line: string, want: Expectation, ctx: DetectContext): Promise<void> {
  const d = await detectCommand(line, ctx);
  const all = [...d.floor, ...d.hits];
  const got = `${JSON.stringify(line)} → floor [${d.floor.map((h) => h.key).join(', ')}], asked [${d.hits
    .map((h) => h.key)
    .join(', ')}]`;
  const ok =
    want === 'ask'
      ? all.length > 0
      : want === 'safe'
        ? all.length === 0
        : want === 'floor'
          ? d.floor.length > 0
          : d.floor.length === 0;
  if (!ok) throw new Error(`expected ${want}: ${got}`);
  const blank = all.find((h) => !h.description.trim());
  if (blank) throw new Error(`hit ${blank.key} of ${JSON.stringify(line)} has no description`);
}

/** One table of a vector file: its test title, its lines, what each gets, and how a line is placed. */
export type VectorTable = [
  title: string,
  lines: readonly string[],
  want: Expectation,
  at?: (line: string) => string,
];

/** The tables of a vector file ported from another project, with what it still misses and where it differs. */
export interface VectorFile {
  tables: readonly VectorTable[];
  /** Lines still missed: `it.fails`, so fixing one turns its test red until it moves to a table. */
  gaps: ReadonlyArray<[string, Expectation]>;
  /** Where we differ on purpose: [line, what we do, why]. */
  differences: ReadonlyArray<[string, Expectation, string]>;
  /** Places a line of `differences` and `gaps` (e.g. a placeholder for the home folder). */
  at?: (line: string) => string;
}

/**
 * Registers a vector file's tests in the current `describe`: each table's lines with their
 * expectation (a line listed in `gaps` or `differences` is tested there instead), each gap as an
 * expected failure, each difference with its reason in the title.
 * @param ctx the detection context of each test (called inside the test).
 */
export function vectorTests(ctx: () => DetectContext, v: VectorFile): void {
  const listed = new Set([...v.gaps.map(([l]) => l), ...v.differences.map(([l]) => l)]);
  const place = v.at ?? ((line: string) => line);
  for (const [line, want] of v.gaps)
    it.fails(`still misses: ${JSON.stringify(line)} → ${want}`, () =>
      expectVerdict(place(line), want, ctx()),
    );
  for (const [title, lines, want, at = place] of v.tables) {
    const kept = lines.filter((l) => !listed.has(l));
    if (kept.length) it.each(kept)(`${title}: %j`, (line) => expectVerdict(at(line), want, ctx()));
  }
  if (v.differences.length)
    it.each(v.differences)('differs on purpose: %j → %s (%s)', (line, want) =>
      expectVerdict(place(line), want, ctx()),
    );
}
