/**
 * HTML page → readable markdown for `web_extract`. Heavy (linkedom, @mozilla/readability,
 * node-html-markdown): import this module lazily, from the tool's handler only.
 *
 * Steps: parse with linkedom; drop scripts, styles, templates, frames, forms' widgets and inline
 * `data:` images; make links and images absolute against the page URL; let Readability pick the
 * main content (Firefox Reader View's algorithm); when it finds none, use the whole cleaned body;
 * translate to markdown with node-html-markdown.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { NodeHtmlMarkdown } from 'node-html-markdown';

/** A converted page. */
export interface MarkdownPage {
  /** The page's title (Readability's, else `<title>`, else the first `<h1>`); '' when none. */
  title: string;
  markdown: string;
}

const DROP =
  'script, style, noscript, template, iframe, frame, frameset, object, embed, svg, canvas, link, meta, button, input, select, textarea';

let nhm: NodeHtmlMarkdown | undefined;

/** The part of a DOM element `absolutize` uses (core has no DOM lib types). */
interface ElementLike {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}

function absolutize(doc: { querySelectorAll(selector: string): ArrayLike<ElementLike> }, base: string): void {
  for (const [sel, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of Array.from(doc.querySelectorAll(sel))) {
      const value = el.getAttribute(attr) ?? '';
      if (attr === 'src' && value.trim().toLowerCase().startsWith('data:')) {
        el.remove();
        continue;
      }
      if (attr === 'href' && /^\s*javascript:/i.test(value)) {
        el.removeAttribute('href');
        continue;
      }
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        /* leave it as written */
      }
    }
  }
}

/**
 * Converts an HTML document to markdown.
 * @param html the page's HTML text (any size; the caller caps bytes before).
 * @param baseUrl the page's final URL, for relative links.
 */
export function htmlToMarkdown(html: string, baseUrl: string): MarkdownPage {
  const { document } = parseHTML(html);
  for (const el of Array.from(document.querySelectorAll(DROP) as ArrayLike<ElementLike>)) el.remove();
  absolutize(document, baseUrl);
  const fallbackTitle = (
    document.querySelector('title')?.textContent ??
    document.querySelector('h1')?.textContent ??
    ''
  ).trim();

  let contentHtml = '';
  let title = fallbackTitle;
  try {
    const article = new Readability(
      document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0],
      {
        charThreshold: 200,
      },
    ).parse();
    if (article?.content && (article.textContent ?? '').trim().length > 0) {
      contentHtml = article.content;
      title = (article.title ?? '').trim() || fallbackTitle;
    }
  } catch {
    /* Readability gave up: use the whole body */
  }
  if (!contentHtml) contentHtml = document.body?.innerHTML ?? document.documentElement?.outerHTML ?? html;

  nhm ??= new NodeHtmlMarkdown({
    maxConsecutiveNewlines: 2,
    keepDataImages: false,
    useLinkReferenceDefinitions: false,
  });
  const markdown = nhm
    .translate(contentHtml)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: title.replace(/\s+/g, ' '), markdown };
}
