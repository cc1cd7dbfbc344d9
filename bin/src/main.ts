/**
 * Entry of the `hermes` CLI. Order matters for start-up speed and isolation:
 * 1. `--version` answers before anything heavy loads
 *    (and `status --tmux`, which reads the daemon's status feed once with `node:net` only);
 * 2. the profile flag is resolved before any other code runs;
 * 3. a plain `hermes tui` (the default command) and a plain `hermes chat` run without yargs;
 * 4. yargs parses the rest; each command module imports its package only when it runs.
 */
import { readFileSync } from 'node:fs';
import { CliExit } from './context.js';

/** Set by bin/scripts/bundle.mjs in the bundled build (whose files sit one folder deeper). */
declare const __HERMES_VERSION__: string | undefined;
/** Set by bin/scripts/bundle.mjs: version and bundle time, naming this build for caches. */
declare const __HERMES_BUILD_ID__: string | undefined;
const build = typeof __HERMES_BUILD_ID__ === 'string' ? __HERMES_BUILD_ID__ : undefined;

const version =
  typeof __HERMES_VERSION__ === 'string'
    ? __HERMES_VERSION__
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
        .version;

async function main(): Promise<number> {
  const raw = process.argv.slice(2);
  if (raw.length === 1 && (raw[0] === '--version' || raw[0] === '-V' || raw[0] === 'version')) {
    process.stdout.write(`hermes ${version}\n`);
    return 0;
  }
  // tmux runs this every few seconds: the line comes from one read of the feed, nothing else loads
  if (raw[0] === 'status' && raw.includes('--tmux')) {
    const { runTmuxLine } = await import('./status/tmux-line.js');
    return runTmuxLine();
  }
  const { extractProfileFlag } = await import('./profile-flag.js');
  const { resolveCliHome } = await import('./resolve-home.js');
  const { profile, argv } = extractProfileFlag(raw);
  // `hermes -p NAME migrate` brings the original's profile NAME, creating ours: only the root matters
  const migrating = argv[0] === 'migrate';
  const home = resolveCliHome(migrating ? undefined : profile, process.env, {
    lenientSticky: argv[0] === 'profile' || migrating,
  });
  const { guardPythonHome } = await import('./python-home-guard.js');
  await guardPythonHome(home.root, argv);
  // a plain `hermes chat …` and `hermes tui` (also bare `hermes`) start without loading yargs
  if (argv[0] === 'chat') {
    const { plainChatArgs } = await import('./commands/chat.js');
    const opts = plainChatArgs(argv);
    if (opts) {
      const { runChat } = await import('./chat/run-chat.js');
      return runChat({ home, version, ...(build ? { build } : {}) }, opts);
    }
  }
  const tui = await import('./commands/tui.js');
  const plain = tui.plainTuiArgs(argv);
  if (plain) {
    await tui.runTuiCommand({ home, version }, plain);
    return Number(process.exitCode ?? 0);
  }
  if (argv[0] === '--get-yargs-completions') {
    // provider ids and models after `model` and `auth add|remove` (yargs' own completion does not
    // reach positionals of sub-commands); everything else is yargs'
    const { completeProviderWords } = await import('./commands/model.js');
    const words = argv.slice(argv[1] === 'hermes' || argv[1]?.endsWith('/hermes') ? 2 : 1);
    const list = await completeProviderWords(words.slice(0, -1), words.at(-1) ?? '');
    if (list) {
      process.stdout.write(list.map((w) => `${w}\n`).join(''));
      return 0;
    }
  }
  const { buildCli } = await import('./cli.js');
  const ctx = {
    home,
    version,
    ...(build ? { build } : {}),
    ...(profile !== undefined ? { profileFlag: profile } : {}),
  };
  await buildCli(ctx, argv).parseAsync();
  return Number(process.exitCode ?? 0);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    // messages from core name plain `hermes`; print the form that runs in this install
    const { withCommandForm } = await import('./command-form.js');
    if (err instanceof CliExit) {
      if (err.message) process.stderr.write(`hermes: ${withCommandForm(err.message)}\n`);
      process.exitCode = err.code;
      return;
    }
    const e = err as Error;
    process.stderr.write(`hermes: ${withCommandForm(e?.message ?? String(err))}\n`);
    if (process.env.HERMES_DEBUG) process.stderr.write(`${e?.stack}\n`);
    process.exitCode = 1;
  },
);
