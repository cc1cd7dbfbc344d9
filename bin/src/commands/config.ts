/**
 * `hermes config [show] | get [KEY] | set KEY VALUE | unset KEY | path | check | allowlist …`.
 * The work is in `../config/run-config.ts`, loaded only when the command runs.
 * - `show` (also bare `hermes config`, and `get` without a key) prints the whole effective config
 *   as YAML (`--json`: JSON), secrets masked.
 * - `set` parses VALUE as YAML (`true`, `30`, `[a, b]`; `null` is the YAML null) and refuses a key
 *   Hermes does not know (with a "did you mean") unless `--force`, and an empty `model.default`.
 * - `unset` removes a key from config.yaml (comments kept); its value falls back to the default.
 * - `check` validates config.yaml and lists unknown keys and old `command_allowlist` entries that
 *   no longer approve anything; exit 0 when the file is usable, 1 when it is broken.
 * - `allowlist [list]` numbers the entries of `command_allowlist` (what `always` approved), saying
 *   which are old forms; `allowlist remove N|TEXT` removes one; `allowlist clear` removes all.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** The sub-commands of `hermes config`. */
export const CONFIG_ACTIONS = ['show', 'get', 'set', 'unset', 'path', 'check', 'allowlist'] as const;

/** One sub-command of `hermes config`. */
export type ConfigAction = (typeof CONFIG_ACTIONS)[number];

/** Builds the `config` command for the selected profile. */
export function configCommand(ctx: CliContext): CommandModule {
  return {
    command: 'config [action] [key] [value]',
    describe: 'Show, read or change config.yaml of the selected profile',
    builder: (y) =>
      y
        .positional('action', {
          choices: CONFIG_ACTIONS,
          default: 'show',
          describe:
            'show | get [KEY] | set KEY VALUE | unset KEY | path | check | allowlist [list | remove N|TEXT | clear]',
        })
        .positional('key', { type: 'string', describe: 'Dotted key, e.g. model.default' })
        .positional('value', {
          type: 'string',
          describe: 'New value, parsed as YAML (true, 30, [a, b]; null is the YAML null)',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON (get, show)' })
        .option('force', {
          type: 'boolean',
          default: false,
          describe: 'set: write a key Hermes does not know (kept, unused)',
        }),
    handler: async (argv) => {
      const { runConfig } = await import('../config/run-config.js');
      runConfig(ctx, {
        action: argv.action as ConfigAction,
        json: Boolean(argv.json),
        force: Boolean(argv.force),
        ...(argv.key !== undefined ? { key: String(argv.key) } : {}),
        ...(argv.value !== undefined ? { value: String(argv.value) } : {}),
      });
    },
  };
}
