/**
 * Deleting files: recursive deletes, deletes outside the project, deletes as root, computed file
 * lists (`find -delete`, `find -exec rm`, `xargs rm`), `rimraf` outside the project, destroying
 * file contents — and the floor: deleting `/`, the user's home or a top-level system folder, by
 * any of these tools (`rm -rf /`, `rm -rf ~/*`, `find / -delete`, `npx rimraf ~`, `rsync --delete
 * empty/ /etc`, `echo / | xargs rm -rf`), or moving one away (`mv /etc /tmp/x`).
 *
 * Targets: the paths deleted (`ctx.paths`); a word whose value cannot be known is `?<word>`, and
 * arguments read from input (`xargs`) are `?input` unless the input is literal text.
 */
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { literalWord } from '../shell/words.js';
import { has, parseArgs, pathTargets, programName, within, writes, type ParsedArgs } from './argv.js';
import { protectedTarget } from './programs.js';
import type { CommandRule, RuleContext } from './types.js';

/** Programs that delete their operands. */
const DELETERS = new Set(['rm', 'unlink', 'shred', 'srm', 'wipe', 'rmdir']);

const rmArgs = (cmd: SimpleCommand): ParsedArgs => parseArgs(cmd.argv, { long: ['interactive'] });
const recursive = (p: ParsedArgs): boolean => has(p, 'r', 'R', 'recursive');

/**
 * The arguments a command gets from its input when that input is fixed by the line: `echo / |
 * xargs rm -rf`, `echo ~ | xargs …` (known values expanded), `xargs rm -rf <<< ~`.
 */
function inputWords(cmd: SimpleCommand, ctx: RuleContext): ShellWord[] | undefined {
  if (!cmd.argsFromInput || cmd.via.at(-1) !== 'xargs') return undefined;
  const values: string[] = [];
  for (const p of cmd.pipedFrom) {
    const name = programName(p);
    if (name !== 'echo' && name !== 'printf') return undefined;
    for (const [i, w] of p.argv.slice(1).entries()) {
      if (i === 0 && /^-[neE]+$/.test(w.value)) continue;
      if (w.literal && !w.value.includes('\\')) values.push(...w.value.split(/\s+/));
      // `printf '/\0'`: the separators printf writes (NUL, newline, tab) split the words too
      else if (w.literal && name === 'printf' && /^(?:[^\\%]|\\[0ntr\\])*$/.test(w.value))
        values.push(
          ...w.value.replace(/\\([0ntr\\])/g, (_m, c: string) => (c === '\\' ? '\\' : ' ')).split(/\s+/),
        );
      else if (!w.substitution && ctx.knownValue?.(w)) values.push(...ctx.paths(w));
      else return undefined;
    }
  }
  for (const r of cmd.parent?.redirects ?? [])
    if (r.op === '<<<' && r.text !== undefined) values.push(...r.text.split(/\s+/));
  if (values.length === 0) return undefined;
  return values
    .filter(Boolean)
    .map((v) => ({ ...literalWord(v), literal: !/[*?[]/.test(v), glob: /[*?[]/.test(v) }));
}

/** A deleter's operands with the words it reads from literal input. */
function operandsOf(cmd: SimpleCommand, p: ParsedArgs, ctx: RuleContext): ShellWord[] {
  return [...p.operands, ...(inputWords(cmd, ctx) ?? [])];
}

/** Targets of a deleter: its operands' paths, plus `?input` for arguments read at run time. */
function deleteTargets(cmd: SimpleCommand, p: ParsedArgs, ctx: RuleContext): string[] {
  const out = pathTargets(ctx, operandsOf(cmd, p, ctx));
  if (cmd.argsFromInput && !inputWords(cmd, ctx)) out.push('?input');
  return out;
}

/** `find`'s starting points and its expression. */
export function findParts(cmd: SimpleCommand): { starts: ShellWord[]; expression: ShellWord[] } {
  const argv = cmd.argv;
  let i = 1;
  while (i < argv.length && /^-(?:[HLP]+|D|O\d?)$/.test(argv[i]!.value)) i += argv[i]!.value === '-D' ? 2 : 1;
  const starts: ShellWord[] = [];
  while (i < argv.length && !/^[-(!),]/.test(argv[i]!.value)) starts.push(argv[i++]!);
  return { starts: starts.length > 0 ? starts : [literalWord('.')], expression: argv.slice(i) };
}

/** Tests that narrow what `find` matches (a name, a path, a time, a size, an owner …). */
const FIND_FILTERS =
  /^-(?:i?name|i?path|i?wholename|i?regex|i?lname|newer\w*|[amc](?:time|min)|size|user|group|uid|gid|perm|empty|links|inum|samefile|nouser|nogroup|used|readable|writable|executable|context|fstype)$/;

/** True when `find` acts on everything below its starting points (no narrowing test). */
const unfiltered = (find: SimpleCommand): boolean =>
  !findParts(find).expression.some((w) => FIND_FILTERS.test(w.value));

/** The `find` that runs `cmd` through `-exec`, if any. */
function execFind(cmd: SimpleCommand): SimpleCommand | undefined {
  for (let c: SimpleCommand | null = cmd; c; c = c.parent) {
    if (c.via.at(-1) === 'find -exec' && c.parent && programName(c.parent) === 'find') return c.parent;
  }
  return undefined;
}

const ROOT_WRAPPERS = new Set(['sudo', 'doas', 'run0', 'pkexec', 'su', 'runuser']);

/** True when `cmd` runs as root: under sudo/doas/… or inside a script such a command runs. */
function asRoot(cmd: SimpleCommand): boolean {
  for (let c: SimpleCommand | null = cmd; c; c = c.parent) {
    if (c.wrappers.some((w) => ROOT_WRAPPERS.has(w.name)) || (c !== cmd && ROOT_WRAPPERS.has(programName(c))))
      return true;
  }
  return false;
}

const RECURSIVE_DELETE: CommandRule = {
  key: 'recursive-delete',
  description: 'recursive delete (rm -r)',
  match(cmd, ctx) {
    if (programName(cmd) !== 'rm') return null;
    const p = rmArgs(cmd);
    return recursive(p) ? deleteTargets(cmd, p, ctx) : null;
  },
};

const DELETE_ROOT_PATH: CommandRule = {
  key: 'delete-root-path',
  description: 'delete / , the home folder or a top-level system folder',
  floor: true,
  match(cmd, ctx) {
    const name = programName(cmd);
    const hit = (words: ShellWord[]): string[] | null => {
      const found = new Set<string>();
      for (const w of words) {
        const p = protectedTarget(w, cmd, ctx);
        if (p) found.add(p);
      }
      return found.size > 0 ? [...found] : null;
    };
    const find = DELETERS.has(name) ? execFind(cmd) : undefined;
    if (find && unfiltered(find) && cmd.argv.some((w) => w.value === '{}')) {
      const found = hit(findParts(find).starts);
      if (found) return found;
    }
    if (DELETERS.has(name) && cmd.via.at(-1) === 'xargs') {
      // the paths of an unfiltered `find` below a protected folder: `find / | xargs rm -rf`
      for (const f of cmd.pipedFrom) {
        if (programName(f) !== 'find' || !unfiltered(f)) continue;
        const found = hit(findParts(f).starts);
        if (found) return found;
      }
    }
    if (name === 'rm' || name === 'srm' || name === 'wipe') {
      const p = rmArgs(cmd);
      return recursive(p) ? hit(operandsOf(cmd, p, ctx)) : null;
    }
    if (name === 'rimraf') return hit(parseArgs(cmd.argv).operands);
    // moving a protected folder away removes it from where the system needs it
    if (name === 'mv')
      return hit(
        writes(cmd)
          .filter((w) => w.how === 'move-source')
          .map((w) => w.word),
      );
    if (name === 'find') {
      const parts = findParts(cmd);
      if (!parts.expression.some((w) => w.value === '-delete') || !unfiltered(cmd)) return null;
      return hit(parts.starts);
    }
    if (name === 'rsync' && cmd.argv.some((w) => /^--(?:delete|del$|remove-source)/.test(w.value))) {
      return hit(writes(cmd).map((w) => w.word));
    }
    return null;
  },
};

const DELETE_ABSOLUTE_PATH: CommandRule = {
  key: 'delete-absolute-path',
  description: 'delete by absolute path',
  match(cmd, ctx) {
    if (programName(cmd) !== 'rm') return null;
    const outside = rmArgs(cmd).operands.filter((w) => /^(?:\/|~|\$\{?HOME\b)/.test(w.value));
    return outside.length > 0 ? pathTargets(ctx, outside) : null;
  },
};

const SUDO_RM: CommandRule = {
  key: 'sudo-rm',
  description: 'delete as root (sudo rm)',
  match(cmd, ctx) {
    if (programName(cmd) !== 'rm' || !asRoot(cmd)) return null;
    return deleteTargets(cmd, rmArgs(cmd), ctx);
  },
};

const FIND_DELETE: CommandRule = {
  key: 'find-delete',
  description: 'find -delete',
  match(cmd, ctx) {
    if (programName(cmd) !== 'find') return null;
    const parts = findParts(cmd);
    return parts.expression.some((w) => w.value === '-delete') ? pathTargets(ctx, parts.starts) : null;
  },
};

const FIND_EXEC_RM: CommandRule = {
  key: 'find-exec-rm',
  description: 'find -exec rm',
  match(cmd, ctx) {
    if (!DELETERS.has(programName(cmd))) return null;
    const find = execFind(cmd);
    return find ? pathTargets(ctx, findParts(find).starts) : null;
  },
};

const XARGS_RM: CommandRule = {
  key: 'xargs-rm',
  description: 'xargs rm (delete a computed list of files)',
  match(cmd, ctx) {
    if (!DELETERS.has(programName(cmd)) || !cmd.via.includes('xargs')) return null;
    return deleteTargets(cmd, rmArgs(cmd), ctx);
  },
};

const RIMRAF_OUTSIDE: CommandRule = {
  key: 'rimraf-outside',
  description: 'delete recursively outside the project (rimraf /, ~ or ..)',
  match(cmd, ctx) {
    if (programName(cmd) !== 'rimraf') return null;
    const out = new Set<string>();
    for (const w of parseArgs(cmd.argv).operands) {
      const found = ctx.paths(w);
      if (found.length === 0) out.add(`?${w.raw}`);
      for (const p of found) if (!within(ctx.cwd, p)) out.add(p);
    }
    return out.size > 0 ? [...out] : null;
  },
};

const DESTROY_FILE_CONTENTS: CommandRule = {
  key: 'destroy-file-contents',
  description: 'destroy file contents beyond recovery (shred)',
  match(cmd, ctx) {
    const name = programName(cmd);
    if (name !== 'shred' && name !== 'wipe' && name !== 'srm') return null;
    return deleteTargets(cmd, parseArgs(cmd.argv, { valued: 'nsx', long: ['iterations', 'size'] }), ctx);
  },
};

/** The rules about deleting files. */
export const DELETE_RULES: readonly CommandRule[] = [
  DELETE_ROOT_PATH,
  RECURSIVE_DELETE,
  DELETE_ABSOLUTE_PATH,
  SUDO_RM,
  FIND_DELETE,
  FIND_EXEC_RM,
  XARGS_RM,
  RIMRAF_OUTSIDE,
  DESTROY_FILE_CONTENTS,
];
