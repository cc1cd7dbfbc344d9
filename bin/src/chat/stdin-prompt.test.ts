import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliExit } from '../context.js';
import { composePrompt, oneShotPrompt, readPipedInput } from './stdin-prompt.js';

const piped = (...chunks: string[]): Readable => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('the prompt of hermes chat -q', () => {
  it('adds piped text to the -q text inside <stdin> tags', async () => {
    expect(await oneShotPrompt('summarize stdin', piped('line one\n', 'line two\n\n'))).toBe(
      'summarize stdin\n\n<stdin>\nline one\nline two\n</stdin>',
    );
  });

  it('uses stdin alone when -q has no text, and -q alone when stdin is empty', async () => {
    expect(await oneShotPrompt('', piped('summarize this\n'))).toBe('summarize this');
    expect(await oneShotPrompt('hi', piped())).toBe('hi');
    expect(await oneShotPrompt('hi', piped(' \n\n'))).toBe('hi');
  });

  it('does not read a terminal', async () => {
    const tty = Object.assign(piped('never read'), { isTTY: true });
    expect(await readPipedInput(tty)).toBeUndefined();
    expect(await oneShotPrompt('hi', tty)).toBe('hi');
  });

  it('refuses an empty prompt with a CLI message, not a protocol error', async () => {
    const err = await oneShotPrompt('  ', piped()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliExit);
    expect((err as CliExit).message).toContain('chat -q needs a prompt');
    expect(() => composePrompt('', undefined)).toThrow(/needs a prompt/);
  });

  it('refuses stdin over the size cap and binary stdin', async () => {
    const big = await readPipedInput(piped('x'.repeat(600), 'y'.repeat(600)), 1000).catch((e: unknown) => e);
    expect(big).toBeInstanceOf(CliExit);
    expect((big as CliExit).message).toContain('stdin is larger than 1000 bytes');
    expect(await readPipedInput(piped('x'.repeat(1000)), 1000)).toHaveLength(1000);
    const binary = await readPipedInput(piped('a\u0000b')).catch((e: unknown) => e);
    expect((binary as CliExit).message).toContain('binary data');
  });
});
