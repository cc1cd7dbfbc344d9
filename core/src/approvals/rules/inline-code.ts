/**
 * Code the guard sees only as text: inline shell scripts (`bash -c`, `sh -lc`), scripts fed to a
 * shell on stdin (here-documents, here-strings, pipes), inline interpreter code (`python -c`,
 * `node -e`, `perl -e`, `ruby -e`, `php -r`, `osascript -e`, `pwsh -c`, `python3 - <<EOF`,
 * `awk '…system(…)…'`), `eval`, a command whose name comes from a variable or a command's output
 * (`$X -rf /`, `$(echo rm) …`), and sourcing a file. The analyser parses what it can of these
 * (its commands are judged too); these hits ask because what finally runs may differ (quoting,
 * variables, files changed by then).
 *
 * Targets: the inline code or fed text as written, the script file's path, or the dynamic word.
 */
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { pathTargets, programName, unknownTarget, within } from './argv.js';
import {
  codeSource,
  isDecoder,
  isDownloader,
  isInterpreter,
  runsStdin,
  SHELLS,
  stdinProducers,
  upstream,
} from './programs.js';
import type { CommandRule, RuleContext } from './types.js';

/** The texts of the here-documents and here-strings fed to `cmd`. */
const fedTexts = (cmd: SimpleCommand): string[] =>
  cmd.redirects.filter((r) => r.op.startsWith('<<') && r.text !== undefined).map((r) => r.text!);

const SHELL_INLINE_EXEC: CommandRule = {
  key: 'shell-inline-exec',
  description: 'run an inline shell script (bash -c / sh -c)',
  match(cmd) {
    if (!SHELLS.has(programName(cmd))) return null;
    const src = codeSource(cmd);
    if (src?.kind === 'inline') return [src.text.value];
    // `bash -c` with its script missing (bash refuses it; asked rather than guessed)
    const cluster = cmd.argv.slice(1).some((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value));
    return src?.kind === 'none' && cluster ? ['?missing-script'] : null;
  },
};

const SHELL_HEREDOC: CommandRule = {
  key: 'shell-heredoc',
  description: 'run a shell script from a here-document',
  match(cmd) {
    if (!SHELLS.has(programName(cmd)) || codeSource(cmd)?.kind !== 'stdin') return null;
    const texts = fedTexts(cmd);
    return texts.length > 0 ? texts : null;
  },
};

/** awk programs that run commands (`system()`, `| getline`, `print | "cmd"`). */
const AWK_RUNS = /\bsystem\s*\(|\|\s*getline|\|&|print[^;]*\|\s*"/;

const SCRIPT_INLINE_EXEC: CommandRule = {
  key: 'script-inline-exec',
  description: 'run inline code the guard cannot inspect (python -c / node -e / perl -e / python3 - <<EOF)',
  match(cmd) {
    const name = programName(cmd);
    if (/^[gmn]?awk$/.test(name)) {
      const code = cmd.argv.slice(1).find((w) => !w.value.startsWith('-'));
      return code && AWK_RUNS.test(code.value) ? [code.value] : null;
    }
    if (SHELLS.has(name) || !isInterpreter(name)) return null;
    const src = codeSource(cmd);
    if (src?.kind === 'inline') return [src.text.value];
    if (src?.kind === 'stdin') {
      const texts = fedTexts(cmd);
      if (texts.length > 0) return texts;
    }
    return null;
  },
};

/** What kind of text flows into a shell's or interpreter's stdin. */
function stdinKind(cmd: SimpleCommand, ctx: RuleContext): 'download' | 'decode' | 'other' | undefined {
  if (!runsStdin(cmd)) return undefined;
  const producers = stdinProducers(cmd);
  if (producers.length === 0) return undefined;
  const up = upstream(producers, ctx.analysis);
  if (up.some(isDownloader)) return 'download';
  if (up.some(isDecoder)) return 'decode';
  return 'other';
}

const PIPE_INTO_SHELL: CommandRule = {
  key: 'pipe-into-shell',
  description: 'pipe generated text into a shell or interpreter',
  match(cmd, ctx) {
    return stdinKind(cmd, ctx) === 'other' && cmd.pipedFrom.length > 0 ? [programName(cmd)] : null;
  },
};

const EVAL_COMMAND: CommandRule = {
  key: 'eval-command',
  description: 'eval a constructed command',
  match(cmd) {
    if (programName(cmd) !== 'eval') return null;
    return [
      cmd.argv
        .slice(1)
        .map((w) => w.value)
        .join(' '),
    ];
  },
};

/**
 * True when the program word is computed: a variable (`$X`, `"${cmd[@]}"`, `$a$b`) or a command's
 * output (`$(echo rm)`). A variable folder before a literal name (`$HOME/bin/tool`) is not: the
 * program's name is known.
 */
export function computedProgram(w: ShellWord | undefined): boolean {
  if (!w || w.literal) return false;
  if (w.substitution) return true;
  if (!/\$/.test(w.value)) return false;
  return !/^\$\{?[A-Za-z_]\w*\}?\/(?:[^$`/]+\/)*[^$`/]+$/.test(w.value);
}

const VARIABLE_AS_COMMAND: CommandRule = {
  key: 'variable-as-command',
  description: "run a command whose name comes from a variable or a command's output (hides what runs)",
  match(cmd) {
    return computedProgram(cmd.argv[0]) ? [unknownTarget(cmd.argv[0]!)] : null;
  },
};

/** A virtual environment's activation script, relative to the project. */
const VENV_ACTIVATE = /^(?:\.\/)?(?:[\w.-]+\/)*(?:bin|Scripts)\/activate(?:\.(?:fish|csh|sh|bash|zsh))?$/;

const SOURCE_FILE: CommandRule = {
  key: 'source-file',
  description: 'run a file in the current shell (source / .), which the guard cannot inspect',
  match(cmd, ctx) {
    const name = programName(cmd);
    if ((name !== 'source' && name !== '.') || cmd.argv.length < 2) return null;
    // a virtual environment's activation script inside the project (`source .venv/bin/activate`)
    // only sets variables; running a project file is not flagged elsewhere either
    const file = cmd.argv[1]!;
    if (file.literal && VENV_ACTIVATE.test(file.value) && ctx.paths(file).every((p) => within(ctx.cwd, p)))
      return null;
    return pathTargets(ctx, [file]);
  },
};

/** The rules about code the guard sees only as text. */
export const INLINE_CODE_RULES: readonly CommandRule[] = [
  SHELL_INLINE_EXEC,
  SHELL_HEREDOC,
  SCRIPT_INLINE_EXEC,
  PIPE_INTO_SHELL,
  EVAL_COMMAND,
  VARIABLE_AS_COMMAND,
  SOURCE_FILE,
];

export { stdinKind };
