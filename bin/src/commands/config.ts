/** `hermes config get KEY | set KEY VALUE | path` (issue 2 "Home and config"). */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `config` command for the selected profile. */
export function configCommand(ctx: CliContext): CommandModule {
  return {
    command: 'config <action> [key] [value]',
    describe: 'Read or change config.yaml of the selected profile',
    builder: (y) =>
      y
        .positional('action', {
          choices: ['get', 'set', 'path'] as const,
          describe: 'get KEY | set KEY VALUE | path',
        })
        .positional('key', { type: 'string', describe: 'Dotted key, e.g. model.default' })
        .positional('value', { type: 'string', describe: 'New value, parsed as YAML (true, 30, [a, b])' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the value as JSON' }),
    handler: async (argv) => {
      const { loadConfig, getConfigValue, setConfigValue, parseConfigValue } =
        await import('@hermes/core/config/config-file');
      const { CliExit } = await import('../context.js');
      const action = argv.action as string;
      const key = argv.key as string | undefined;
      if (action === 'path') {
        process.stdout.write(`${ctx.home.configFile}\n`);
        return;
      }
      if (!key) throw new CliExit(1, `config ${action} needs a KEY`);
      if (action === 'get') {
        const value = getConfigValue(loadConfig(ctx.home), key);
        if (value === undefined) throw new CliExit(1, `no config key "${key}"`);
        const text =
          argv.json || (typeof value === 'object' && value !== null)
            ? JSON.stringify(value, null, 2)
            : String(value);
        process.stdout.write(`${text}\n`);
        return;
      }
      if (argv.value === undefined) throw new CliExit(1, `config set ${key} needs a VALUE`);
      setConfigValue(ctx.home, key, parseConfigValue(String(argv.value)));
      process.stdout.write(`${key} set in ${ctx.home.configFile}\n`);
    },
  };
}
