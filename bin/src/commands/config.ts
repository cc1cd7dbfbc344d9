/**
 * `hermes config get KEY | set KEY VALUE | path | check` (issue 2 "Home and config").
 * `check` validates config.yaml and lists keys Hermes does not know (with a "did you mean"); exit
 * 0 when the file is usable (unknown keys are warnings: they are kept), 1 when it is broken.
 */
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
          choices: ['get', 'set', 'path', 'check'] as const,
          describe: 'get KEY | set KEY VALUE | path | check',
        })
        .positional('key', { type: 'string', describe: 'Dotted key, e.g. model.default' })
        .positional('value', { type: 'string', describe: 'New value, parsed as YAML (true, 30, [a, b])' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the value as JSON' }),
    handler: async (argv) => {
      const { loadConfig, loadConfigWithWarnings, getConfigValue, setConfigValue, parseConfigValue } =
        await import('@hermes/core/config/config-file');
      const { CliExit } = await import('../context.js');
      const action = argv.action as string;
      const key = argv.key as string | undefined;
      if (action === 'path') {
        process.stdout.write(`${ctx.home.configFile}\n`);
        return;
      }
      if (action === 'check') {
        const { warnings } = loadConfigWithWarnings(ctx.home); // a broken file throws ConfigError → exit 1
        for (const w of warnings) process.stdout.write(`warning: ${w.message}\n`);
        process.stdout.write(
          warnings.length === 0
            ? `${ctx.home.configFile}: OK\n`
            : `${ctx.home.configFile}: valid, ${warnings.length} unknown key(s)\n`,
        );
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
      // a key Hermes does not know is written all the same; say so, as `config check` would
      for (const w of loadConfigWithWarnings(ctx.home).warnings) {
        if (w.key === key || w.key.startsWith(`${key}.`) || key.startsWith(`${w.key}.`))
          process.stderr.write(`hermes: warning: ${w.message}\n`);
      }
    },
  };
}
