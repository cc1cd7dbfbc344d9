import { describe, expect, it } from 'vitest';
import { escapeHtml, markdownToHtml } from './html.js';

describe('markdownToHtml', () => {
  it('escapes every character of raw HTML in the text', () => {
    const html = markdownToHtml('<script>alert("x")</script> & <b onclick=x>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b ');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b onclick=x&gt;');
  });

  it('renders the common constructs', () => {
    const html = markdownToHtml(
      [
        '# Title',
        '',
        'Some **bold**, *italic* and `code <x>`.',
        '',
        '- one',
        '- two',
        '',
        '1. first',
        '',
        '> quoted',
        '',
        '```',
        'a < b',
        '```',
      ].join('\n'),
    );
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>italic</em>');
    expect(html).toContain('<code>code &lt;x&gt;</code>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<ol><li>first</li></ol>');
    expect(html).toContain('<blockquote>quoted</blockquote>');
    expect(html).toContain('<pre><code>a &lt; b</code></pre>');
  });

  it('links only http(s) and mailto targets', () => {
    expect(markdownToHtml('[docs](https://example.com/a?b=1&c=2)')).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2">docs</a>',
    );
    expect(markdownToHtml('see https://example.com/x')).toContain('<a href="https://example.com/x">');
    const js = markdownToHtml('[click](javascript:alert(1))');
    expect(js).not.toContain('<a ');
    expect(markdownToHtml('[x](https://e.com/"onmouseover="y)')).not.toMatch(/href="[^"]*"onmouseover/);
  });

  it('keeps line breaks inside a paragraph', () => {
    expect(markdownToHtml('a\nb\n\nc')).toBe('<div><p>a<br>\nb</p>\n<p>c</p></div>');
  });

  it('escapeHtml escapes quotes too', () => {
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});
