/**
 * How to spell the `hermes` command in hints and errors so the user can run it as printed: plain
 * `hermes` when that name on `$PATH` is this same program (a `node_modules/.bin` folder that npm
 * put on the PATH of `npm start` does not count), else the path of this executable
 * (`./bin/hermes` relative to the current folder when under it, else absolute), quoted for `sh`.
 */
import { realpathSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, relative } from 'node:path';

/** Inputs of `commandForm` (defaults: this process). */
export interface CommandFormInput {
  /** The executable this process runs (`process.argv[1]`). */
  script?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** realpath; throws for a missing file (tests pass a fake). */
  realpath?: (p: string) => string;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command form of this install. `hermes` when the script is not a `hermes` executable (tests,
 * other hosts) or when `hermes` on `PATH` resolves to the same file.
 */
export function commandForm(input: CommandFormInput = {}): string {
  const script = input.script ?? process.argv[1];
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const real = input.realpath ?? ((p: string) => realpathSync(p));
  if (!script) return 'hermes';
  let self: string;
  try {
    self = real(script);
  } catch {
    return 'hermes';
  }
  if (basename(self) !== 'hermes') return 'hermes';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    // npm and npx put the project's node_modules/.bin on the PATH of what they run (`npm start`):
    // the user's shell, where the hint is typed, does not have it
    if (!dir || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    try {
      if (real(join(dir, 'hermes')) === self) return 'hermes';
    } catch {
      // not in this folder
    }
  }
  const rel = relative(cwd, self);
  const form = !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel}` : self;
  return shellWord(form);
}

let cached: string | undefined;
/** `commandForm()` of this process, computed once. */
export function hermesCommand(): string {
  cached ??= commandForm();
  return cached;
}

/**
 * `message` with the commands it suggests in the form `cmd` (this install's, `hermes` when on
 * PATH): a quoted `` `hermes …` `` and a `(see hermes …)`. Core messages name plain `hermes`; the
 * CLI prints them through this. Other words `hermes` (a prefix `hermes:`, prose) stay.
 */
export function withCommandForm(message: string, cmd: string = hermesCommand()): string {
  if (cmd === 'hermes') return message;
  return message
    .replace(/`hermes (?=[a-z-])/g, `\`${cmd} `)
    .replace(/\(see hermes (?=[a-z])/g, `(see ${cmd} `);
}
