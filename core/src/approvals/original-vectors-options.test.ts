/**
 * The original project's vectors on programs run through options and flags: reading tools told to
 * run a program (`sort --compress-program`, `rg --pre`/`--hostname-bin`, `ag --pager`, `man -P`/`-H`,
 * values starting with `-` included), whose text the floor judges; interpreter and shell flags that
 * run code (`python3 -W ignore -c`, `bash -lO extglob -lc`, `bash -c` without its script) and the
 * options that only look like them; grep patterns that are data. Source: the original's
 * tests/tools/ file on execution-bearing option detection across interpreters and read-only tools.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { makeFixture, vectorTests, type Expectation, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

const ASK: string[] = [
  "rg --pre-glob '*.gz' --pre sh needle",
  'sort --output result --compress-program sh names.txt',
  'man --config-file man.conf --pager sh ls',
  'ag --ignore vendor --pager sh needle',
  "python3 -W ignore -c 'print(1)'",
  "python3.11 -c 'print(1)'",
  'node --no-warnings --eval="require(\'fs\')"',
  "node -p '1+1'",
  "perl -wne 'print' file.txt",
  "ruby3.2 -e 'puts 1'",
  "php -r 'echo 1;'",
  'powershell -ExecutionPolicy Bypass -File helper.ps1',
  "pwsh -Command 'Get-Process'",
  "python3.11 << 'PY'\nprint(1)\nPY",
  'sort --compress-program=sh names.txt',
  'rg --pre sh -e . names.txt',
  'rg --hostname-bin=sh pattern',
  'ag --pager sh foo',
  'man -Psh ls',
  'man --pager=sh ls',
  'man -H sh ls',
  'man --html=sh ls',
  'ag --pager=less needle src/',
  'rg --pre -payload-marker needle',
  'rg --hostname-bin=-payload-marker needle',
  'sort --compress-program -payload-marker names',
  'ag --pager=-payload-marker needle',
  'man --pager -payload-marker ls',
  'man -P -payload-marker ls',
  'man -H-payload-marker ls',
  "echo ready && env DEBUG=1 python3 -W ignore -c 'print(1)'",
  "python3 -c 'print(1)' ; printf 'unterminated",
  'bash -c',
  'bash -lc',
  'bash -ic',
  'bash -lic',
  'bash -cl',
  'bash -cil',
  'bash -lci',
  'bash -ilc',
  'bash -cli',
  'bash -abc',
  "bash -c 'printf safe'",
  "bash -lc 'printf safe'",
  "bash -ic 'printf safe'",
  "bash -lic 'printf safe'",
  "bash -cl 'printf safe'",
  "bash -cil 'printf safe'",
  "bash -lci 'printf safe'",
  "bash -ilc 'printf safe'",
  "bash -cli 'printf safe'",
  "bash -abc 'printf safe'",
];

const FLOOR: string[] = [
  "rg --pre '-payload; rm -rf --no-preserve-root /' needle",
  "sort --compress-program='-payload; rm -rf --no-preserve-root /' names",
  "ag --pager='-payload; rm -rf --no-preserve-root /' needle",
  "man --pager '-payload; rm -rf --no-preserve-root /' ls",
  "man -P '-payload; rm -rf --no-preserve-root /' ls",
  "man -H'-payload; rm -rf --no-preserve-root /' ls",
  "sort --compress-program='rm -rf --no-preserve-root /' names.txt",
  "rg --pre 'rm -rf --no-preserve-root /' -e . x",
  "ag --pager 'rm -rf --no-preserve-root /' foo",
  "man -P 'rm -rf --no-preserve-root /' ls",
  "grep -P '(safe|printf x)' audit.log; rm -rf --no-preserve-root /",
  "grep -P '(safe|printf x)' audit.log && reboot",
  "grep -P '(safe|printf x)' audit.log | shutdown -h now",
  "grep -P -e '(safe|printf x)' audit.log\nrm -rf --no-preserve-root /",
  "sudo -u nobody sort --compress-program='rm -rf --no-preserve-root /' names",
  'sort --compress-program="sh -c \'rm -rf --no-preserve-root /\'" names',
  'rg --pre "bash -c \'rm -rf --no-preserve-root /\'" -e . names',
  'man --pager "sh -c \'rm -rf --no-preserve-root /\'" ls',
  'grep -P "$(rm -rf --no-preserve-root /)" audit.log',
  'grep -P "`rm -rf --no-preserve-root /`" audit.log',
  'grep -P $(rm -rf --no-preserve-root /) audit.log',
  'grep -P `rm -rf --no-preserve-root /` audit.log',
  'sort --compress-program="sh -c \'rm -rf --no-preserve-root /\'" names',
  'sort --compress-program="bash -lc \'rm -rf --no-preserve-root /\'" names',
  'rg --pre="env X=1 sh -c \'rm -rf --no-preserve-root /\'" pattern files',
  "bash -O extglob -lc 'rm -rf --no-preserve-root /'",
  "bash +O extglob -lc 'rm -rf --no-preserve-root /'",
  "bash -o posix -lc 'rm -rf --no-preserve-root /'",
  "bash +o posix -lc 'rm -rf --no-preserve-root /'",
  "bash --rcfile /dev/null -lc 'rm -rf --no-preserve-root /'",
  "bash --init-file /dev/null -lc 'rm -rf --no-preserve-root /'",
  "bash -lO extglob -lc 'rm -rf --no-preserve-root /'",
  "bash +lO extglob -lc 'rm -rf --no-preserve-root /'",
  "bash -lo posix -lc 'rm -rf --no-preserve-root /'",
  "bash +lo posix -lc 'rm -rf --no-preserve-root /'",
];

/** Never refused (the text is data, or an option owns it); asking is allowed. */
const NOT_FLOOR: string[] = [
  "pip install --pre 'rm -rf --no-preserve-root /'",
  "grep -P 'rm -rf --no-preserve-root /' file.txt",
  "printf '%s' 'man -P rm -rf --no-preserve-root /'",
  "grep -P '(?:safe|rm -rf --no-preserve-root /)' audit.log",
  "grep --color=auto -n -P '(?:safe|rm -rf --no-preserve-root /)' audit.log",
  "grep -A 3 --binary-files=without-match --perl-regexp '(safe|reboot)' audit.log",
  "grep -P -e '(safe|shutdown -h now)' audit.log",
  "grep -P --regexp='(safe|rm -rf --no-preserve-root /)' audit.log",
  "grep -P -- '(safe|rm -rf --no-preserve-root /)' audit.log",
  "env LC_ALL=C grep -P '(safe|rm -rf --no-preserve-root /)' audit.log",
  'grep -P \'$(printf "rm -rf --no-preserve-root /")\' audit.log',
];

const SAFE: string[] = [
  'rg -- --pre sh',
  'sort -- --compress-program sh',
  'rg --pre-glob --pre needle',
  'sort --output --compress-program names.txt',
  'man --config-file --pager printf',
  'ag --ignore --pager needle',
  'rg -g --pre needle',
  'sort -o --compress-program names.txt',
  'man -C --pager printf',
  'ag -G --pager needle',
  'node -c script.js',
  'node --check script.js',
  'ruby -c script.rb',
  'python3 -m http.server',
  'python3 --version',
  'sort names.txt',
  'rg --pretty pattern src/',
  'pip install --pre somepackage',
  'man -k pager',
  'man -p e ls',
  'python3 -Wonce script.py',
  'ruby -rrubygems script.rb',
  'powershell -ConfigurationName Microsoft.PowerShell',
  'powershell -ExecutionPolicy RemoteSigned -NoProfile',
  'bash --norc script.sh',
  'bash --rcfile ./bashrc script.sh',
  'bash --restricted script.sh',
  'bash --noediting script.sh',
  'zsh --rcs script.zsh',
  'bash -Wc harmless.sh',
  'bash -- -c harmless.sh',
  'bash -O -c harmless.sh',
  'bash +O -c harmless.sh',
  'bash -o -c harmless.sh',
  'bash +o -c harmless.sh',
  'bash --rcfile -c harmless.sh',
  'bash --init-file -c harmless.sh',
];

/**
 * Vectors we still miss: kept as failing expectations (`it.fails`), so fixing one turns its test
 * red until it moves to the tables above.
 */
const GAPS: [string, Expectation][] = [];

/** Where we deliberately differ from the original: [line, what we do, why]. */
const DIFFERENCES: [string, Expectation, string][] = [
  [
    'bash -Wc harmless.sh',
    'ask',
    'bash rejects -W, so nothing runs; we read -Wc as a cluster ending in -c and ask rather than guess at bash’s option table',
  ],
];

describe('the original project’s option-execution vectors', () => {
  vectorTests(() => fx.at(), {
    tables: [
      ['asks', ASK, 'ask'],
      ['refuses', FLOOR, 'floor'],
      ['does not refuse', NOT_FLOOR, 'not-floor'],
      ['passes', SAFE, 'safe'],
    ],
    gaps: GAPS,
    differences: DIFFERENCES,
  });
});
