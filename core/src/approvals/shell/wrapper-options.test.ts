import { describe, expect, it } from 'vitest';
import { PREFIX, commandOption, skipOptions } from './wrapper-options.js';
import { literalWord } from './words.js';

const words = (line: string) => line.split(' ').map(literalWord);

describe('skipOptions', () => {
  it('skips flags, valued options (joined or next word) and positional words', () => {
    expect(skipOptions(words('sudo -u root -E rm x'), 1, PREFIX.sudo!)).toBe(4);
    expect(skipOptions(words('sudo -uroot rm x'), 1, PREFIX.sudo!)).toBe(2);
    expect(skipOptions(words('timeout --signal KILL 5 rm x'), 1, PREFIX.timeout!)).toBe(4);
    expect(skipOptions(words('nice -- rm'), 1, PREFIX.nice!)).toBe(2);
  });

  it('reports each option with its value', () => {
    const seen: [string, string | undefined][] = [];
    skipOptions(words('env -S a --chdir=/tmp x'), 1, { valued: 'S', long: ['chdir'] }, (n, v) =>
      seen.push([n, v?.value]),
    );
    expect(seen).toEqual([
      ['S', 'a'],
      ['chdir', '/tmp'],
    ]);
  });
});

describe('commandOption', () => {
  it('finds -c / --command values and stops at --', () => {
    expect(commandOption(words('su -c id root'))).toBe('id');
    expect(commandOption(words('su --command=id'))).toBe('id');
    expect(commandOption(words('su -lc id'))).toBe('id');
    expect(commandOption(words('su -- -c id'))).toBeUndefined();
  });
});
