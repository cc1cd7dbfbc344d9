import { PLATFORM_COMMANDS } from '@hermes/core';
import { describe, expect, it } from 'vitest';
import { applicationCommands, commandText } from './commands.js';

describe('application commands', () => {
  it('one chat-input command per platform command, with a description of at most 100 characters', () => {
    const defs = applicationCommands();
    expect(defs.map((d) => d.name)).toEqual([...PLATFORM_COMMANDS]);
    expect(defs.every((d) => d.type === 1 && d.description.length > 0 && d.description.length <= 100)).toBe(
      true,
    );
    expect(defs.find((d) => d.name === 'approve')!.options![0]!.choices!.map((c) => c.value)).toEqual([
      'session',
      'always',
    ]);
  });

  it('an invocation becomes the command text; unknown commands become nothing', () => {
    const opts = (o: Record<string, string>) => (n: string) => o[n] ?? null;
    expect(commandText('approve', opts({ scope: 'always' }))).toBe('/approve always');
    expect(commandText('approve', opts({}))).toBe('/approve');
    expect(commandText('model', opts({ id: ' gpt-5 ' }))).toBe('/model gpt-5');
    expect(commandText('status', opts({}))).toBe('/status');
    expect(commandText('rm', opts({}))).toBeUndefined();
  });
});
