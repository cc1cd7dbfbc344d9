import { describe, expect, it } from 'vitest';
import { carryStyles } from './ansi-lines.js';

const E = '\u001b';

describe('carryStyles', () => {
  it('leaves text without escape codes, and styles closed on their own line, alone', () => {
    expect(carryStyles('a\nb')).toBe('a\nb');
    const one = `a ${E}[1mbold${E}[22m\n${E}[36mcode${E}[39m`;
    expect(carryStyles(one)).toBe(one);
  });

  it('closes a style open at a line end and opens it again on the next line', () => {
    const out = carryStyles(`with ${E}[1mbold\nwords${E}[22m and`);
    expect(out).toBe(`with ${E}[1mbold${E}[22m\n${E}[1mwords${E}[22m and`);
  });

  it('moves an opening code that ends a line to the next one', () => {
    const out = carryStyles(`answer with ${E}[1m\nbold words${E}[22m.`);
    expect(out).toBe(`answer with ${E}[22m\n${E}[1mbold words${E}[22m.`);
  });

  it('carries nested styles over several lines and forgets them after a reset', () => {
    const out = carryStyles(`${E}[90m${E}[3mone\ntwo\nthree${E}[0m\nfour`);
    expect(out.split('\n')).toEqual([
      `${E}[90m${E}[3mone${E}[23m${E}[39m`,
      `${E}[90m${E}[3mtwo${E}[23m${E}[39m`,
      `${E}[90m${E}[3mthree${E}[0m`,
      'four',
    ]);
  });
});
