/**
 * The rules about Hermes itself (self.ts), run on real lines against a temporary root on disk:
 * a fake user home holding `.hermes` (config.yaml, .env, auth.json, state.db, the discovery file
 * of a "running" daemon, profiles/work with its own .env), a project folder with scripts, a
 * symlink and a hard link into the root, and `~/.local/bin` with a profile alias and a symlink to
 * a `hermes` executable.
 */
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapperText } from '../../profiles/alias.js';
import { detectCommand } from '../detect.js';
import type { DetectContext } from '../detection-types.js';
import { analyzeShell } from '../shell/analyze.js';
import { ruleContext } from './context.js';
import { globReaches } from './self-places.js';
import { daemonStopTargets, SELF_RULES } from './self.js';

let base: string;
let home: string;
let root: string;
let proj: string;
const DAEMON_PID = 424242;
const DAEMON_PORT = 45678;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hermes-self-')));
  home = join(base, 'home');
  root = join(home, '.hermes');
  proj = join(base, 'proj');
  for (const d of ['profiles/work/memories', 'workspace', 'skills/s', 'logs'])
    mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'config.yaml'), 'approvals:\n  mode: manual\n');
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-test\n');
  writeFileSync(join(root, 'auth.json'), '{}\n');
  writeFileSync(join(root, 'state.db'), '');
  writeFileSync(
    join(root, 'tui-gateway.json'),
    JSON.stringify({ pid: DAEMON_PID, port: DAEMON_PORT, host: '127.0.0.1', token: 'x'.repeat(64) }),
  );
  writeFileSync(join(root, 'tui-gateway.lock'), JSON.stringify({ pid: DAEMON_PID }));
  writeFileSync(join(root, 'profiles/work/.env'), 'WORK_KEY=1\n');
  writeFileSync(join(root, 'profiles/work/config.yaml'), 'model: {}\n');
  writeFileSync(join(root, 'workspace/notes.txt'), 'notes\n');
  writeFileSync(join(root, 'skills/s/run.py'), 'print("hello")\n');
  mkdirSync(join(proj, 'sub', 'deep'), { recursive: true });
  mkdirSync(join(proj, 'bin'), { recursive: true });
  writeFileSync(join(proj, 'app.js'), 'console.log(1 + 1);\n');
  writeFileSync(join(proj, 'docs.js'), "console.log('settings live in .hermes/config.yaml');\n");
  writeFileSync(join(proj, 'leak.py'), 'import json\nprint(json.load(open("tui-gateway.json"))["token"])\n');
  writeFileSync(join(proj, 'leak.js'), `require('fs').readFileSync('${root}/.env', 'utf8');\n`);
  writeFileSync(
    join(proj, 'home.js'),
    "const p = require('path').join(require('os').homedir(), '.hermes');\n",
  );
  writeFileSync(join(proj, 'deploy.sh'), `#!/bin/sh\ncat "$HERMES_HOME/config.yaml"\n`);
  chmodSync(join(proj, 'deploy.sh'), 0o755);
  writeFileSync(join(proj, 'bin', 'hermes'), '#!/usr/bin/env node\n');
  symlinkSync(join(root, '.env'), join(proj, 'link-to-env'));
  symlinkSync(join(root, 'profiles', 'work'), join(proj, 'work-link'));
  linkSync(join(root, '.env'), join(proj, 'hard-env'));
  const localBin = join(home, '.local', 'bin');
  mkdirSync(localBin, { recursive: true });
  writeFileSync(join(localBin, 'work'), wrapperText('work'), { mode: 0o755 });
  symlinkSync(join(proj, 'bin', 'hermes'), join(localBin, 'hh'));
  writeFileSync(join(localBin, 'mytool'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The rule keys (and their targets) that match `line`. */
async function check(line: string, opts: Partial<DetectContext> = {}): Promise<Map<string, string[]>> {
  const analysis = await analyzeShell(line);
  const ctx = ruleContext(analysis, { hermesRoot: root, userHome: home, cwd: proj, env: {}, ...opts });
  const out = new Map<string, string[]>();
  for (const cmd of analysis.commands) {
    for (const rule of SELF_RULES) {
      const t = rule.match(cmd, ctx);
      if (t) out.set(rule.key, [...(out.get(rule.key) ?? []), ...t]);
    }
  }
  return out;
}

const H = 'hermes-home';
const C = 'hermes-cli';
const K = 'hermes-daemon-kill';
/** Where a row runs: the project (default), the root, the workspace or a named profile's session. */
type Where = 'proj' | 'root' | 'workspace' | 'work-profile';

/** [line, expected keys, where]; lines use `@@` for the test's base folder and `%%` for the root. */
const ROWS: [string, string[], Where?][] = [
  // --- hermes-home: every path form ------------------------------------------------------------
  ['cat %%/.env', [H]],
  ['cat ~/.hermes/.env', [H]],
  ['cat $HOME/.hermes/.env', [H]],
  ['cat "${HOME}/.hermes/auth.json"', [H]],
  ['sed -i s/manual/off/ ${HERMES_HOME}/config.yaml', [H]],
  ['cat ${HERMES_HOME%/}/.env', [H]],
  ['sed -i s/manual/off/ @@/h?me/.h*/conf*.yaml', [H]],
  ['cat ~/.hermes/{config.yaml,.env}', [H]],
  ['> ~/.hermes/config.yaml', [H]],
  ['> %%/.env 2>&1', [H]],
  ['cat ~/.hermes/p*/w*/.env', [H]],
  ['cat ~/.hermes/profiles/work/.env', [H]],
  ['ls ~/.hermes/profiles/', [H]],
  ['cat .env', [H], 'root'],
  ['cat ../.env', [H], 'workspace'],
  ['cat $PWD/../.env', [H], 'workspace'],
  ['cat notes.txt && ls', [], 'workspace'],
  ['python3 ~/.hermes/skills/s/run.py', []],
  ['cat ~/.hermes/workspace/notes.txt', [H], 'work-profile'],
  ['cat link-to-env', [H]],
  ['cat work-link/../config.yaml', [H]],
  ['cat hard-env', [H]],
  ['cat sub/deep/../../link-to-env', [H]],
  ['cd ~/.hermes && cat .env', [H]],
  ['cd ~/.hermes', []],
  ['cd @@/proj/sub/deep && cat ../../../home/.hermes/auth.json', [H]],
  ['echo "approvals: {mode: off}" > ~/.hermes/config.yaml', [H]],
  ['cat <<EOF > ~/.hermes/config.yaml\napprovals: {mode: off}\nEOF', [H]],
  ['git -C ~/.hermes log', [H]],
  ['tool --file=$HOME/.hermes/state.db', [H]],
  ['dd if=~/.hermes/.env of=/tmp/x', [H]],
  ['docker run -v $HOME/.hermes:/data alpine', [H]],
  ['R=~/.hermes; cat $R/.env', [H]],
  ['for f in ~/.hermes/*.yaml; do sed -i x "$f"; done', [H]],
  ['cat $SOMEWHERE/.env', [H]],
  ['cat "$(dirname "$(command -v hermes)")/../auth.json"', [H]],
  [`cat ~${userInfo().username}/.hermes/.env`, [H]],
  ['bash -c "cat ~/.hermes/.env"', [H]],
  ['grep -r OPENAI_API_KEY ~', [H]],
  ['tar czf /tmp/all.tgz ~', [H]],
  ['grep -rn TODO .', [], 'proj'],
  ['python3 leak.py', [H]],
  ['node leak.js', [H]],
  ['node home.js', [H]],
  ['./deploy.sh', [H]],
  ["python3 - <<'EOF'\nimport os\nprint(open(os.path.expanduser('~/.hermes/.env')).read())\nEOF", [H]],
  [`python3 -c "import os; print(open(os.environ['HOME'] + '/.hermes/.env').read())"`, [H]],
  ['node app.js && node docs.js', []],
  ['cp ~/.hermes/.env /tmp/x', [H]],
  ['cat /home/someone-else/.hermes/.env', [H]],
  ['find ~ -name .env | xargs cat', [H]],
  ["find ~ -iname '*.env'", [H]],
  ["find . -name '*.log' -delete", []],
  ['cat "$(hermes config path)"', [H]],
  ['echo ~/.hermes/.env is where keys live', []],
  ['echo ok >> ~/.hermes/memories/MEMORY.md', [H]],
  ['cat /tmp/x ~/.hermes-notes.txt README.md', []],
  ['ls ~ && ls -la', []],
  // --- hermes-cli: verbs and invocation forms ----------------------------------------------------
  ['hermes config set approvals.mode off', [C]],
  ['hermes -p work config set approvals.mode off', [C]],
  ['hermes config -p work unset approvals.mode', [C]],
  ['hermes --profile=work profile delete play', [C]],
  ['./bin/hermes profile create play', [C]],
  ['node bin/hermes cron add 1h "check the news"', [C]],
  ['npx hermes pairing approve ABC123', [C]],
  ['npx -y hermes@latest gateway install', [C]],
  ['@@/proj/bin/hermes sessions delete abc', [C]],
  ['work config set model.default gpt-x', [C]],
  ['hh skills remove foo', [C]],
  ['sudo -u me hermes profile use work', [C]],
  ['hermes checkpoints restore c1', [C]],
  ['hermes cron suggestions accept daily-news', [C]],
  ['hermes cron pause j1 && hermes cron run j1', [C]],
  ['hermes chat --yolo -q "clean up"', [C]],
  ['hermes $VERB approvals.mode off', [C]],
  ['hermes gateway start', [C]],
  ['hermes migrate --from /tmp/some-home', [C]],
  ['hermes -p work migrate --dry-run', [C]],
  [`curl -s http://127.0.0.1:${DAEMON_PORT}/`, [C]],
  [`websocat ws://localhost:${DAEMON_PORT}`, [C]],
  [`nc 127.0.0.1 ${DAEMON_PORT}`, [C]],
  ['h=hermes; $h config set approvals.mode off', [C]],
  ['$(command -v hermes) config set approvals.mode off', [C]],
  [
    `python3 -c "import subprocess; subprocess.run(['hermes', 'config', 'set', 'approvals.mode', 'off'])"`,
    [C],
  ],
  ['hermes config get approvals.mode', []],
  ['hermes config show && hermes config && hermes config check && hermes config path', []],
  ['hermes sessions list && hermes sessions show s1 && hermes sessions search foo', []],
  ['hermes --version && hermes status', []],
  ['hermes cron list && hermes cron status && hermes cron suggestions', []],
  ['hermes profile list && hermes -p work profile show work', []],
  ['hermes config set --help', []],
  ['hermes gateway status', []],
  ['mytool config set x y', []],
  ['curl -s http://127.0.0.1:3000/ && nc example.com 45678', []],
  // --- hermes-daemon-kill --------------------------------------------------------------------------
  ['pkill -f tui-gateway', [K]],
  ['pkill hermes', [K]],
  ['pkill -9 node', [K]],
  ['killall node', [K]],
  ['kill -9 $(pgrep -f hermes)', [K]],
  ['kill -9 $(jq .pid ~/.hermes/tui-gateway.json)', [H, K]],
  [`kill ${DAEMON_PID}`, [K]],
  [`kill -s TERM -- -${DAEMON_PID}`, [K]],
  [`kill ${process.pid}`, [K]],
  ['kill -TERM $PPID', [K]],
  ['pgrep -f hermes | xargs kill', [K]],
  ["ps aux | grep tui-gateway | awk '{print $2}' | xargs kill -9", [K]],
  ['pid=$(pgrep -f tui-gateway); kill "$pid"', [K]],
  ["kill -9 $(ps -ef | grep '[h]ermes' | awk '{print $2}')", [K]],
  ["kill $(ps aux | grep -v grep | awk '/tui-gateway/ {print $2}')", [K]],
  ["kill $(ps aux | grep nginx | awk '{print $2}')", []],
  ['npm start & sleep 2; ps aux; kill $!', []],
  ['read pid < ~/.hermes/tui-gateway.lock; kill "$pid"', [H, K]],
  ['pkill -u "$USER"', [K]],
  ['pkill -F ~/.hermes/tui-gateway.lock', [H, K]],
  ['pkill -F /tmp/dev-server.pid', []],
  [`fuser -k ${DAEMON_PORT}/tcp`, [K]],
  [`lsof -ti :${DAEMON_PORT} | xargs kill`, [K]],
  ['systemctl --user stop hermes-gateway', [K]],
  ['systemctl --user restart hermes-gateway.service', [K]],
  ['systemctl --user disable --now hermes-gateway', [K]],
  ["systemctl --user stop 'hermes*'", [K]],
  ['hermes gateway stop', [K]],
  ['hermes -p work gateway restart', [K]],
  ['nohup sh -c "sleep 5; hermes gateway stop" &', [K]],
  [`strace -f -p ${DAEMON_PID}`, [K]],
  [`cat /proc/${DAEMON_PID}/environ`, [H]],
  ['ps aux | grep hermes', []],
  ['pgrep -f hermes', []],
  ['kill 12345 && kill %1 && kill -l', []],
  [`kill -0 ${DAEMON_PID}`, []],
  ['pkill -f webpack-dev-server && killall firefox', []],
  ['systemctl --user status hermes-gateway', []],
  ['systemctl restart nginx', []],
];

describe('the rules about Hermes itself', () => {
  it('has a table of at least 50 lines', () => expect(ROWS.length).toBeGreaterThanOrEqual(50));

  it.each(ROWS)('%j → %j (%s)', async (line, expected, where = 'proj') => {
    const cwd = {
      proj,
      root,
      workspace: join(root, 'workspace'),
      'work-profile': join(root, 'profiles/work'),
    }[where];
    const profileHome = where === 'work-profile' ? join(root, 'profiles/work') : root;
    const text = line.replace(/@@/g, base).replace(/%%/g, root);
    const found = await check(text, { cwd, profileHome });
    expect([...found.keys()].sort()).toEqual([...expected].sort());
  });
});

describe('targets name what the command acts on', () => {
  const targets = async (line: string, key: string, opts: Partial<DetectContext> = {}): Promise<string[]> =>
    (await check(line, opts)).get(key) ?? [];

  it('paths reached in the root, absolute, through every form', async () => {
    // (reading config.yaml alone is not asked: reads.test.ts; this one writes)
    expect(await targets('sed -i x ~/.hermes/{config.yaml,.env}', H)).toEqual(
      expect.arrayContaining([join(root, 'config.yaml'), join(root, '.env')]),
    );
    expect(await targets(`sed -i x ${base}/h?me/.h*/conf*.yaml`, H)).toContain(join(root, 'config.yaml'));
    expect(await targets('cat link-to-env', H)).toContain(join(root, '.env'));
    expect(await targets('cat work-link/../config.yaml', H)).toContain(join(root, 'profiles', 'config.yaml'));
    expect(await targets('grep -r KEY ~', H)).toEqual([root]);
    expect(await targets('python3 leak.py', H)).toEqual([join(proj, 'leak.py')]);
    expect(await targets('cat $SOMEWHERE/.env', H)).toEqual(['$SOMEWHERE/.env']);
  });

  it('the CLI verb with its profile and key, never the value', async () => {
    expect(await targets('hermes config set approvals.mode off', C)).toEqual([
      'hermes config set approvals.mode',
    ]);
    expect(await targets('hermes config -p work unset approvals.mode', C)).toEqual([
      'hermes -p work config unset approvals.mode',
    ]);
    expect(await targets('work config set approvals.mode off', C)).toEqual([
      'hermes -p work config set approvals.mode',
    ]);
    expect(await targets('hermes cron add 1h "x"', C)).toEqual(['hermes cron add']);
    expect(await targets(`curl http://127.0.0.1:${DAEMON_PORT}/`, C)).toEqual([
      `daemon 127.0.0.1:${DAEMON_PORT}`,
    ]);
  });

  it('the pid, pattern, unit or verb of a kill', async () => {
    expect(await targets(`kill -9 ${DAEMON_PID}`, K)).toEqual([`pid ${DAEMON_PID} (Hermes daemon)`]);
    expect(await targets('pkill -f tui-gateway', K)).toEqual(['tui-gateway']);
    expect(await targets('systemctl --user stop hermes-gateway', K)).toEqual([
      'systemctl stop hermes-gateway',
    ]);
    expect(await targets('hermes -p work gateway stop', K)).toEqual(['hermes -p work gateway stop']);
    expect(await targets('kill $PPID', K)).toEqual(['$PPID']);
  });

  it('without a root nothing about the home is known, and the pid comes from the context first', async () => {
    expect(await targets('cat ~/.hermes/.env', H, { hermesRoot: undefined })).toEqual([]);
    expect(await targets('kill 777', K, { daemonPid: 777 })).toEqual(['pid 777 (Hermes daemon)']);
  });
});

describe('through detectCommand (detect.ts), as the guard sees a line', () => {
  const at = (cwd = proj): DetectContext => ({
    hermesRoot: root,
    userHome: home,
    cwd,
    profileHome: root,
    env: {},
  });
  const keys = async (line: string, cwd?: string): Promise<string[]> =>
    (await detectCommand(line, at(cwd))).hits.map((h) => h.key);

  it.each([
    ['sed -i s/manual/off/ ~/.h?rmes/conf*.yaml', H],
    ['hermes -p work config set approvals.mode off', C],
    ['kill -9 $(pgrep -f tui-gateway)', K],
    ['systemctl --user stop hermes-gateway', K],
    ['python3 leak.py', H],
  ])('%j asks as %s, with its command and targets', async (line, key) => {
    const d = await detectCommand(line, at());
    const hit = d.hits.find((h) => h.key === key);
    expect(hit?.command).not.toBeNull();
    expect(hit?.targets.length).toBeGreaterThan(0);
    expect(d.floor).toEqual([]);
  });

  it("replaces the regex table's home patterns on parsed lines; they still run on broken ones", async () => {
    const parsed = await keys('cat ~/.hermes/.env');
    expect(parsed).toContain(H);
    expect(parsed).not.toContain('touch-hermes-home');
    expect(await keys('cat notes.txt', join(root, 'workspace'))).toEqual([]);
    expect(await keys('cat ~/.hermes/.env; echo "unterminated')).toContain('touch-hermes-home');
  });
});

describe('globReaches (a glob judged against the root itself, whatever the disk walk saw)', () => {
  const places = {
    roots: ['/srv/h/.hermes'],
    free: ['/srv/h/.hermes/workspace'],
    identities: () => new Set<string>(),
  };
  it.each([
    ['/*/*/.hermes/.env', true],
    ['/s?v/h/.h*', true],
    ['/srv/h/.hermes/*', true],
    ['/srv/h/*/config.yaml', false], // bash's * does not match a leading dot
    ['/srv/*', false], // above the root, not into it
    ['/srv/h/.hermes/workspace/*.txt', false],
    ['/srv/h/.hermes/w*/x', true],
    ['/srv/h/.hermes/.env', false], // not a glob: judged as a path
  ])('%s → %s', (pattern, expected) => expect(globReaches(places, pattern)).toBe(expected));
});

describe('daemonStopTargets (the cron lane refuses these outright)', () => {
  it('lists what a line stops, null for a harmless line, undefined for an unparsable one', async () => {
    const opts = { hermesRoot: root, userHome: home, cwd: proj };
    expect(await daemonStopTargets('echo ok; systemctl --user stop hermes-gateway', opts)).toEqual([
      'systemctl stop hermes-gateway',
    ]);
    expect(await daemonStopTargets('ps aux | grep hermes', opts)).toBeNull();
    expect(await daemonStopTargets('echo "unterminated', opts)).toBeUndefined();
  });
});
