/**
 * The rule `option-runs-program`: a reading tool told to run a program through one of its options
 * (`sort --compress-program=sh`, `rg --pre CMD`, `rg --hostname-bin`, `ag --pager`, `man -P`/`-H`)
 * runs whatever that names, so the command asks; the program's own text is judged as a script too
 * (shell/option-scripts.ts), so `sort --compress-program='rm -rf /'` is refused.
 *
 * Targets: the tool, the option and the program as written.
 */
import { programName } from '../shell/analyze.js';
import { programOptions } from '../shell/option-scripts.js';
import type { CommandRule } from './types.js';

const OPTION_RUNS_PROGRAM: CommandRule = {
  key: 'option-runs-program',
  description:
    'arbitrary program execution through a tool option (sort --compress-program, rg --pre, man -P …)',
  match(cmd) {
    const name = programName(cmd);
    const found = programOptions(cmd.argv, name);
    return found.length > 0 ? found.map((o) => `${name} ${o.option} ${o.value}`) : null;
  },
};

/** The option-program rules. */
export const OPTION_PROGRAM_RULES: readonly CommandRule[] = [OPTION_RUNS_PROGRAM];
