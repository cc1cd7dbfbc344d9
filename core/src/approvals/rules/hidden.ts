/**
 * Scripts a line builds as text and then runs, recovered so the floor can judge them too (mode
 * `off` runs the asked classes `pipe-into-shell`, `eval-command`, `decode-pipe-shell` … without
 * asking, so a catastrophic command must not hide behind them):
 * - literal text given to a code reader: `echo … | base64 -d | sh` (decoded), `printf 'rm\x20-rf
 *   /' | bash` (escapes decoded), `eval "$(echo rm -rf /)"`, `$(printf reboot)`;
 * - shell strings in interpreter code: `python3 -c "os.system('reboot')"`, `perl -e 'system
 *   "rm -rf /"'`, `subprocess.run(["rm", "-rf", "/"])`, backticks and `qx{}`;
 * - a command substitution whose output the line fixes: `rm -rf "$(echo /)"`;
 * - recursive deletes in interpreter code, read as `rm -rf`: `shutil.rmtree('/')`,
 *   `fs.rmSync(os.homedir…)` with a literal path, `FileUtils.rm_rf('/etc')`;
 * - a file the line writes with literal text and then runs: `echo 'reboot' > x.sh; sh x.sh`.
 * The analyser already parses a plain `echo … | sh`, here-documents and `bash -c` strings.
 */
import type { SimpleCommand } from '../shell/analyze.js';
import { decodeAnsiC } from '../shell/words.js';
import { programName, writes } from './argv.js';
import { childrenOf, codeSource, isDecoder, runsStdin, SHELLS, stdinProducers } from './programs.js';
import { runFile } from './run-written.js';
import type { RuleContext } from './types.js';

/** Most recovered text judged per line (the rest is not looked at). */
const MAX_TEXT = 64 * 1024;

/** What `echo`/`printf` print, escapes decoded the way they would be; undefined when not literal. */
function printed(cmd: SimpleCommand): string | undefined {
  const name = programName(cmd);
  if (name !== 'echo' && name !== 'printf') return undefined;
  const words = cmd.argv.slice(1);
  if (words.some((w) => w.substitution)) return undefined;
  let values = words.map((w) => w.value);
  let escapes = name === 'printf';
  if (name === 'echo') {
    while (values[0] && /^-[neE]+$/.test(values[0])) {
      if (values[0].includes('e')) escapes = true;
      values = values.slice(1);
    }
  }
  const text = values.join(' ');
  return escapes ? decodeAnsiC(text.replace(/%%/g, '%')) : text;
}

/** Decodes what a decoder (`base64 -d`, `xxd -r -p`) makes of `input`. */
function decoded(cmd: SimpleCommand, input: string): string | undefined {
  const name = programName(cmd);
  try {
    if (
      name === 'base64' ||
      name === 'gbase64' ||
      (name === 'openssl' && cmd.argv.some((w) => /base64|-a/.test(w.value)))
    )
      return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (name === 'xxd' && cmd.argv.some((w) => /^-[a-z]*p/.test(w.value)))
      return Buffer.from(input.replace(/[^0-9a-f]/gi, ''), 'hex').toString('utf8');
  } catch {
    /* not decodable */
  }
  return undefined;
}

/** The text a command writes to stdout when the line fixes it: printed, fed to `cat`, decoded. */
export function producedText(cmd: SimpleCommand, depth = 0): string | undefined {
  if (depth > 4) return undefined;
  const own = printed(cmd);
  if (own !== undefined) return own;
  const fed = cmd.redirects.filter((r) => r.op.startsWith('<<') && r.text !== undefined).map((r) => r.text!);
  const piped = cmd.pipedFrom.map((p) => producedText(p, depth + 1));
  const input =
    fed.length > 0
      ? fed.join('\n')
      : piped.length > 0 && piped.every((t) => t !== undefined)
        ? piped.join('\n')
        : undefined;
  if (input === undefined) return undefined;
  const name = programName(cmd);
  if (name === 'cat' && cmd.argv.length === 1) return input;
  if (isDecoder(cmd)) return decoded(cmd, input);
  return undefined;
}

/** Calls that run a shell string, in the interpreters' own code. */
const SHELL_CALL =
  /\b(?:system|exec|execSync|spawnSync|popen|Popen|call|check_call|check_output|run|getoutput|getstatusoutput|shell_exec|passthru|proc_open)\s*\(?\s*(\[[^\]]*\]|(['"])(?:\\.|(?!\2)[^\\])*\2)/g;
const BACKTICKS = /`([^`]+)`|\bqx\s*[{(]([^})]*)[})]/g;

/** The shell commands interpreter code hands to a shell. */
function shellStrings(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(SHELL_CALL)) {
    const arg = m[1]!;
    const strings = [...arg.matchAll(/(['"])((?:\\.|(?!\1)[^\\])*)\1/g)].map((s) =>
      s[2]!.replace(/\\(.)/g, '$1'),
    );
    out.push(arg.startsWith('[') ? strings.join(' ') : (strings[0] ?? ''));
  }
  for (const m of code.matchAll(BACKTICKS)) out.push(m[1] ?? m[2] ?? '');
  return out.filter(Boolean);
}

/**
 * `cmd` as text with each command substitution of a word replaced by the text it prints when the
 * line fixes it (`rm -rf "$(echo /)"`, `$(printf reboot)`); undefined when it has none, or one
 * whose output cannot be known.
 */
function withSubstitutions(cmd: SimpleCommand, ctx: RuleContext): string | undefined {
  if (!cmd.argv.some((w) => w.substitution)) return undefined;
  const subs = childrenOf(cmd, ctx.analysis).filter((s) => s.via.at(-1) === 'substitution');
  const words: string[] = [];
  for (const w of cmd.argv) {
    let raw = w.raw;
    for (const s of w.substitution ? subs : []) {
      const form = [`$(${s.text})`, `\`${s.text}\``].find((f) => raw.includes(f));
      if (!form) continue;
      const text = producedText(s);
      if (text === undefined) return undefined;
      raw = raw.replace(form, text.replace(/\n+$/, ''));
    }
    if (w.substitution && /\$\(|`/.test(raw)) return undefined;
    words.push(raw);
  }
  return words.join(' ');
}

/** Interpreter calls that delete a folder recursively, with a literal path (`shutil.rmtree('/')`). */
const NATIVE_DELETE =
  /\b(?:rmtree|rm_rf|rm_r|remove_dir_all|rmSync|rimraf(?:\.sync)?|removeSync|remove_tree)\s*\(\s*(os\.path\.expanduser\(\s*)?(['"])((?:\\.|(?!\2)[^\\])*)\2/g;

/** A shell word for `text` taken literally. */
const quote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;

/** The recursive deletes interpreter code makes, as `rm -rf` lines (`~` expanded only where the code expands it). */
function nativeDeletes(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(NATIVE_DELETE)) {
    const path = m[3]!;
    const tilde = m[1] !== undefined && (path === '~' || path.startsWith('~/'));
    out.push(`rm -rf -- ${tilde ? `~/${path.length > 2 ? quote(path.slice(2)) : ''}` : quote(path)}`);
  }
  return out;
}

/**
 * Interpreter calls that signal every process: `os.kill(-1, 9)`, `process.kill(-1)`,
 * `Process.kill(9, -1)` (Ruby), `kill 9, -1` (Perl).
 */
const NATIVE_KILL_ALL =
  /\b(?:os\.kill|process\.kill|posix\.kill)\s*\(\s*-1\s*[,)]|\bProcess\.kill\s*\(?\s*[^,()]+,\s*-1\b|\bkill\s*\(?\s*['"]?-?\w+['"]?\s*,\s*-1\b/;

/** The scripts of the line that the analyser could not see (see the file comment). */
export function hiddenScripts(ctx: RuleContext): string[] {
  const out: string[] = [];
  const commands = ctx.analysis.commands;
  for (const cmd of commands) {
    if (runsStdin(cmd)) {
      for (const p of stdinProducers(cmd)) {
        const text = producedText(p);
        if (text !== undefined) out.push(text);
      }
    }
    const filled = withSubstitutions(cmd, ctx);
    if (filled !== undefined) out.push(filled);
    const src = codeSource(cmd);
    if (src && !SHELLS.has(programName(cmd))) {
      const codes = src.kind === 'inline' ? [src.text.value] : [];
      if (src.kind === 'stdin') for (const r of cmd.redirects) if (r.text !== undefined) codes.push(r.text);
      for (const code of codes) {
        out.push(...shellStrings(code), ...nativeDeletes(code));
        if (NATIVE_KILL_ALL.test(code)) out.push('kill -9 -1');
      }
    }
  }
  // a file written with fixed text, then run
  for (const cmd of commands) {
    const file = runFile(cmd);
    if (!file) continue;
    const paths = ctx.paths(file);
    for (const w of commands) {
      if (w.index >= cmd.index) break;
      const target = writes(w).find(
        (x) => (x.how === 'redirect' || x.how === 'tee') && ctx.paths(x.word).some((p) => paths.includes(p)),
      );
      if (!target) continue;
      const source = target.how === 'tee' ? w.pipedFrom[0] : w;
      const text = source ? producedText(source) : undefined;
      if (text !== undefined) out.push(text);
    }
  }
  const seen = new Set<string>();
  let size = 0;
  return out.filter((t) => {
    if (seen.has(t) || size + t.length > MAX_TEXT) return false;
    seen.add(t);
    size += t.length;
    return true;
  });
}
