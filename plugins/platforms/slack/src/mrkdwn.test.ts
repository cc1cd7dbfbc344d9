import { describe, expect, it } from 'vitest';
import { escapeMrkdwn, fromSlackText, toMrkdwn } from './mrkdwn.js';

describe('toMrkdwn', () => {
  it('converts bold, strike, links, headings and bullets', () => {
    expect(toMrkdwn('**bold** and __also__ and ~~gone~~')).toBe('*bold* and *also* and ~gone~');
    expect(toMrkdwn('see [the docs](https://example.com/a_b?x=1&y=2)')).toBe(
      'see <https://example.com/a_b?x=1&amp;y=2|the docs>',
    );
    expect(toMrkdwn('# Title\n- one\n* two')).toBe('*Title*\n• one\n• two');
    expect(toMrkdwn('an *italic* and **bold** word, 2 * 3 * 4, a*b*c')).toBe(
      'an _italic_ and *bold* word, 2 * 3 * 4, a*b*c',
    );
  });

  it('keeps code as it is (escaped only) and drops a fence language', () => {
    expect(toMrkdwn('run `a **b** <c>` now')).toBe('run `a **b** &lt;c&gt;` now');
    expect(toMrkdwn('```ts\nconst x = a && b;\n```')).toBe('```\nconst x = a &amp;&amp; b;\n```');
  });

  it('escapes what could become a mention or broadcast', () => {
    expect(toMrkdwn('hi <!channel> and <@U123>')).toBe('hi &lt;!channel&gt; and &lt;@U123&gt;');
    expect(escapeMrkdwn('a < b & c > d')).toBe('a &lt; b &amp; c &gt; d');
  });
});

describe('fromSlackText', () => {
  it('removes the bot mention and writes out the rest', () => {
    expect(fromSlackText('<@UBOT> hello <@U2> in <#C1|general>', 'UBOT')).toBe('hello @U2 in #general');
    expect(fromSlackText('look <https://x.io/a|here> and <https://y.io> &lt;3 &amp; <!here>')).toBe(
      'look here (https://x.io/a) and https://y.io <3 & @here',
    );
    expect(fromSlackText('mail <mailto:a@b.c|a@b.c>')).toBe('mail a@b.c');
  });
});
