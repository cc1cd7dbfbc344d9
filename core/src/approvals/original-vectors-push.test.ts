/**
 * The original project's vectors on force pushes (option and `+refspec` forms, wrapped in `eval`,
 * `xargs`, `parallel`, `find -exec`, `ssh`, `watch`, `su -c`, `env -S` or an unknown launcher, and
 * branch names or prose that only look like them), on escaped quotes that must not hide a
 * command (#85922), and on sudoers NOPASSWD grants (#15028). Sources: the original's tests/tools/
 * files on force-push argument boundaries, on escaped quotes before the floor, and on NOPASSWD
 * sudoers rules.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { makeFixture, vectorTests, type Expectation, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

const FORCE_PUSHES = [
  'git push -f origin main',
  'git push --force origin main',
  'git push --force-with-lease origin main',
  'git push -uf origin main',
  'git push -fu origin main',
  'git -C repo push --force origin main',
  'git -C repo push -f origin main',
  'git -C repo push --force-with-lease origin main',
  'git -C repo push -uf origin main',
  'git -C repo push -fu origin main',
  'git push origin +x',
  'git -C repo push origin +refs/heads/x:refs/heads/x',
];
const PLAIN_PUSHES = [
  'git push -u origin feat/aios-f-vat-placeholder',
  'git -C repo push -u origin feat/aios-f-test',
  'git push origin feat/fix--force-placeholder',
  'git push --push-option=-f origin main',
  'git push --push-option=+x origin main',
  'git push --repo=+remote main',
];
const WRAPPERS = [
  'eval {c}',
  'eval "{c}"',
  "eval '{c}'",
  "sudo eval '{c}'",
  'xargs {c}',
  'xargs -n 1 -- {c}',
  "printf '%s' main | xargs {c}",
  'parallel -- {c}',
  'find . -exec {c} \\;',
  'custom-launcher {c}',
  'ssh host {c}',
  "ssh host '{c}'",
  "watch '{c}'",
  "su user -c '{c}'",
  "eval 'xargs {c}'",
  "xargs bash -c '{c}'",
  "parallel sh -c '{c}'",
  "xargs eval '{c}'",
  "env -S '{c}'",
  "env --split-string='{c}'",
];
const wrapped = (pushes: string[]): string[] =>
  WRAPPERS.flatMap((w) => pushes.map((c) => w.replace('{c}', c)));

const ASK: string[] = [
  ...FORCE_PUSHES,
  'git push --force-with-lease=refs/heads/main:abc origin main',
  'git push --forc origin main',
  "git push '-f' origin main",
  'git push "--force" origin main',
  "git push --fo''rce origin main",
  'git push origin main -f',
  'git status && git push -f origin main',
  `printf '%s' "$(git push -f origin main)"`,
  '/usr/bin/git push -f origin main',
  'env git push --force origin main',
  'git push${IFS}--force origin main',
  "bash -c 'git push -f origin main'",
  'git -C repo push --force-with-lease=refs/heads/main:abc origin main',
  'git -Crepo push --force origin main',
  "git -C 'repo with spaces' push -f origin main",
  'git -C parent -C child push --force-with-lease origin main',
  'git -c core.hooksPath=hooks -C repo push --force origin main',
  'git --git-dir=repo/.git --work-tree repo push --force origin main',
  'git push origin +refs/heads/x:refs/heads/x',
  "git push origin '+refs/heads/x:refs/heads/x'",
  'git push origin main +topic:topic',
  'git push -- origin +x',
  'git push origin -- +x',
  'git push --repo origin +x',
  'git push --repo=origin +x',
  'git -Crepo push -u origin +refs/heads/x:refs/heads/x',
  'git push --push-option +data origin +x',
  'git status && git -C repo push origin +x',
  `printf '%s' "$(git -C repo push origin +x)"`,
  'env /usr/bin/git -C repo push origin +x',
  ...wrapped(FORCE_PUSHES),
  // sudoers grants
  'echo "me ALL=(ALL) NOPASSWD: /usr/bin/curl" | sudo tee /etc/sudoers.d/mihomo',
  "echo 'me ALL=(ALL) NOPASSWD: ALL' | sudo tee -a /etc/sudoers",
  "echo 'me ALL=(root) NOPASSWD: /usr/bin/systemctl restart mihomo, /bin/cp' > /etc/sudoers.d/x",
  "echo 'me ALL=(root) NOPASSWD: /usr/bin/curl *' > /etc/sudoers.d/x",
  `sudo bash -c "echo 'me ALL=(ALL) NOPASSWD: /usr/bin/wget' > /etc/sudoers.d/w"`,
  "sudo tee /etc/sudoers.d/c <<'EOF'\nme ALL=(ALL) NOPASSWD: /usr/bin/curl\nEOF",
  "sudo tee /private/etc/sudoers.d/c <<'EOF'\nme ALL=(ALL) NOPASSWD:SETENV: /bin/sh\nEOF",
  "echo 'me ALL=(root) NOPASSWD: /usr/local/bin/update-mihomo.sh' | sudo tee /etc/sudoers.d/mihomo",
  "echo 'me ALL=(root) NOPASSWD: /usr/bin/systemctl restart mihomo' | sudo tee /etc/sudoers.d/mihomo",
];

const FLOOR: string[] = [
  String.raw`cat "f\"n.txt"; rm -rf --no-preserve-root /`,
  String.raw`echo "a\"b"; reboot`,
  String.raw`echo "a\"b" && rm -rf ~`,
  'echo "a\\"b"; rm${IFS}-rf${IFS}/',
  String.raw`grep -n "prefix \"quoted\" suffix" input.txt; reboot`,
  'printf \\\\\nreboot',
];

const SAFE: string[] = [
  'git push -u origin feat/aios-f-vat-placeholder',
  "git status --porcelain && git add docs/evidence/t_10bcf319/report.md && git diff --cached --check && git commit -m 'docs: 留存 AIOS F 逐條驗收與既有分支衝突證據' && git fetch origin && git rebase origin/main && git diff origin/main --stat && git diff origin/main --check && git status --porcelain && git push -u origin feat/aios-f-vat-placeholder",
  'git push -u origin feat/fix--force-placeholder',
  "git push -u origin 'feat/aios-f-vat-placeholder'",
  'git push --set-upstream origin feat/aios-f-vat-placeholder',
  "git push origin main && printf '%s' '-f'",
  "git push origin main; printf '%s' '--force'",
  "git commit -m 'describe git push -f without executing it'",
  "printf '%s' 'git push --force'",
  "git push --push-option '-f' origin main",
  'git push -oforce=false origin main',
  'git push -- origin --force',
  'git -C repo push -u origin feat/aios-f-vat-placeholder',
  'git -Crepo push --set-upstream origin feat/fix--force-placeholder',
  "git -C 'repo with spaces' push origin topic+suffix",
  'git -C push status --short',
  'git -c alias.note=push status',
  'git -C repo log --oneline origin +x',
  "printf '%s' 'git -C repo push --force origin +x'",
  "git commit -m 'describe git push origin +x without executing it'",
  'git push +remote main',
  'git push -- +remote main',
  'git push --repo +remote main',
  'git push --repo=+remote main',
  'git push --push-option +x origin main',
  'git push --push-option=+x origin main',
  'git push -o +x origin main',
  'git push -o+x origin main',
  'git push --receive-pack +x origin main',
  'git push --exec=+x origin main',
  "git push origin main && printf '%s' '+x'",
  'git push origin main # +x',
  `eval "printf '%s' 'git push --force'"`,
  "xargs printf '%s' 'git push -f'",
  "git push --push-option='git push -f' origin main",
  "git push --push-option='git push origin +x' origin main",
  ...wrapped(PLAIN_PUSHES),
  'grep -o "[^\\"]*" f',
  String.raw`grep -n "^from\|^__all__\|^    \"" tools/environments/__init__.py | head -15`,
  String.raw`egrep -n "alpha\"beta|gamma" input.txt`,
  String.raw`grep -v "^./tests/\|def \|\"\"\"" x.py | grep -v "read_only=True"`,
  'grep -n "; reboot" f.txt',
  'echo "value is ${HOME}/x"',
  'sudo grep -r NOPASSWD /etc/sudoers.d',
  "echo 'NOPASSWD: /usr/bin/curl' >> notes.txt",
];

/**
 * Vectors we still miss: kept as failing expectations (`it.fails`), so fixing one turns its test
 * red until it moves to the tables above.
 */
const GAPS: [string, Expectation][] = [];

const ALWAYS_ASKS =
  'eval and a shell given a script always ask here, whatever the script (the original asks for `bash -c` too, but not behind xargs/parallel)';

/** Where we deliberately differ from the original: [line, what we do, why]. */
const DIFFERENCES: [string, Expectation, string][] = [
  [`eval "printf '%s' 'git push --force'"`, 'ask', ALWAYS_ASKS],
  ...WRAPPERS.filter((w) => /eval|bash -c|sh -c/.test(w)).flatMap((w) =>
    PLAIN_PUSHES.map((c): [string, Expectation, string] => [w.replace('{c}', c), 'ask', ALWAYS_ASKS]),
  ),
];

describe('the original project’s force-push, quoting and sudoers vectors', () => {
  vectorTests(() => fx.at(), {
    tables: [
      ['asks', ASK, 'ask'],
      ['refuses', FLOOR, 'floor'],
      ['passes', SAFE, 'safe'],
    ],
    gaps: GAPS,
    differences: DIFFERENCES,
  });
});
