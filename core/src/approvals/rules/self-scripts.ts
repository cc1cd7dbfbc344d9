/**
 * The script text a command runs, for the rules that look inside scripts (self-home.ts,
 * self-cli.ts): an interpreter's script file (read when it exists and is < 256 KiB), its inline
 * code (`python3 -c`, `node -e`, `perl -e` …), a here-document or here-string fed to it, literal
 * `echo`/`printf` text piped into it, and the text of a script run by path (`./deploy.sh`) when
 * it starts with `#!`.
 */
import { programName, type ShellWord, type SimpleCommand } from '../shell/analyze.js';
import { readHead } from './self-places.js';
import type { RuleContext } from './types.js';

/** Programs that run a script: name → options whose next word is a value, and inline-code options. */
const INTERPRETERS: Record<string, { valued: string[]; code: string[] }> = {
  node: {
    valued: ['-r', '--require', '--import', '--loader', '-C', '--conditions', '--input-type'],
    code: ['-e', '--eval', '-p', '--print'],
  },
  bun: { valued: ['-r', '--preload', '--cwd'], code: ['-e', '--eval', '-p', '--print'] },
  deno: { valued: ['--config', '-c', '--import-map'], code: [] },
  tsx: { valued: ['--tsconfig'], code: ['-e', '--eval', '-p', '--print'] },
  'ts-node': { valued: ['-P', '--project', '-r', '--require'], code: ['-e', '--eval', '-p', '--print'] },
  python: { valued: ['-W', '-X', '-Q'], code: ['-c'] },
  pypy: { valued: ['-W', '-X'], code: ['-c'] },
  perl: { valued: ['-I', '-M', '-m'], code: ['-e', '-E'] },
  ruby: { valued: ['-I', '-r'], code: ['-e'] },
  php: { valued: ['-c', '-d'], code: ['-r'] },
  lua: { valued: ['-l'], code: ['-e'] },
  rscript: { valued: [], code: ['-e'] },
  osascript: { valued: [], code: ['-e'] },
  pwsh: { valued: [], code: ['-c', '-command'] },
  sh: { valued: ['-o', '--rcfile', '--init-file'], code: [] },
  source: { valued: [], code: [] },
};
const SHELL_ALIASES = ['bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash', '.'];

/** The interpreter spec of a program name (`python3.12` → python, `nodejs` → node). */
function interpreter(name: string): (typeof INTERPRETERS)[string] | undefined {
  if (SHELL_ALIASES.includes(name)) return INTERPRETERS.sh;
  const base = name.replace(/^(python|pypy|ruby|perl|php|lua)[\d.]*$/, '$1').replace(/^nodejs$/, 'node');
  return INTERPRETERS[base];
}

/**
 * The scripts `cmd` runs, as `[label, text]`: the file's absolute path, or `<program> -c` /
 * `<program> <<` / `echo | <program>` for inline code and stdin (see the file comment).
 */
export function scripts(cmd: SimpleCommand, ctx: RuleContext): [string, string][] {
  const name = programName(cmd);
  const spec = interpreter(name);
  const out: [string, string][] = [];
  const first = cmd.argv[0];
  if (!spec) {
    // a program run by path (`./deploy.sh`): its own text, when it is a script
    if (first && first.value.includes('/')) {
      const file = ctx.paths(first)[0];
      const text = file ? readHead(file) : undefined;
      if (file && text?.startsWith('#!')) out.push([file, text]);
    }
    return out;
  }
  const args = cmd.argv.slice(1);
  let scriptWord: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (spec.code.includes(v)) {
      if (args[i + 1]) out.push([`${name} ${v}`, args[i + 1]!.value]);
      return out;
    }
    if (spec.valued.includes(v)) {
      i++;
      continue;
    }
    if (v === '-m' && name.startsWith('python')) return out; // a module, not a file
    if (v === '-' || v === '--') continue;
    if (v.startsWith('-')) continue;
    if ((name === 'deno' || name === 'bun') && v === 'run') continue;
    scriptWord = args[i];
    break;
  }
  if (scriptWord) {
    for (const file of ctx.paths(scriptWord).slice(0, 2)) {
      const text = readHead(file);
      if (text !== undefined && !text.includes('\0')) out.push([file, text]);
    }
  }
  for (const r of cmd.redirects) if (r.text !== undefined) out.push([`${name} <<`, r.text]);
  for (const p of cmd.pipedFrom) {
    const pn = programName(p);
    if (pn === 'echo' || pn === 'printf')
      out.push([
        `${pn} | ${name}`,
        p.argv
          .slice(1)
          .map((w) => w.value)
          .join(' '),
      ]);
  }
  return out;
}
