/**
 * `hermes sandbox check [--json]`: whether the OS sandbox (bubblewrap) works on this machine —
 * bwrap's path and version, the user-namespace setting, why not — and each lane's policy under
 * the selected profile's config. Exit code 0 when it works, 1 when not.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

/** Builds the `sandbox` command. */
export function sandboxCommand(ctx: CliContext): CommandModule {
  return {
    command: 'sandbox',
    describe: 'The OS sandbox of tool commands (see docs/sandbox.md)',
    builder: (y) =>
      y
        .command(
          'check',
          'Say whether the sandbox works here, and why not (exit 1 when it does not)',
          (c) =>
            c.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' }),
          async (a) => {
            const { detectSandbox, formatSandboxReport, sandboxReport } = await import('../lazy/sandbox.js');
            const { loadConfig } = await import('../lazy/config.js');
            const report = sandboxReport(detectSandbox(), loadConfig(ctx.home));
            process.stdout.write(
              a.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatSandboxReport(report)}\n`,
            );
            if (!report.support.available) process.exitCode = 1;
          },
        )
        .demandCommand(1, 'Name a sub-command: check'),
    handler: () => undefined,
  };
}
