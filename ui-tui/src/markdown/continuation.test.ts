import { describe, expect, it } from 'vitest';
import {
  continueBlock,
  continueBlocks,
  continueFirstLine,
  hasReferenceCandidate,
  referenceDefinitions,
  startsOrderedItem,
} from './continuation.js';

describe('continueBlock', () => {
  it('numbers an item on from the list the block before ended with', () => {
    expect(continueBlock('1. second', { next: 2, delim: '.' })).toEqual({
      text: '2. second',
      end: { next: 3, delim: '.' },
    });
    expect(continueBlock('1) x', { next: 5, delim: '.' }).text).toBe('1) x');
    expect(continueBlock('Text\n\n1. x', { next: 5, delim: '.' }).text).toBe('Text\n\n1. x');
  });

  it('ends where the last top-level ordered list of the block ends', () => {
    expect(continueBlock('3. a\n4. b\n   more\n   1. nested', null).end).toEqual({ next: 5, delim: '.' });
    expect(continueBlock('1. a\n- b', null).end).toBeNull();
    expect(continueBlock('1. a\n\nParagraph', null).end).toBeNull();
    expect(continueBlock('1. a\n```\n2. code\n```', null).end).toBeNull();
  });

  it('numbers the blocks of a text one after the other', () => {
    expect(continueBlocks('1. a\n\n1. b\n\n1. c', null)).toEqual({
      text: '1. a\n\n2. b\n\n3. c',
      end: { next: 4, delim: '.' },
    });
    expect(continueFirstLine('1. d', { next: 4, delim: '.' })).toBe('4. d');
    expect(continueFirstLine('- d', { next: 4, delim: '.' })).toBe('- d');
    expect(startsOrderedItem('12) x')).toBe(true);
    expect(startsOrderedItem('Text 1. x')).toBe(false);
  });
});

describe('reference links', () => {
  it('sees bracketed texts that a definition would make links', () => {
    for (const line of [
      'See [the docs][d].',
      'See [docs][].',
      'See [docs].',
      'A ![logo][l] here',
      'Cited [1].',
    ])
      expect(hasReferenceCandidate(line), line).toBe(true);
  });

  it('leaves inline links, definitions, task boxes, footnotes, escapes and code alone', () => {
    for (const line of [
      'A [link](https://x.org)',
      '[d]: https://example.com',
      '- [ ] task',
      '- [x] done',
      'Note[^1]',
      'Not \\[a link]',
      'Code `a[i]` here',
      'no brackets',
    ])
      expect(hasReferenceCandidate(line), line).toBe(false);
  });

  it('finds the definitions of a text outside fenced code', () => {
    expect(
      referenceDefinitions('Text\n\n[a]: https://a.org\n```\n[b]: in code\n```\n  [c]: https://c.org "C"'),
    ).toEqual(['[a]: https://a.org', '[c]: https://c.org "C"']);
  });
});
