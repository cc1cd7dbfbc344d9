/**
 * Options of the `hermes` CLI whose next argument is a value, never a profile flag or a verb:
 * the `-p/--profile` pre-parse skips them (bin/src/profile-flag.ts), and so does the approval
 * rule that reads `hermes` command lines the agent runs (approvals/rules/self-cli.ts).
 */
export const CLI_VALUE_FLAGS: ReadonlySet<string> = new Set([
  '-m',
  '--model',
  '--session',
  '-s',
  '-q',
  '--query',
  '--name',
  '--deliver',
  '--repeat',
  '--skill',
  '--from',
  '--description',
  '-o',
  '--output',
  '--as',
  '--cwd',
  '--title',
  '--limit',
  '-t',
  '--toolsets',
]);
