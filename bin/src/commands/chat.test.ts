import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import type { ChatOptions } from '../chat/run-chat.js';
import { chatCommand, chatOptionsFromArgv, plainChatArgs } from './chat.js';

/** What the yargs `chat` command hands to runChat for this command line, or the error it reports. */
async function viaYargs(argv: string[]): Promise<ChatOptions | Error> {
  const command = chatCommand({ home: new HermesHome('/nonexistent-hermes-home'), version: '0' });
  let got: ChatOptions | undefined;
  try {
    await yargs(argv)
      .command({ ...command, handler: (a) => void (got = chatOptionsFromArgv(a)) })
      .strict()
      .exitProcess(false)
      .fail((msg, err) => {
        throw err ?? new Error(msg);
      })
      .parseAsync();
  } catch (err) {
    return err as Error;
  }
  return got ?? new Error('handler did not run');
}

describe('plainChatArgs (the fast path of `hermes chat`)', () => {
  const accepted: string[][] = [
    ['chat'],
    ['chat', '-q', 'hi there'],
    ['chat', '--query', 'hi'],
    ['chat', '--query=a=b'],
    ['chat', '-q', 'hi', '--json', '--yolo'],
    ['chat', '-c', '-q', 'again'],
    ['chat', '--continue'],
    ['chat', '--session', '20260101_120000_abcdef', '-q', 'x'],
    ['chat', '--session=my title'],
    ['chat', '-s', '20260101_120000_abcdef', '-q', 'x'],
    ['chat', '-q', 'x', '-s', 'my title', '--json'],
    ['chat', '-m', 'openai/gpt-5', '-q', '42'],
    ['chat', '--model=fake', '--json'],
  ];

  it.each(accepted.map((a) => [a.join(' '), a]))('`%s` parses exactly as yargs does', async (_, argv) => {
    const plain = plainChatArgs(argv as string[]);
    expect(plain).not.toBeNull();
    expect(plain).toEqual(await viaYargs(argv as string[]));
  });

  it('leaves everything else to yargs: help, unknown, repeated, missing or flag-like values, conflicts', () => {
    for (const argv of [
      ['tui'],
      ['chat', '--help'],
      ['chat', '-h'],
      ['chat', 'hello'],
      ['chat', '--bogus'],
      ['chat', '-q'],
      ['chat', '-q', ''],
      ['chat', '-q', '-c'],
      ['chat', '--query='],
      ['chat', '-q', 'a', '-q', 'b'],
      ['chat', '--json=true'],
      ['chat', '--no-json'],
      ['chat', '--session', 'x', '--continue'],
      ['chat', '-s', 'x', '-c'],
      ['chat', '-s', 'x', '--session', 'y'],
      ['chat', '-s'],
      ['chat', '-qhi'],
    ]) {
      expect(plainChatArgs(argv), argv.join(' ')).toBeNull();
    }
  });

  it('the conflict it leaves to yargs is one yargs reports', async () => {
    expect(await viaYargs(['chat', '--session', 'x', '--continue'])).toBeInstanceOf(Error);
  });
});
