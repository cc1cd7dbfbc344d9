/**
 * Programs that run a command they are given — as a prefix (`unshare`, `systemd-run`, `bwrap`),
 * in an option (`git -c alias.x='!…'`, `ssh -o ProxyCommand=…`, `tar --to-command`), in a
 * variable (`GIT_SSH_COMMAND=…`), as operands (`ssh HOST CMD`, `tmux new CMD`, `parallel CMD :::`)
 * or on stdin (`at now <<< CMD`, `bash <(echo CMD)`): the command they run is judged like one on the line, and their
 * ordinary use is not flagged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysOf, makeFixture, type Fixture } from './testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

const RUNS_RM: string[] = [
  'unshare -r rm -rf src',
  'nsenter -t 1 -m rm -rf src',
  'systemd-run --user rm -rf src',
  'systemd-run --on-active 10 rm -rf src',
  'setpriv --reuid 0 rm -rf src',
  'chrt 1 rm -rf src',
  'prlimit --nofile=10 rm -rf src',
  'numactl -N 0 rm -rf src',
  'firejail rm -rf src',
  'bwrap --bind / / --chdir /tmp rm -rf src',
  'proot -w / rm -rf src',
  "faketime '2020-01-01' rm -rf src",
  'valgrind rm -rf src',
  'torsocks rm -rf src',
  'proxychains4 -q rm -rf src',
  'xvfb-run -a rm -rf src',
  'sshpass -p x rm -rf src',
  'dbus-run-session rm -rf src',
  'setarch x86_64 rm -rf src',
  'screen -dmS job rm -rf src',
  'xterm -e rm -rf src',
  "sg users -c 'rm -rf src'",
  "git -c alias.x='!rm -rf src' x",
  "git -c core.pager='rm -rf src' log",
  "git -c core.sshCommand='rm -rf src' fetch",
  "git config alias.x '!rm -rf src'",
  "git config --global alias.x '!rm -rf src'",
  "git -C . config set --local core.pager 'rm -rf src'",
  "git config --file .git/config core.sshCommand 'rm -rf src'",
  "GIT_SSH_COMMAND='rm -rf src' git fetch",
  "PAGER='rm -rf src' man ls",
  "ssh -o ProxyCommand='rm -rf src' host",
  "ssh -oProxyCommand='rm -rf src' host",
  'ssh host rm -rf src',
  "ssh -p 22 host 'rm -rf src'",
  "rsync -e 'rm -rf src' a host:b",
  "tar -I 'rm -rf src' -xf x.tar",
  "tar --to-command='rm -rf src' -xf x.tar",
  "tar --checkpoint=1 --checkpoint-action=exec='rm -rf src' -cf x.tar file.txt",
  "zip x.zip file.txt -T -TT 'rm -rf src'",
  "vim -c '!rm -rf src' -c q",
  "vi -es '+!rm -rf src'",
  "gdb -batch -ex 'shell rm -rf src'",
  "tmux new -d 'rm -rf src'",
  "tmux new-session -d -s job 'rm -rf src'",
  "tmux send-keys -t job 'rm -rf src' Enter",
  "tmux run-shell 'rm -rf src'",
  "parallel 'rm -rf {}' ::: src",
  "parallel ::: 'rm -rf src'",
  "at now <<< 'rm -rf src'",
  "echo 'rm -rf src' | at now",
  "echo 'rm -rf src' | batch",
  "hyperfine 'rm -rf src'",
  "bash <(echo 'rm -rf src')",
  "bash < <(printf 'rm -rf src')",
  ". <(echo 'rm -rf src')",
];

describe('commands run by other programs', () => {
  it.each(RUNS_RM)('asks for %s', async (line) => {
    const k = await keysOf(line, fx.at());
    expect(k.hits).toContain('recursive-delete');
  });

  it.each([
    'unshare -r rm -rf /',
    'systemd-run rm -rf /',
    "ssh -o ProxyCommand='rm -rf /' host",
    "at now <<< 'rm -rf /'",
    "tmux new -d 'rm -rf ~'",
    "sh <(echo 'rm -rf /')",
  ])('refuses %s (the floor)', async (line) => {
    expect((await keysOf(line, fx.at())).floor).toContain('delete-root-path');
  });

  it.each([
    'git -c user.name=x commit -m hi',
    'git -c color.ui=always log',
    'git -c core.editor=vim commit',
    'git config user.name x',
    "git config alias.st 'status -sb'",
    'git config --get alias.x',
    'git config core.editor vim',
    'ssh host ls',
    'ssh -p 22 -i ~/.ssh/id_ed25519 host uptime',
    'ssh -o StrictHostKeyChecking=no host',
    'tmux new -s work',
    'tmux attach -t work',
    "tmux send-keys -t work 'npm test' Enter",
    'PAGER=cat git log',
    'EDITOR=vim git commit',
    'vim +10 file.txt',
    "vim -c 'set nu' file.txt",
    'tar -xzf x.tgz',
    "rsync -av -e 'ssh -p 2222' src host:dst",
    'parallel echo ::: a b',
    "echo 'make' | at now",
    'screen -S work',
    'gdb -ex run ./a.out',
    'xvfb-run -a npm test',
    "bash <(echo 'ls')",
    'diff <(echo a) <(echo b)',
  ])('does not flag %s', async (line) => {
    expect(await keysOf(line, fx.at())).toEqual({ floor: [], hits: [] });
  });
});
