/**
 * `hermes chat [-q TEXT] [--image PATH]… [-s/--session ID | --continue] [--json] [--yolo] [-m MODEL]`.
 * With `-q`, text piped on stdin is added to the prompt (or is the prompt); `--image` attaches
 * an image file to it (repeatable).
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import type { ChatOptions } from '../chat/run-chat.js';

const VALUE_FLAGS: Record<string, 'query' | 'session' | 'model'> = {
  '-q': 'query',
  '--query': 'query',
  '-s': 'session',
  '--session': 'session',
  '-m': 'model',
  '--model': 'model',
};
const BOOLEAN_FLAGS: Record<string, 'continue' | 'json' | 'yolo'> = {
  '-c': 'continue',
  '--continue': 'continue',
  '--json': 'json',
  '--yolo': 'yolo',
};

/**
 * The options of a plain `hermes chat …` command line, parsed without loading yargs (about 50 ms
 * of CPU at start-up, a quarter of the issue-2 budget for `chat -q` to reach the model), or null
 * when the line needs yargs: help, an unknown or repeated flag, a value that looks like a flag,
 * `--session` with `--continue` (yargs reports those). Accepts `chat` followed by `-q/--query TEXT`,
 * `-s/--session ID`, `-m/--model ID` (also `--flag=value`), `-c/--continue`, `--json`, `--yolo`, and
 * yields exactly what the yargs command below would (chat.test.ts compares the two).
 */
export function plainChatArgs(argv: readonly string[]): ChatOptions | null {
  if (argv[0] !== 'chat') return null;
  const out: ChatOptions = { continue: false, json: false, yolo: false };
  const seen = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const valueKey = VALUE_FLAGS[flag];
    const boolKey = BOOLEAN_FLAGS[flag];
    const key = valueKey ?? boolKey;
    if (!key || seen.has(key)) return null;
    seen.add(key);
    if (boolKey) {
      if (eq > 0) return null;
      out[boolKey] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return null;
    out[valueKey!] = value;
  }
  if (out.session !== undefined && out.continue) return null;
  return out;
}

/** Builds the `chat` command. */
export function chatCommand(ctx: CliContext): CommandModule {
  return {
    command: 'chat',
    describe: 'Chat with the agent: one turn with -q, else a line-by-line chat',
    builder: (y) =>
      y
        .option('query', {
          alias: 'q',
          type: 'string',
          describe:
            'Run one turn with this text and exit; text piped on stdin is added to it (or is the prompt)',
        })
        .option('session', {
          alias: 's',
          type: 'string',
          describe: 'Continue the session with this id (or exact title)',
        })
        .option('continue', {
          alias: 'c',
          type: 'boolean',
          default: false,
          describe: 'Continue the most recent session',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON event per line' })
        .option('yolo', {
          type: 'boolean',
          default: false,
          describe: 'Run dangerous commands without asking',
        })
        .option('model', { alias: 'm', type: 'string', describe: 'Model id for this run' })
        .option('image', {
          type: 'string',
          array: true,
          requiresArg: true,
          describe: 'Attach an image file (png, jpeg, gif, webp) to the -q prompt; repeatable',
        })
        .check((a) => {
          if (a.session !== undefined && a.continue)
            throw new Error('--session and --continue cannot be used together');
          if (a.image !== undefined && a.query === undefined) throw new Error('--image needs -q TEXT');
          return true;
        }),
    handler: async (argv) => {
      const { runChat } = await import('../chat/run-chat.js');
      process.exitCode = await runChat(ctx, chatOptionsFromArgv(argv));
    },
  };
}

/** The `hermes chat` options from yargs' parsed argv (absent value options stay absent). */
export function chatOptionsFromArgv(argv: Record<string, unknown>): ChatOptions {
  const out: ChatOptions = {
    continue: Boolean(argv.continue),
    json: Boolean(argv.json),
    yolo: Boolean(argv.yolo),
  };
  for (const key of ['query', 'session', 'model'] as const) {
    if (argv[key] !== undefined) out[key] = String(argv[key]);
  }
  if (Array.isArray(argv.image) && argv.image.length > 0) out.images = argv.image.map(String);
  return out;
}
