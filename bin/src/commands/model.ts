/**
 * `hermes model [list [PROVIDER] | set PROVIDER[/MODEL] | PROVIDER MODEL]`: the provider and
 * model of the selected profile. The work is in `../model/run-model.ts`, loaded only when the
 * command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `model` command for the selected profile. */
export function modelCommand(ctx: CliContext): CommandModule {
  return {
    command: 'model [provider] [model]',
    describe: 'Show the provider and model, list providers and models, or switch (PROVIDER MODEL)',
    builder: (y) =>
      // `hermes model PROVIDER MODEL`: a first word that is no sub-command is a provider, not a
      // typo of one (the types omit recommendCommands' flag)
      (y as unknown as { recommendCommands(on: boolean): typeof y })
        .recommendCommands(false)
        .command(
          'list [provider]',
          "List a provider's models (default: the configured provider)",
          (c) =>
            c
              .positional('provider', { type: 'string', describe: 'Provider id or alias' })
              .option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
          async (a) => {
            const { listModels } = await import('../model/run-model.js');
            await listModels(ctx, a.provider, a.json);
          },
        )
        .command(
          'set <spec> [model]',
          'Switch to PROVIDER[/MODEL] (written to config.yaml)',
          (c) =>
            c
              .positional('spec', {
                type: 'string',
                demandOption: true,
                describe: 'PROVIDER or PROVIDER/MODEL',
              })
              .positional('model', { type: 'string', describe: 'Model id (instead of /MODEL)' }),
          async (a) => {
            const { setModel } = await import('../model/run-model.js');
            setModel(ctx, String(a.spec), a.model);
          },
        )
        .positional('provider', {
          type: 'string',
          describe: 'Provider id or alias (with MODEL: switch to it)',
        })
        .positional('model', { type: 'string', describe: 'Model id' })
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON (bare model)' }),
    handler: async (a) => {
      const run = await import('../model/run-model.js');
      if (a.provider === undefined) return run.showModel(ctx, Boolean(a.json));
      run.setModel(ctx, String(a.provider), a.model === undefined ? undefined : String(a.model));
    },
  };
}

/** Shell completion of `hermes model …` and `hermes auth add|remove …`: provider ids, then models. */
export async function completeProviderWords(
  words: readonly string[],
  current: string,
): Promise<string[] | undefined> {
  const [cmd, sub] = words;
  const providerSlot =
    (cmd === 'model' &&
      (words.length === 1 ||
        (words.length === 2 && sub === 'set') ||
        (words.length === 2 && sub === 'list'))) ||
    (cmd === 'auth' && words.length === 2 && (sub === 'add' || sub === 'remove'));
  const modelSlot = cmd === 'model' && words.length === 2 && sub !== 'set' && sub !== 'list';
  if (!providerSlot && !modelSlot) return undefined;
  const { presetFor, normalizeProviderName, PROVIDER_PRESETS } = await import('../lazy/model.js');
  if (modelSlot) return [...(presetFor(normalizeProviderName(sub!) ?? '')?.defaultModels ?? [])];
  const slash = current.indexOf('/');
  if (slash >= 0 && cmd === 'model' && sub === 'set') {
    const head = current.slice(0, slash);
    const models = presetFor(normalizeProviderName(head) ?? '')?.defaultModels ?? [];
    return models.map((m) => `${head}/${m}`);
  }
  return PROVIDER_PRESETS.filter((p) => !p.unsupported).map((p) => p.id);
}
