import { describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import { buildCli } from '../cli.js';
import { acpCommand } from './acp.js';

describe('hermes acp', () => {
  const ctx = { home: new HermesHome('/nonexistent-hermes-root'), version: 'test' };

  it('is a command of the CLI (no longer "Unknown argument: acp")', async () => {
    const help = await buildCli(ctx, []).getHelp();
    expect(help).toMatch(/hermes acp\s+Serve the Agent Client Protocol on stdio/);
    expect(acpCommand(ctx).command).toBe('acp');
  });
});
