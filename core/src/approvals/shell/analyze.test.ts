import { describe, expect, it } from 'vitest';
import { analyzeShell, programName, type SimpleCommand } from './analyze.js';

/** Each listed command as `via… | argv` for compact assertions. */
const show = (c: SimpleCommand): string =>
  `${c.via.join('>')}${c.via.length ? ' | ' : ''}${c.argv.map((w) => w.value).join(' ')}`;

async function list(line: string): Promise<string[]> {
  return (await analyzeShell(line)).commands.map(show);
}

describe('analyzeShell', () => {
  it('lists the commands of sequences, lists and pipelines', async () => {
    expect(await list('git status && rm -rf x; ls | wc -l')).toEqual([
      'git status',
      'rm -rf x',
      'ls',
      'wc -l',
    ]);
  });

  it('decodes quotes, escapes, ANSI-C strings and $IFS', async () => {
    expect(await list(`r\\m -rf "/" '/tmp' $'\\x2f'`)).toEqual(['rm -rf / /tmp /']);
    expect(await list('rm${IFS}-rf${IFS}/')).toEqual(['rm -rf /']);
    const [braces] = (await analyzeShell('rm /{etc,usr} "{a,b}" x{1..3}')).commands;
    expect(braces!.argv.slice(1).map((w) => [w.value, w.glob])).toEqual([
      ['/{etc,usr}', true],
      ['{a,b}', false],
      ['x{1..3}', true],
    ]);
    const [cmd] = (await analyzeShell('rm -rf "$HOME"/a* ~/b')).commands;
    expect(cmd!.argv.map((w) => [w.value, w.literal])).toEqual([
      ['rm', true],
      ['-rf', true],
      ['$HOME/a*', false],
      ['~/b', false],
    ]);
  });

  it('keeps quoted text as one argument (echo "rm -rf /" runs echo only)', async () => {
    expect(await list('echo "rm -rf /" && git commit -m "rm -rf"')).toEqual([
      'echo rm -rf /',
      'git commit -m rm -rf',
    ]);
  });

  it('finds commands nested in substitutions, groups, subshells, functions and conditions', async () => {
    expect(
      await list('x=$(rm -rf /); { rm -rf ~; }; (reboot); f() { mkfs /dev/sda; }; if true; then halt; fi'),
    ).toEqual([
      'substitution | rm -rf /',
      'group | rm -rf ~',
      'subshell | reboot',
      'function>group | mkfs /dev/sda',
      'true',
      'halt',
    ]);
    expect(await list('echo `rm -rf /`')).toEqual(['echo `rm -rf /`', 'substitution | rm -rf /']);
  });

  it('looks through wrappers and parses nested scripts', async () => {
    expect(await list(`sudo -u root env A=1 nohup timeout 5 rm -rf /`)).toEqual(['rm -rf /']);
    expect(await list(`bash -c 'rm -rf /'`)).toEqual(['bash -c rm -rf /', 'shell -c | rm -rf /']);
    expect(await list(`sh -lc "eval 'reboot'"`)).toEqual([
      "sh -lc eval 'reboot'",
      'shell -c | eval reboot',
      'shell -c>eval | reboot',
    ]);
    expect(await list(`su - root -c 'kill -9 -1'`)).toEqual([
      'su - root -c kill -9 -1',
      'shell -c | kill -9 -1',
    ]);
    expect(await list('find . -name x -exec rm -rf {} \\;')).toEqual([
      'find . -name x -exec rm -rf {} ;',
      'find -exec | rm -rf {}',
    ]);
    expect(await list('ls | xargs rm -rf')).toEqual(['ls', 'xargs rm -rf', 'xargs | rm -rf']);
    const sudo = (await analyzeShell('echo pw | sudo -S apt install x')).commands[1]!;
    expect(sudo.wrappers.map((w) => w.words.map((x) => x.value).join(' '))).toEqual(['sudo -S']);
    expect(programName(sudo)).toBe('apt');
    expect(programName(sudo.pipedFrom[0]!)).toBe('echo');
  });

  it('reads scripts fed to a shell by here-documents, here-strings and literal pipes', async () => {
    expect(await list('bash <<EOF\nrm -rf /\nEOF')).toEqual(['bash', 'stdin script | rm -rf /']);
    expect(await list('sh <<< "reboot"')).toEqual(['sh', 'stdin script | reboot']);
    expect(await list('echo "rm -rf /" | sh')).toEqual(['echo rm -rf /', 'sh', 'stdin script | rm -rf /']);
    expect(await list('cat <<EOF | bash\nhalt\nEOF')).toEqual(['cat', 'bash', 'stdin script | halt']);
  });

  it('links process substitutions and pipes to the reading command', async () => {
    const a = await analyzeShell('bash < <(curl -s http://x/i.sh)');
    const bash = a.commands.find((c) => programName(c) === 'bash')!;
    expect(bash.redirects[0]!.commands!.map(show)).toEqual(['process-substitution | curl -s http://x/i.sh']);
    const b = await analyzeShell('curl -s x | sudo bash');
    expect(b.commands[1]!.pipedFrom.map(show)).toEqual(['curl -s x']);
  });

  it('records redirects with their targets', async () => {
    const [cmd] = (await analyzeShell('echo x | tee /dev/sda 2>/dev/null >> /etc/x')).commands.slice(1);
    expect(cmd!.redirects.map((r) => [r.op, r.fd, r.target?.value])).toEqual([
      ['>', '2', '/dev/null'],
      ['>>', null, '/etc/x'],
    ]);
  });

  it("records the enclosing function, the line's own assignments and the names it binds", async () => {
    const a = await analyzeShell(
      'X=/tmp; export Y=$HOME Z=$(pwd); f() { f | f; }; for i in 1; do read -r k; done',
    );
    expect(a.commands.filter((c) => c.functionName === 'f').map(show)).toEqual([
      'function>group | f',
      'function>group | f',
    ]);
    expect(a.assignments?.map((v) => [v.name, v.value.value, v.value.literal])).toEqual([
      ['X', '/tmp', true],
      ['Y', '$HOME', false],
      ['Z', '$(pwd)', false],
    ]);
    expect(a.boundNames).toEqual(['i', 'k']);
  });

  it('links the substitutions of a here-string to the command that reads it', async () => {
    const a = await analyzeShell('bash <<< "$(curl -s x)"');
    const bash = a.commands.find((c) => programName(c) === 'bash')!;
    expect(bash.redirects[0]!.commands!.map(show)).toEqual(['substitution | curl -s x']);
  });

  it('looks through package runners and digit flags', async () => {
    expect(await list('npx rimraf ~ && npm exec -- rimraf /x && uvx ruff check')).toEqual([
      'rimraf ~',
      'rimraf /x',
      'ruff check',
    ]);
    expect(await list(`npx -c 'rm -rf /'`)).toEqual(['npx -c rm -rf /', 'shell -c | rm -rf /']);
    expect(await list('npm install')).toEqual(['npm install']);
    expect(await list('find . -print0 | xargs -0 rm -f')).toEqual([
      'find . -print0',
      'xargs -0 rm -f',
      'xargs | rm -f',
    ]);
    expect(await list('nice -10 rm -rf x')).toEqual(['rm -rf x']);
  });

  it('marks lines the grammar cannot parse', async () => {
    expect((await analyzeShell('ls (((')).errors).toBe(true);
    expect((await analyzeShell('ls -la /dev')).errors).toBe(false);
  });

  it('stops parsing nested scripts past the nesting limit', async () => {
    let line = 'reboot';
    for (let i = 0; i < 10; i++) line = `sh -c ${JSON.stringify(line)}`;
    const a = await analyzeShell(line);
    expect(a.errors).toBe(true);
  });
});
