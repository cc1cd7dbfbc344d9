/**
 * Destroying git history, branches or uncommitted work: force pushes (`--force`, `-f`,
 * `--force-with-lease`, `+ref`, `--mirror`), deleting remote refs (`--delete`, `:ref`,
 * `--prune`), `reset --hard`, `clean -f`, discarding changes (`checkout -- <paths>`,
 * `checkout .`, `checkout -f`, `restore <paths>`, `switch --discard-changes`), force-deleting or
 * overwriting branches (`branch -D`, `-d --force`, `-M`), deleting tags and refs, rewriting
 * history (`filter-branch`, `filter-repo`), dropping the safety nets (`reflog expire`,
 * `gc --prune=now`, `prune`), and dropping stashes. Safe neighbours (`branch -d`, `push`,
 * `checkout -b`, `restore --staged`, `reset HEAD file`) are not flagged.
 *
 * Targets: the repository folder (`-C`, else the working folder), and the remote, branches,
 * tags or paths acted on; a push without a refspec targets the current branch (read from
 * `.git/HEAD`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { literalWord } from '../shell/words.js';
import { has, parseArgs, pathTargets, programName, type ArgSpec, type ParsedArgs } from './argv.js';
import type { CommandRule, RuleContext } from './types.js';

/** A git invocation: its repository folder, sub-command and the words after it. */
interface GitCall {
  repo: string;
  sub: string;
  rest: ShellWord[];
}

const HERE: ShellWord = { raw: '.', value: '.', literal: true, glob: false, substitution: false };

/** Reads `git [global options] <sub> …`. */
function git(cmd: SimpleCommand, ctx: RuleContext): GitCall | undefined {
  if (programName(cmd) !== 'git') return undefined;
  const argv = cmd.argv;
  // the folder this git runs in: the line's working folder after the `cd`s before it (an entry
  // approved in one repository must not cover the same command after `cd ../other`)
  const here = ctx.pathsAt ? ctx.pathsAt(HERE, cmd) : [ctx.cwd];
  let repo = here[0] ?? '?unknown-folder';
  let i = 1;
  while (i < argv.length) {
    const v = argv[i]!.value;
    if (v === '-C' && argv[i + 1]) {
      repo = resolve(repo, argv[i + 1]!.value);
      i += 2;
    } else if (/^-(?:c|-git-dir|-work-tree|-namespace|-exec-path|-config-env)$/.test(v)) i += 2;
    else if (v.startsWith('-')) i++;
    else break;
  }
  let sub = (argv[i]?.value ?? '').toLowerCase();
  let rest = argv.slice(i + 1);
  // `git -c alias.p=push p --force`: a plain alias runs git again with its words first
  const aliases = gitAliases(argv.slice(0, i));
  for (let hop = 0; hop < 16 && aliases.has(sub); hop++) {
    const value = aliases.get(sub)!;
    if (value.startsWith('!')) break; // a shell alias: analyze.ts runs it as a script
    const words = value.trim().split(/\s+/).filter(Boolean);
    sub = (words[0] ?? '').toLowerCase();
    rest = [...words.slice(1).map(literalWord), ...rest];
    if (hop === 15) return undefined; // a cycle: git refuses to run it
  }
  return sub ? { repo, sub, rest } : undefined;
}

/** The aliases given with `-c alias.NAME=VALUE` among git's global options (names lower-case). */
function gitAliases(globals: readonly ShellWord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 1; i < globals.length; i++) {
    const v = globals[i]!.value;
    const setting =
      v === '-c' || v === '--config' ? globals[i + 1]?.value : v.startsWith('-c') ? v.slice(2) : undefined;
    const m = setting !== undefined ? /^alias\.([^=]+)=(.*)$/is.exec(setting) : null;
    if (m) out.set(m[1]!.toLowerCase(), m[2]!);
  }
  return out;
}

/** The words of a git sub-command parsed as options and operands. */
const gitArgs = (call: GitCall, spec: ArgSpec = {}): ParsedArgs =>
  parseArgs([{ raw: '', value: '', literal: true, glob: false, substitution: false }, ...call.rest], spec);

/** The current branch of the repository at `dir` (`.git/HEAD`), or undefined. */
export function currentBranch(dir: string): string | undefined {
  for (let d = dir, n = 0; n < 64; n++) {
    const dotGit = join(d, '.git');
    try {
      let head = join(dotGit, 'HEAD');
      if (statSync(dotGit).isFile()) {
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
        if (m) head = join(resolve(d, m[1]!.trim()), 'HEAD');
      }
      if (existsSync(head)) return /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(head, 'utf8'))?.[1]?.trim();
    } catch {
      /* not here */
    }
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return undefined;
}

const PUSH_SPEC: ArgSpec = { valued: 'o', long: ['push-option', 'receive-pack', 'exec', 'repo', 'signed'] };

/** A push's remote and refspecs; without refspecs the current branch. */
function pushTargets(call: GitCall, p: ParsedArgs): string[] {
  const [remote, ...refs] = p.operands.map((w) => w.value);
  const names = refs.map((r) => r.replace(/^\+/, ''));
  if (names.length === 0) names.push(currentBranch(call.repo) ?? '?current-branch');
  return [call.repo, remote ?? '?upstream', ...names];
}

const GIT_FORCE_PUSH: CommandRule = {
  key: 'git-force-push',
  description: 'git push --force (rewrites remote history)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'push') return null;
    const p = gitArgs(call, PUSH_SPEC);
    // git takes a unique prefix of a long option (`--forc`); `--repo R` leaves every operand a refspec
    const forcing = ['force', 'force-with-lease', 'force-if-includes', 'mirror'];
    const abbreviated = p.options.some(
      (o) => o.name.length >= 4 && forcing.some((f) => f.startsWith(o.name)),
    );
    const refspecs = has(p, 'repo') ? p.operands : p.operands.slice(1);
    const forced = has(p, 'f', ...forcing) || abbreviated || refspecs.some((w) => w.value.startsWith('+'));
    return forced ? pushTargets(call, p) : null;
  },
};

const GIT_PUSH_DELETE: CommandRule = {
  key: 'git-push-delete',
  description: 'git push --delete (deletes a remote branch or tag)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'push') return null;
    const p = gitArgs(call, PUSH_SPEC);
    const deleting =
      has(p, 'd', 'delete', 'prune') || p.operands.slice(1).some((w) => w.value.startsWith(':'));
    if (!deleting) return null;
    const [remote, ...refs] = p.operands.map((w) => w.value.replace(/^:/, ''));
    return [call.repo, remote ?? '?upstream', ...refs];
  },
};

const GIT_RESET_HARD: CommandRule = {
  key: 'git-reset-hard',
  description: 'git reset --hard (discards uncommitted changes)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'reset') return null;
    if (!call.rest.some((w) => /^--h(?:a(?:rd?)?)?$/.test(w.value))) return null;
    return [call.repo, ...gitArgs(call).operands.map((w) => w.value)];
  },
};

const GIT_CLEAN_FORCE: CommandRule = {
  key: 'git-clean-force',
  description: 'git clean -f (deletes untracked files)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'clean') return null;
    const p = gitArgs(call, { valued: 'e', long: ['exclude'] });
    return has(p, 'f', 'force') ? [call.repo, ...pathTargets(ctx, p.operands)] : null;
  },
};

/** Operands of `checkout` that are paths: after `--`, or `.`, `:/`, a glob, or an existing path. */
function discardedPaths(call: GitCall): ShellWord[] | undefined {
  const dash = call.rest.findIndex((w) => w.value === '--');
  if (dash >= 0) return dash + 1 < call.rest.length ? call.rest.slice(dash + 1) : undefined;
  const ops = gitArgs(call, { valued: 'bBU', long: ['orphan', 'conflict', 'pathspec-from-file'] }).operands;
  const paths = ops.filter(
    (w) => w.value === '.' || w.value === ':/' || w.glob || existsSync(resolve(call.repo, w.value)),
  );
  return paths.length > 0 ? paths : undefined;
}

const GIT_DISCARD_CHANGES: CommandRule = {
  key: 'git-discard-changes',
  description: 'git checkout/restore of paths (discards uncommitted changes)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (!call) return null;
    if (call.sub === 'checkout') {
      const p = gitArgs(call, { valued: 'bBU', long: ['orphan', 'conflict'] });
      if (has(p, 'b', 'B', 'orphan')) return null;
      if (has(p, 'f', 'force')) return [call.repo];
      const paths = discardedPaths(call);
      return paths ? [call.repo, ...pathTargets(ctx, paths)] : null;
    }
    if (call.sub === 'restore') {
      const p = gitArgs(call, { valued: 's', long: ['source', 'pathspec-from-file'] });
      if (has(p, 'S', 'staged') && !has(p, 'W', 'worktree')) return null;
      return p.operands.length > 0 ? [call.repo, ...pathTargets(ctx, p.operands)] : null;
    }
    if (call.sub === 'switch') {
      const p = gitArgs(call, { valued: 'cC', long: ['create', 'force-create', 'orphan'] });
      return has(p, 'f', 'force', 'discard-changes') ? [call.repo] : null;
    }
    if (call.sub === 'worktree' && call.rest[0]?.value === 'remove') {
      const p = gitArgs({ ...call, rest: call.rest.slice(1) });
      return has(p, 'f', 'force') ? [call.repo, ...pathTargets(ctx, p.operands)] : null;
    }
    return null;
  },
};

const GIT_BRANCH_DELETE: CommandRule = {
  key: 'git-branch-delete',
  description: 'force-delete or overwrite a git branch (git branch -D)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'branch') return null;
    const p = gitArgs(call, {
      valued: 'u',
      long: ['set-upstream-to', 'contains', 'merged', 'no-merged', 'sort', 'format', 'points-at'],
    });
    const force = has(p, 'f', 'force');
    // `-f NAME [START]` resets an existing branch elsewhere, losing what only it held
    const destroys =
      has(p, 'D', 'M', 'C') ||
      (force && (has(p, 'd', 'delete', 'm', 'move', 'c', 'copy') || p.operands.length > 0));
    return destroys ? [call.repo, ...p.operands.map((w) => w.value)] : null;
  },
};

const GIT_TAG_DELETE: CommandRule = {
  key: 'git-tag-delete',
  description: 'delete a git tag',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'tag') return null;
    const p = gitArgs(call, {
      valued: 'muF',
      long: ['message', 'local-user', 'file', 'contains', 'points-at', 'sort', 'format'],
    });
    return has(p, 'd', 'delete') ? [call.repo, ...p.operands.map((w) => w.value)] : null;
  },
};

const GIT_DELETE_REF: CommandRule = {
  key: 'git-delete-ref',
  description: 'delete or overwrite a git ref directly (git update-ref)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'update-ref' && call?.sub !== 'symbolic-ref') return null;
    const p = gitArgs(call, { valued: 'm' });
    const rewrites = call.sub === 'update-ref' && !has(p, 'stdin') && p.operands.length >= 2;
    return has(p, 'd', 'delete') || rewrites ? [call.repo, ...p.operands.map((w) => w.value)] : null;
  },
};

const GIT_REWRITE_HISTORY: CommandRule = {
  key: 'git-rewrite-history',
  description: 'rewrite git history (filter-branch, filter-repo)',
  match(cmd, ctx) {
    if (programName(cmd) === 'bfg' || programName(cmd) === 'git-filter-repo') return [ctx.cwd];
    const call = git(cmd, ctx);
    return call && /^(?:filter-branch|filter-repo)$/.test(call.sub) ? [call.repo] : null;
  },
};

const GIT_EXPIRE_HISTORY: CommandRule = {
  key: 'git-expire-history',
  description:
    'drop the reflog or unreachable commits (reflog expire, gc --prune=now): lost work cannot be recovered',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (!call) return null;
    const words = call.rest.map((w) => w.value);
    if (call.sub === 'reflog' && /^(?:expire|delete)$/.test(words[0] ?? '')) return [call.repo];
    if (call.sub === 'gc' && words.some((w) => /^--prune=(?:now|all)$/.test(w))) return [call.repo];
    if (call.sub === 'prune') return [call.repo];
    return null;
  },
};

const GIT_STASH_DROP: CommandRule = {
  key: 'git-stash-drop',
  description: 'drop git stashes (stash drop / clear)',
  match(cmd, ctx) {
    const call = git(cmd, ctx);
    if (call?.sub !== 'stash') return null;
    const verb = call.rest.find((w) => !w.value.startsWith('-'))?.value ?? '';
    return verb === 'drop' || verb === 'clear'
      ? [call.repo, ...call.rest.slice(1).map((w) => w.value)]
      : null;
  },
};

/** The git rules. */
export const GIT_RULES: readonly CommandRule[] = [
  GIT_FORCE_PUSH,
  GIT_PUSH_DELETE,
  GIT_RESET_HARD,
  GIT_CLEAN_FORCE,
  GIT_DISCARD_CHANGES,
  GIT_BRANCH_DELETE,
  GIT_TAG_DELETE,
  GIT_DELETE_REF,
  GIT_REWRITE_HISTORY,
  GIT_EXPIRE_HISTORY,
  GIT_STASH_DROP,
];
