/** Test helper for the checkpoint tests: `git` in a folder with a fixed identity, output as text. */
import { execFileSync } from 'node:child_process';

/**
 * Runs `git ARGS` in `cwd` as author/committer `t <t@t>` and returns its stdout.
 * @throws Error when git exits non-zero.
 */
export const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
