import { describe, expect, it } from 'vitest';
import { COMMAND_VARIABLES, optionScripts } from './option-scripts.js';
import { literalWord } from './words.js';

/** `optionScripts` of a command line split on spaces (each word literal), and the stdin flag. */
function scriptsOf(line: string): { scripts: string[]; readsStdinScript: boolean } {
  const argv = line.split(' ').map(literalWord);
  const out = { readsStdinScript: false };
  const scripts = optionScripts(argv, argv[0]!.value, out);
  return { scripts, readsStdinScript: out.readsStdinScript };
}

describe('optionScripts', () => {
  it('finds the shell commands of git settings, ssh options and operands, and tar options', () => {
    expect(scriptsOf('git -c alias.x=!rm -c core.pager=less x').scripts).toEqual(['less', 'rm']);
    // an alias runs only when invoked, through plain aliases too; git refuses a cycle
    expect(scriptsOf('git -c alias.x=!rm -c core.pager=less status').scripts).toEqual(['less']);
    expect(scriptsOf('git -c alias.a=b -c alias.B=!reboot a').scripts).toEqual(['reboot']);
    expect(scriptsOf('git -c alias.a=b -c alias.b=a a').scripts).toEqual([]);
    // a sub-command only known when it runs: every shell alias counts
    const dynamic = 'git -c alias.x=!rm'.split(' ').map(literalWord);
    dynamic.push({ raw: '$SUB', value: '$SUB', literal: false, glob: false, substitution: false });
    expect(optionScripts(dynamic, 'git', { readsStdinScript: false })).toEqual(['rm']);
    expect(scriptsOf('ssh -o ProxyCommand=nc -p 22 host rm x').scripts).toEqual(['nc', 'rm x']);
    expect(scriptsOf('tar --to-command=sh -x --checkpoint-action=exec=id').scripts).toEqual(['sh', 'id']);
  });

  it('leaves plain options alone and marks programs that run their stdin', () => {
    expect(scriptsOf('git -c user.name=x status').scripts).toEqual([]);
    expect(scriptsOf('at now')).toEqual({ scripts: [], readsStdinScript: true });
    expect(scriptsOf('at -l')).toEqual({ scripts: [], readsStdinScript: false });
  });

  it('lists the variables whose value programs run', () => {
    expect(COMMAND_VARIABLES.has('GIT_SSH_COMMAND')).toBe(true);
    expect(COMMAND_VARIABLES.has('HOME')).toBe(false);
  });
});
