/**
 * `hermes auth add PROVIDER [--key K] [--no-check] | list | remove PROVIDER`: API keys of the
 * selected profile in its `.env`. The work is in `../model/run-auth.ts`, loaded only when the
 * command runs. A key is never printed.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `auth` command for the selected profile. */
export function authCommand(ctx: CliContext): CommandModule {
  return {
    command: 'auth',
    describe: "Add, list or remove providers' API keys in the profile's .env",
    builder: (y) =>
      y
        .command(
          'add <provider>',
          'Save a key (from --key, stdin, or asked without echo) after a check call',
          (c) =>
            c
              .positional('provider', {
                type: 'string',
                demandOption: true,
                describe: 'Provider id or alias',
              })
              .option('key', { type: 'string', describe: 'The key (else stdin, or asked on a terminal)' })
              .option('check', {
                type: 'boolean',
                default: true,
                describe: 'Check the key with the provider first (--no-check: save it unchecked)',
              }),
          async (a) => {
            const { addKey } = await import('../model/run-auth.js');
            await addKey(ctx, String(a.provider), {
              ...(a.key !== undefined ? { key: a.key } : {}),
              check: a.check,
            });
          },
        )
        .command(
          'list',
          'Providers with a key: variable, where it is set, its last 4 characters',
          (c) => c.option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
          async (a) => {
            const { listKeys } = await import('../model/run-auth.js');
            listKeys(ctx, a.json);
          },
        )
        .command(
          'remove <provider>',
          "Delete a provider's key variables from .env",
          (c) => c.positional('provider', { type: 'string', demandOption: true }),
          async (a) => {
            const { removeKey } = await import('../model/run-auth.js');
            removeKey(ctx, String(a.provider));
          },
        )
        .demandCommand(1, 'Name a sub-command: add, list or remove'),
    handler: () => undefined,
  };
}
