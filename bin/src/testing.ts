/**
 * Test helper for the command modules: runs `hermes ARGV` in this process through the yargs CLI
 * (no child process, no build) and captures what it writes. Kept out of the build (tsconfig).
 */
import type { HermesHome } from '@hermes/core/home';
import { vi } from 'vitest';
import { buildCli } from './cli.js';

/** What a command wrote. */
export interface CliOutput {
  out: string;
  err: string;
}

/**
 * Runs `hermes ARGV` against `home`; resolves with stdout and stderr, or rejects as the command
 * does (e.g. `CliExit`). stderr is captured only with `captureStderr` (else it passes through).
 */
export async function runCliInProcess(
  home: HermesHome,
  argv: string[],
  opts: { captureStderr?: boolean } = {},
): Promise<CliOutput> {
  const output: CliOutput = { out: '', err: '' };
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    output.out += String(chunk);
    return true;
  });
  const e = opts.captureStderr
    ? vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        output.err += String(chunk);
        return true;
      })
    : undefined;
  try {
    await buildCli({ home, version: 'test' }, argv).parseAsync();
    return output;
  } finally {
    o.mockRestore();
    e?.mockRestore();
  }
}
