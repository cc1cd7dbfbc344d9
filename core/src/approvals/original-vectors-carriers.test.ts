/**
 * The original project's vectors for commands carried by another program (`sh -c`, `su -c`,
 * `runuser`, `env -S`, `sudo`/`nice`/`timeout` …) and for comments and substitutions around them:
 * a carried catastrophic command is refused (our floor, the original's "hardline"), carried data
 * is not. Sources: the original's tests/tools/test_approval_carriers.py,
 * test_approval_comment_boundaries.py and test_approval_grep_in_substitution.py.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectVerdict, makeFixture, type Expectation, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/** Carried catastrophic commands: refused. */
const CARRIED_FLOOR: string[] = [
  'sudo -u sh su -c reboot',
  "sh -c 'reboot'",
  "bash -c 'reboot'",
  "dash -c 'reboot'",
  "zsh -c 'reboot'",
  "ksh -c 'reboot'",
  "sh -c 'systemctl poweroff'",
  "bash -c 'shutdown -h now'",
  "sh -c 'rm -rf /'",
  "bash -c 'rm -rf ~'",
  "su -c 'reboot'",
  "runuser -c 'reboot'",
  "su root -c 'reboot'",
  "su --command 'reboot' root",
  "su --command='reboot' root",
  "su --session-command 'reboot' root",
  "su --session-command='reboot' root",
  "runuser --command 'reboot' root",
  "runuser --command='reboot' root",
  "runuser --session-command 'reboot' root",
  "runuser --session-command='reboot' root",
  "su --command=re'boot' root",
  "runuser --session-command re'boot' root",
  "su --command 'echo safe' --command reboot root",
  "runuser --session-command 'echo safe' --session-command reboot root",
  "su -c 'echo safe' --command reboot root",
  "runuser --command 'echo safe' -c reboot root",
  'su -c reboot -w --command root',
  'runuser -c reboot --whitelist-environment --command root',
  'su -c reboot -g --command root',
  'runuser -c reboot --shell --command root',
  "su -c reboot root # --command 'echo safe'",
  "runuser -c reboot root # --session-command 'echo safe'",
  'su -c reboot root\nprintf safe',
  "runuser -c reboot root\nrunuser --command 'echo safe' root",
  'su --comm reboot root',
  'runuser --sess reboot root',
  'env --split-string="reboot"',
  "env --split-string='rm -rf /'",
  'env --split-string reboot',
  "env --s='sh -c reboot'",
  "env --split 'sh -c reboot'",
  "env --split-strin='sh -c reboot'",
  "env --s''='sh -c reboot'",
  "env --sp''lit='sh -c reboot'",
  "env --s$''='sh -c reboot'",
  "env --$'split'='sh -c reboot'",
  String.raw`env --$'\x73'='sh -c reboot'`,
  String.raw`env --s$'\0'='sh -c reboot'`,
  String.raw`env --s$'\c@'='sh -c reboot'`,
  String.raw`su --command re$'\0'boot root`,
  String.raw`env --s=sh\ -c\ reboot`,
  String.raw`env -S "sh\_-c\_reboot"`,
  String.raw`env --s="sh\_-c\_reboot"`,
  'env --u sh -- sh -c reboot',
  'env --c /tmp -- sh -c reboot',
  'env --a sh -- sh -c reboot',
  'env --u FOO --s reboot',
  'env --c /tmp --s reboot',
  'env --a custom --s reboot',
  'env --b --s reboot',
  'env -Sreboot',
  "/bin/sh -c 'reboot'",
  "sudo sh -c 'reboot'",
  "env FOO=1 sh -c 'reboot'",
  "env FOO=1 BAR=2 bash -c 'rm -rf /'",
  'env A-B=1 sh -c reboot',
  "env -S 'A-B=1 sh -c reboot'",
  "sh -c 'sh -c reboot'",
  "ls; sh -c 'reboot'",
  "sh -ec 'reboot'",
  "bash -ec 'reboot'",
  "dash -ec 'reboot'",
  "sh -xc 'rm -rf /'",
  "bash -exc 'rm -rf /'",
  "sh -lc 'reboot'",
  "sh -cx 'reboot'",
  "sh -ce 'reboot'",
  "bash -cx 'reboot'",
  "bash -ce 'reboot'",
  "sh -c -x 'reboot'",
  "bash -c -e 'rm -rf /'",
  "sh -ce -- 'reboot'",
  "bash -c -o nounset 'reboot'",
  "su -lc 'reboot'",
  "env -iS 'reboot'",
  "env -viS 'reboot'",
  "env -iS 'rm -rf /'",
  'env -iSreboot',
  'env -viS/bin/sh -c reboot',
  "env -vS/bin/sh -c 'rm -rf /'",
  String.raw`env -S '/bin/sh\_-c\_reboot'`,
  "env -S '-i sh -c reboot'",
  'env -iC /tmp sh -c reboot',
  "env -a custom -S 'sh -c reboot'",
  "env --argv0 custom -S 'sh -c reboot'",
  "env -i sh -c 'reboot'",
  "env --ignore-environment sh -c 'reboot'",
  "env -u FOO sh -c 'reboot'",
  "env --unset=FOO sh -c 'reboot'",
  "sudo -u root sh -c 'reboot'",
  "sudo --user root sh -c 'reboot'",
  "sudo -E sh -c 'reboot'",
  "sudo -n sh -c 'reboot'",
  "sudo -u root -E sh -c 'reboot'",
  "sudo -u root sh -c 'rm -rf /'",
  "nice sh -c 'reboot'",
  "nice -n 10 sh -c 'reboot'",
  "ionice sh -c 'reboot'",
  "stdbuf -oL sh -c 'reboot'",
  "timeout 5 sh -c 'reboot'",
  "timeout -s KILL 5 sh -c 'reboot'",
  "timeout 1.5s sh -c 'reboot'",
  "timeout 5 bash -ec 'reboot'",
  "doas sh -c 'reboot'",
  "doas -u root sh -c 'reboot'",
  "sudo -u root env -i sh -c 'reboot'",
  "env -i sudo sh -c 'reboot'",
  "/usr/bin/env -i /bin/sh -c 'reboot'",
  "/bin/sudo -u root sh -c 'reboot'",
  "ionice -c 2 sh -c 'reboot'",
  "ionice -c best-effort sh -c 'reboot'",
  "stdbuf -o L sh -c 'reboot'",
];

/** Carried data, or options that end the carrier: never refused (asking is allowed). */
const CARRIED_DATA: string[] = [
  "env -S 'sh -c echo'",
  "sh -c 'echo reboot'",
  "bash -c 'git commit -m reboot'",
  "sh -c 'systemctl status nginx'",
  "sh -c 'grep -r reboot /etc'",
  "bash -c 'ls -la'",
  "env --split-string='echo reboot'",
  "env --s='/bin/echo reboot'",
  "env --split '/bin/echo reboot'",
  'env --n --s reboot',
  'env --nu --s reboot',
  'env --nul --s reboot',
  'env FOO=1 --s reboot',
  'env FOO=1 --debug sh -c reboot',
  `env --s='$(printf "reboot")' `,
  "env --s=A=1 '$(printf sh)' -c reboot",
  String.raw`env --unset=$'\U00110000' printf OK`,
  "su --command 'echo reboot' root",
  "su --session-command='printf reboot' root",
  "runuser --command 'echo reboot' root",
  "runuser --session-command='printf reboot' root",
  "su --command reboot --command 'echo safe' root",
  "runuser --session-command reboot -c 'echo safe' root",
  'su -- root --command reboot',
  'runuser -- root --session-command reboot',
  "su --command 'echo safe' --command",
  "runuser --session-command 'echo safe' -c",
  'su -wFOO,creboot root',
  'runuser --whitelist-environment=FOO,creboot root',
  'su -s/bin/sh root',
  'runuser -u root --command reboot',
  'su -m -w FOO --command reboot root',
  'su --preserve-environment --whitelist-environment FOO --command reboot root',
  'runuser -p -w FOO --session-command reboot root',
  'gcc -c main.c',
  'grep -c reboot access.log',
  'env EDITOR=vim git commit',
  'find . -name reboot.service',
  "sh -ec 'echo reboot'",
  "sh -cx 'echo reboot'",
  'sh -- -c reboot',
  'sh /dev/null -c reboot',
  "bash -lc 'ls -la'",
  "env -iS 'echo reboot'",
  'env -Svi reboot',
  'env -uS /bin/echo reboot',
  'env -S/bin/echo reboot',
  String.raw`env -S '/bin/echo\_reboot'`,
  'env -- /bin/echo -iS reboot',
  'env /bin/echo -viS reboot',
  'env -0S reboot',
  'sudo -u root ls',
  'sudo -u root sh',
  'timeout 5 curl https://example.com',
  'nice -n 10 make -j4',
  'env -i printenv',
  'env -u FOO make',
  'stdbuf -oL grep reboot app.log',
  'sudo -E git push',
  'doas -u root ls',
  "timeout 5 sh -c 'echo reboot'",
  "sudo -u root sh -c 'echo reboot'",
  'sudo -E echo sh -c reboot',
  'sudo -n echo sh -c reboot',
  'timeout --foreground echo sh -c reboot',
  'timeout --preserve-status echo sh -c reboot',
  'sudo -H echo sh -c reboot',
  'env -v echo sh -c reboot',
  'stdbuf -oL echo sh -c reboot',
  'nice -n echo sh -c reboot',
  'env -- echo --split-string reboot',
  'env echo --split-string reboot',
  'env -i echo --split-string reboot',
  'env FOO=1 echo --split-string reboot',
];

/** A command after something that only looks like a comment start: refused. */
const COMMENT_LOOKALIKES: string[] = [
  'printf SAFE\r#x; reboot',
  'printf SAFE\u00a0#x; reboot',
  'printf SAFE\v#x; reboot',
  'printf SAFE\f#x; reboot',
  'printf SAFE\u2003#x; reboot',
  'printf SAFE\\ #x; reboot',
  'printf SAFE\\\t#x; reboot',
  'printf SAFE\\;#x; reboot',
  'printf SAFE\\\n#x; reboot',
  "printf 'SAFE '#x; reboot",
  'printf "SAFE "#x; reboot',
  'printf $(printf hi)#x; reboot',
  'printf $((1 + 2))#x; reboot',
  'printf ${value:-SAFE}#x; reboot',
  'printf `printf hi`#x; reboot',
  'printf <(printf hi)#x; reboot',
  'printf @(SAFE)#x; reboot',
  'values=(SAFE)#x; reboot',
  "printf '%s' $( (printf hi))#x; reboot",
  "printf '%s' $(case x in x) printf hi;; esac)#x; reboot",
  "printf '%s' $(printf '%s' then case x in x)#; reboot",
  "printf '%s' $(printf '%s' ${value:- # literal}); reboot",
  "printf '%s' $(printf '%s' ${value:- # literal})#x; reboot",
  '[[ a =~ (a)# ]]; reboot',
  "printf '%s' $\\\n'\\' #'; reboot",
  '(printf SAFE)# comment\nreboot',
  'safe()# comment\n{ printf SAFE; }; reboot',
];

/** A real comment hides the rest of its line: nothing to ask. */
const REAL_COMMENTS: string[] = [
  'printf SAFE # comment; reboot',
  'printf SAFE\t# comment; reboot',
  'printf SAFE;# comment; reboot',
  'printf SAFE|# comment; reboot\ncat',
  'printf SAFE&# comment; reboot',
  '(printf SAFE)# comment; reboot',
  '((1 + 2))# comment; reboot',
  'safe()# comment; reboot\n{ printf SAFE; }; safe',
  'case x in x)# comment; reboot\nprintf SAFE;; esac',
  'printf SAFE \\\n# comment; reboot',
  '(printf SAFE)\\\n# comment; reboot',
  "printf '%s' <((printf SAFE)# comment; reboot\n)#x",
  "printf '%s' $\\\n'it\\'s' # comment; reboot",
  'printf $(printf hi) # comment; reboot',
  'printf $((1 + 2)) # comment; reboot',
  'printf "$(printf hi)" # comment; reboot',
];

/** grep inside a substitution is its own command; what runs after it in there is judged. */
const SUBSTITUTIONS: [string, Expectation][] = [
  ['sed -n "$(grep -n X f | cut -d: -f1),+3p" f', 'not-floor'],
  [
    `sed -n "$(grep -n '^### 1.' d.md | cut -d: -f1),$(grep -n '^### 3.' d.md | cut -d: -f1)p" d.md`,
    'not-floor',
  ],
  ['echo "$(grep -c x f)"', 'not-floor'],
  ['x="$(grep -n foo bar | head -1)"; echo $x', 'not-floor'],
  [`for f in a b; do echo "$f sig=$(grep -cE '^x' $f)"; done`, 'not-floor'],
  ['echo `grep -c x f`', 'not-floor'],
  ['rm -rf /', 'floor'],
  ['echo "$(rm -rf /)"', 'floor'],
  ['sudo shutdown -h now', 'floor'],
  [`echo "$(grep -P 'safe' /dev/null\nreboot)"`, 'floor'],
  ['echo "$(grep x f; reboot)"', 'floor'],
  ['echo "$(grep x f && reboot)"', 'floor'],
  ['echo "$(grep x f | shutdown -h now)"', 'floor'],
  ['echo "$(echo $(grep x f)\nreboot)"', 'floor'],
  ['echo "`grep x f\nreboot`"', 'floor'],
  ['grep -e `echo needle` file', 'not-floor'],
  ["grep -F 'sudo reboot' notes.md", 'not-floor'],
  ['git commit -m "fix\nsudo reboot handling"', 'not-floor'],
];

/**
 * Vectors we still miss (the original refuses them, we do not yet): kept as failing expectations
 * (`it.fails`), so fixing one turns its test red until it moves to the tables above.
 */
const GAPS: [string, Expectation][] = [];

const FAILS_CLOSED =
  'we judge the carried command although the program would refuse or ignore it here: refusing is the safe side';

/** Where we deliberately differ from the original: [line, what we do, why]. */
const DIFFERENCES: [string, Expectation, string][] = [
  ['env --n --s reboot', 'floor', FAILS_CLOSED + ' (env rejects --null with a command)'],
  ['env --nu --s reboot', 'floor', FAILS_CLOSED + ' (env rejects --null with a command)'],
  ['env --nul --s reboot', 'floor', FAILS_CLOSED + ' (env rejects --null with a command)'],
  ['env -0S reboot', 'floor', FAILS_CLOSED + ' (env rejects -0 with a command)'],
  ['nice -n echo sh -c reboot', 'floor', FAILS_CLOSED + ' (nice -n takes echo as its value and fails)'],
  [
    'timeout --foreground echo sh -c reboot',
    'floor',
    'timeout options are read as taking a value, so echo is taken for the duration; refusing is the safe side',
  ],
  [
    'timeout --preserve-status echo sh -c reboot',
    'floor',
    'timeout options are read as taking a value, so echo is taken for the duration; refusing is the safe side',
  ],
  [
    'runuser -p -w FOO --session-command reboot root',
    'floor',
    'the last command option is what runs; we run it whatever -p/-m say',
  ],
  ['runuser -u root --command reboot', 'floor', FAILS_CLOSED + ' (runuser -u does not take -c)'],
  [
    'su --preserve-environment --whitelist-environment FOO --command reboot root',
    'floor',
    'the last command option is what runs; we run it whatever -p/-m say',
  ],
  [
    'su -m -w FOO --command reboot root',
    'floor',
    'the last command option is what runs; we run it whatever -p/-m say',
  ],
  [
    "printf '%s' $\\\n'it\\'s' # comment; reboot",
    'floor',
    'a backslash-newline before an ANSI-C quote is read both ways; one reading runs reboot, so it is refused',
  ],
  [
    "grep 'unterminated",
    'safe',
    'the original refuses any line its lexer cannot balance; bash itself refuses to run a line with an unterminated quote, so nothing runs and nothing needs refusing',
  ],
];

describe('the original project’s carrier and comment vectors', () => {
  const set = new Set([...GAPS.map(([l]) => l), ...DIFFERENCES.map(([l]) => l)]);
  const keep = (lines: string[]) => lines.filter((l) => !set.has(l));
  for (const [line, want] of GAPS)
    it.fails(`still misses: ${JSON.stringify(line)} → ${want}`, async () =>
      expectVerdict(line, want, fx.at()),
    );
  it.each(keep(CARRIED_FLOOR))('refuses a carried command: %j', async (line) =>
    expectVerdict(line, 'floor', fx.at()),
  );
  it.each(keep(CARRIED_DATA))('does not refuse carried data: %j', async (line) =>
    expectVerdict(line, 'not-floor', fx.at()),
  );
  it('asks about a shell given a script in env -S', async () =>
    expectVerdict("env -S 'sh -c echo'", 'ask', fx.at()));
  it.each(keep(COMMENT_LOOKALIKES))('refuses what follows a comment look-alike: %j', async (line) =>
    expectVerdict(line, 'floor', fx.at()),
  );
  it.each(keep(REAL_COMMENTS))('passes a real comment: %j', async (line) =>
    expectVerdict(line, 'safe', fx.at()),
  );
  it.each(SUBSTITUTIONS)('judges substitutions: %j → %s', async (line, want) =>
    expectVerdict(line, want, fx.at()),
  );
  it.each(DIFFERENCES)('differs on purpose: %j → %s (%s)', async (line, want) =>
    expectVerdict(line, want, fx.at()),
  );
});
