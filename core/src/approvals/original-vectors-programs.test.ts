/**
 * The original project's vectors for particular programs: Bun and Deno inline code, `docker run
 * --rm`, git's global options, container lifecycle commands and their mentions in prose, and
 * writes into credential folders. Sources: the original's tests/tools/
 * test_approval_bun_deno_eval.py, test_approval_container_rm_flag.py,
 * test_approval_git_global_options.py, test_approval_docker_lifecycle_prose.py,
 * test_approval_global_flag_scan.py and test_approval_credential_directories.py.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { makeFixture, vectorTests, type Expectation, type Fixture } from './rules/testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/** Flag and value runs the original pads commands with. */
const RUN = '--opt val --flag=x -q - '.repeat(58);
const PADS = [
  '--exclude '.repeat(58),
  '--opt val '.repeat(58),
  '--opt=val '.repeat(58),
  '--opt' + ' '.repeat(100) + 'val ',
];

const ASK: string[] = [
  // Bun and Deno inline code
  'bun -e "console.log(1)"',
  'bun --eval "console.log(1)"',
  'deno eval "console.log(1)"',
  'deno -e "console.log(1)"',
  'deno --eval "console.log(1)"',
  'sudo bun -e "console.log(1)"',
  'sudo deno eval "console.log(1)"',
  'BUN.EXE -e "console.log(1)"',
  'Deno.exe eval "console.log(1)"',
  'bun << "EOF"\nconsole.log("pwned")\nEOF',
  'deno << \'EOF\'\nconsole.log("pwned")\nEOF',
  'bun -e "console.log(1)',
  // real recursive deletes next to `--rm`
  'rm -rf /tmp/x',
  'rm -r mydir',
  'rm --recursive /tmp',
  'sudo rm -rf /tmp/x',
  'foo; rm -r bar',
  'echo x && rm -rf /tmp/y',
  'rm build/ -rf',
  // git's global options before the sub-command
  'git -C /tmp/x reset --hard',
  'git --work-tree /tmp/x reset --hard',
  'git -c core.pager=cat reset --hard',
  'git --git-dir /tmp/x/.git --work-tree /tmp/x reset --hard',
  'git --no-pager -C /tmp/x reset --hard',
  'git -C /tmp/x push --force origin main',
  'git -C /tmp/x push -f origin main',
  'git -C /tmp/x clean -fdx',
  'git -C /tmp/x branch -D feature',
  'git -C /tmp/x branch --delete --force feature',
  'git -C "/tmp/g space" reset --hard',
  'git -C "/tmp/g space" push --force origin main',
  'git -C "/tmp/g space" clean -fdx',
  'git -C "/tmp/g space" branch -D feature',
  "git --work-tree '/tmp/g space' --git-dir '/tmp/g space/.git' reset --hard",
  'git --git-dir="/tmp/g space/.git" reset --hard',
  // container lifecycle, however it is reached
  'docker restart app',
  'docker compose down',
  'docker-compose stop app',
  "cat <<'README'\ndocker restart docs-only\nREADME\ndocker restart app",
  'docker ps -q | xargs docker stop',
  'ssh host <<EOF\ndocker restart app\nEOF',
  'ssh host docker restart app',
  'bash -c "docker restart app"',
  "eval 'docker stop app'",
  'echo done; docker kill app',
  'git log; docker stop app',
  `printf '%s' "$(docker compose down)"`,
  "git -c alias.x='!docker stop app' x",
  'echo "$(docker kill app)"',
  'cat <<EOF\n$(docker stop app)\nEOF',
  'cat <<EOF\n`docker kill app`\nEOF',
  `hermes config set command_allowlist '["docker restart app"]'`,
  `hermes config set mcp_allowlist '["docker restart app"]'`,
  "hermes cron create 'every 1h' 'docker restart app'",
  "echo hi; hermes run 'docker compose down'",
  "hermes -p work kanban create t --body 'docker restart app'",
  "echo 'docker restart app' > deploy.sh",
  "echo 'docker restart app' &> deploy.sh",
  "echo 'docker restart app' | ssh prod",
  "echo 'docker restart app' 2>&1 | ssh prod",
  "echo 'docker restart app' | cat | ssh prod",
  "printf 'docker stop app\\n' | sudo tee run.sh",
  "echo 'docker restart app' |",
  "cat <<'EOF' > deploy.sh\ndocker restart app\nEOF",
  "cat <<'EOF' | ssh prod\ndocker restart app\nEOF",
  `bash -c 'echo "docker restart app"'`,
  // long flag runs before the part that matters
  `hermes ${RUN}gateway restart`,
  `docker ${RUN}-H ssh://prod ps`,
  `docker ${RUN}--context=prod ps`,
  `podman ${RUN}--url tcp://prod ps`,
  `podman ${RUN}--remote ps`,
  `docker compose ${RUN}down`,
  `docker ${RUN}kill app`,
  'docker --log-level debug stop app',
  'docker --log-level\tdebug stop app',
  'docker compose --project-name demo  down',
  'hermes --config  x.yaml gateway restart',
];

const SAFE: string[] = [
  'bun install',
  'bun run build',
  'deno run server.ts',
  'deno test',
  'deno lint',
  'deno run eval.ts',
  "echo 'use deno eval for that'",
  'docker run --rm --network=none alpine:3.20 true',
  'docker run --rm alpine:3.20 true',
  'docker run --rm -v /host:/x alpine:3.20 true',
  'docker run --rm alpine:3.20 ls -r',
  'podman run --rm --network=none alpine:3.20 true',
  'git -C /tmp/x status',
  'git -C /tmp/x push origin main',
  'git -C /tmp/x branch -d feature',
  'git --no-pager log push --force',
  'git status && echo push --force',
  'git -C "/tmp/g space" status',
  'echo doc-only: to restart the stack later, run: docker restart web-1',
  'echo doc-only: docker stop web-1 stops one container',
  'echo doc-only: docker kill web-1 kills one container',
  'echo doc-only: docker compose restart restarts the stack',
  'echo doc-only: docker compose stop stops the stack',
  "echo 'README: docker compose kill kills the stack'",
  "echo 'README: docker compose down stops the stack'",
  "cat <<'README'\ndocker-compose stop app\ndocker-compose kill app\nREADME",
  'echo "include docker restart findings"',
  'hermes kanban create "Nightly report" --body "Include docker restart/OOM counts from the logs."',
  'git commit -m "note docker restart counts"',
  'grep "docker restart" log.txt',
  "grep 'docker restart' log.txt 2>&1 | wc -l",
  "echo 'docker restart app' >&2",
  "git log --grep='docker restart' | grep -v merge | head -5",
  'hermes kanban comment t1 "ran docker restart app"',
  `hermes kanban create notes --body-file - <<'EOF'\n${Array.from({ length: 600 }, (_, i) => `"line ${i}" docker restart app`).join('\n')}\nEOF`,
  ...[
    'rclone lsf $HOME/.hermes --recursive --files-only',
    'hermes',
    'docker',
    'docker compose',
    'podman',
  ].flatMap((p) => PADS.map((pad) => `${p} ${pad}ps 2>/dev/null`)),
];

/** Credential folders: writing into them asks, reading or copying out does not. */
const CREDENTIAL_DIRS = ['.aws', '.gnupg', '.kube', '.docker', '.azure', '.config/gh', '.config/gcloud'];
const CREDENTIAL_WRITES = [
  'echo x >> {p}/arbitrary/nested/token',
  'echo x > {p}/token',
  'echo x | tee -a {p}/token',
  'cp input {p} && true',
  'mv input "{p}"; true',
  'install -m600 input "{p}" || true',
  "sed -i 's/a/b/' {p}/token",
  "sed -n -i 's/a/b/' {p}/token",
  "perl -pi 's/a/b/' {p}/token",
  `ruby -i -pe 'gsub(/a/, "b")' {p}/token`,
];
const credentialWrites = (): string[] =>
  CREDENTIAL_DIRS.flatMap((d) =>
    ['~', '$HOME', '${HOME}', 'ABS'].flatMap((s) =>
      CREDENTIAL_WRITES.map((v) => v.replaceAll('{p}', `${s}/${d}`)),
    ),
  );
const credentialReads = (): string[] =>
  CREDENTIAL_DIRS.flatMap((d) => [
    `echo x >> ~/${d}-backup/token`,
    `cp input ~/${d}-backup && true`,
    `mv input ~/${d}-backup; true`,
    `install input ~/${d}-backup || true`,
    `echo x > ~/${d}#backup`,
    `cp ~/${d}/token /tmp/token-copy`,
    `cat ~/${d}/token`,
    `grep -r token ~/${d}/token`,
    `sed --posix 's/a/b/' ~/${d}/token`,
    `sed -n 's/a/b/p' ~/${d}/token`,
  ]).concat([
    'echo x > ~/.config/nvim/init.lua',
    'cp input ~/.config/Code/User/settings.json',
    "sed -i 's/a/b/' ~/.config/systemd/user/app.service",
  ]);

/**
 * Vectors we still miss: kept as failing expectations (`it.fails`), so fixing one turns its test
 * red until it moves to the tables above.
 */
const GAPS: [string, Expectation][] = [];

const QUOTED_TILDE =
  'a quoted ~ is not expanded by the shell: the command writes a folder named ~ in the working folder, not the home';
const READ_KEYS =
  'reading private keys and cloud tokens (GnuPG, Azure, gcloud) asks: a read is how a secret leaves the machine';
const HOME_DOTFILE =
  'a new dotfile straight in the home folder asks: programs read such files at start, and the name alone cannot tell which';

/** Where we deliberately differ from the original: [line, what we do, why]. */
const DIFFERENCES: [string, Expectation, string][] = [
  ...CREDENTIAL_DIRS.flatMap((d): [string, Expectation, string][] => {
    // the GnuPG folder's name alone makes the credential rule ask, quoted or not
    const [want, why]: [Expectation, string] =
      d === '.gnupg' ? ['ask', `${QUOTED_TILDE}; ${READ_KEYS}`] : ['safe', QUOTED_TILDE];
    return [
      [`mv input "~/${d}"; true`, want, why],
      [`install -m600 input "~/${d}" || true`, want, why],
    ];
  }),
  [
    "sed -i 's/a/b/' ~/.config/systemd/user/app.service",
    'ask',
    'user systemd units run programs at login, like shell start-up files, so editing one asks',
  ],
  ...['.gnupg', '.azure', '.config/gcloud'].flatMap((d): [string, Expectation, string][] => [
    [`cp ~/${d}/token /tmp/token-copy`, 'ask', READ_KEYS],
    [`cat ~/${d}/token`, 'ask', READ_KEYS],
    [`grep -r token ~/${d}/token`, 'ask', READ_KEYS],
    [`sed --posix 's/a/b/' ~/${d}/token`, 'ask', READ_KEYS],
    [`sed -n 's/a/b/p' ~/${d}/token`, 'ask', READ_KEYS],
  ]),
  ...['.aws', '.gnupg', '.kube', '.docker', '.azure'].flatMap((d): [string, Expectation, string][] => [
    [`cp input ~/${d}-backup && true`, 'ask', HOME_DOTFILE],
    [`mv input ~/${d}-backup; true`, 'ask', HOME_DOTFILE],
    [`install input ~/${d}-backup || true`, 'ask', HOME_DOTFILE],
    [`echo x > ~/${d}#backup`, 'ask', HOME_DOTFILE],
  ]),
  ...PADS.map((pad): [string, Expectation, string] => [
    `rclone lsf $HOME/.hermes --recursive --files-only ${pad}ps 2>/dev/null`,
    'ask',
    'rclone reaching into the Hermes root asks whatever its verb: it is a copier, and the root holds the keys',
  ]),
  [
    "echo hi; hermes run 'docker compose down'",
    'safe',
    'our CLI has no `hermes run`; an unknown hermes command runs nothing',
  ],
  [
    "hermes -p work kanban create t --body 'docker restart app'",
    'safe',
    'kanban text is data for the board, with or without -p; nothing runs it',
  ],
];

describe('the original project’s program vectors', () => {
  const at = (line: string) => line.replaceAll('ABS/', `${fx.home}/`);
  vectorTests(() => fx.at(), {
    tables: [
      ['asks', ASK, 'ask'],
      ['passes', SAFE, 'safe'],
      ['asks before writing credentials', credentialWrites(), 'ask', at],
      ['passes reading credentials or near misses', credentialReads(), 'safe', at],
    ],
    gaps: GAPS,
    differences: DIFFERENCES,
  });
});
