import { describe, expect, it } from 'vitest';
import { continueFirstLine } from '../markdown/continuation.js';
import {
  EMPTY_SCAN,
  HOLD_MAX_LINES,
  growReply,
  lastPartDraft,
  liveText,
  printedText,
  scanReply,
  startReply,
  type ReplyScan,
} from './reply-parts.js';

/** The cut after streaming `text` in chunks of `size` characters. */
function cutAfter(text: string, size: number): number {
  let scan: ReplyScan = EMPTY_SCAN;
  for (let i = size; i < text.length + size; i += size) scan = scanReply(scan, text.slice(0, i));
  return scan.cut;
}

describe('scanReply', () => {
  it('cuts before a block that starts in column 0 after a blank line, whatever the chunking', () => {
    const text = 'First paragraph\nstill first.\n\nSecond one\n\n# A heading';
    for (const size of [1, 2, 3, 7, 100]) {
      expect(text.slice(0, cutAfter(text, size))).toBe('First paragraph\nstill first.\n\nSecond one\n\n');
    }
  });

  it('does not cut before the first character of the next block is there', () => {
    expect(cutAfter('One\n\n', 1)).toBe(0);
    expect(cutAfter('One\n\n\n', 2)).toBe(0);
    expect(cutAfter('One\n\nT', 1)).toBe(5);
  });

  it('never cuts inside fenced code, and cuts after it', () => {
    const text = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(text.slice(cutAfter(text, 3))).toBe('After');
    const open = 'Intro\n\n~~~~\ncode\n\nmore code\n~~~\n\nstill code';
    expect(open.slice(cutAfter(open, 4))).toBe('~~~~\ncode\n\nmore code\n~~~\n\nstill code');
  });

  it('keeps indented lines after a blank line with the block before them (list items, nested code)', () => {
    const text = '1. Step one\n\n    npm ci\n\n   More about step one\n\n2. Step two';
    expect(text.slice(cutAfter(text, 5))).toBe('2. Step two');
    expect(cutAfter('- a\n\n  continued', 3)).toBe(0);
    expect(cutAfter('- a\n\n\tcontinued', 3)).toBe(0);
    // one space is not enough to continue a list item: a new paragraph
    expect(cutAfter('Para one\n\n para two', 3)).toBe('Para one\n\n'.length);
  });

  it('makes no empty part out of leading blank lines', () => {
    expect(cutAfter('\n\nHello', 1)).toBe(0);
    expect(cutAfter('\n\nHello\n\nWorld', 1)).toBe('\n\nHello\n\n'.length);
  });

  it('returns the same scan when nothing new is there', () => {
    const s = scanReply(EMPTY_SCAN, 'abc\n');
    expect(scanReply(s, 'abc\n')).toBe(s);
  });
});

describe('what one printed part carries into the next', () => {
  /** The parts `text` is printed in while it streams (in chunks of 5 characters), then the reply's last item's text. */
  function printed(text: string): { parts: string[]; last: string | null } {
    let r = startReply();
    const parts: string[] = [];
    for (let i = 0; i < text.length; i += 5) {
      const g = growReply(r, text.slice(i, i + 5));
      r = g.reply;
      if (g.part) parts.push(g.part);
    }
    expect(liveText(r)).toBe(continueFirstLine(text.slice(r.scan.cut), r.list ?? null));
    const last = lastPartDraft(text, 'complete', printedText(r));
    return { parts, last: last?.kind === 'assistant' ? last.text : null };
  }

  it('numbers the items of a loose list typed all as `1.` by markdown: start, then +1', () => {
    const { parts, last } = printed('Steps:\n\n1. one\n\n1. two\n\n1. three\n\nDone.');
    expect(parts).toEqual(['Steps:', '1. one', '2. two', '3. three']);
    expect(last).toBe('Done.');
    expect(printed('4. four\n\n1. five\n\n1. six').last).toBe('6. six');
  });

  it('holds back a block that may use a reference link, and all after it, until the reply ends', () => {
    const text =
      'Intro.\n\nSee [the docs][d] and [x].\n\nMore text.\n\n[d]: https://example.com\n[x]: https://x.org';
    const { parts, last } = printed(text);
    expect(parts).toEqual(['Intro.']);
    expect(last).toBe(text.slice('Intro.\n\n'.length));
  });

  it('stops holding after HOLD_MAX_LINES lines: the held blocks print and are never held again', () => {
    const para = (i: number): string => `Paragraph ${i} with [optional] words.`;
    const lines = Array.from({ length: HOLD_MAX_LINES + 10 }, (_, i) => para(i));
    const { parts, last } = printed(`Intro [1].\n\n${lines.join('\n\n')}\n\nEnd.`);
    // past the bound the reply is cut as usual: the last block alone is live at the end
    expect(parts.length).toBeGreaterThan(HOLD_MAX_LINES / 2);
    expect(parts[0]).toContain('Intro [1].');
    expect(last).toBe('End.');
  });

  it('adds the definitions printed earlier to the text printed at the end', () => {
    const { parts, last } = printed('[d]: https://example.com\n\nPlain.\n\nUses [d] here.\n\nEnd.');
    expect(parts).toEqual(['[d]: https://example.com', 'Plain.']);
    expect(last).toBe('Uses [d] here.\n\nEnd.\n\n[d]: https://example.com');
  });

  it('still prints parts of a reply with inline links, task boxes and bracketed code', () => {
    const { parts } = printed('A [link](https://x.org).\n\n- [ ] task\n\n```sh\n[[ -f x ]]\n```\n\nEnd.');
    expect(parts).toHaveLength(3);
  });
});
