/**
 * Markdown for the terminal: marked + marked-terminal, fenced code highlighted by cli-highlight
 * with ANSI-name colours, diffs coloured; headings and code frames as in blocks.ts. A single newline is a line break, as in GFM comments
 * and chat UIs (models write line-by-line output that way); each line carries its own styles. The libraries are loaded on demand (`loadMarkdown`), so
 * start-up does not wait for them; until then `renderMarkdown` returns the text as is.
 */
import chalk from 'chalk';
import type { Marked, Tokens } from 'marked';
import { stripControls } from '../util/sanitize.js';
import { carryStyles } from './ansi-lines.js';
import { formatHeading, frameCode } from './blocks.js';
import { colorDiff } from './diff.js';
import { listFromStart } from './list-start.js';
import { codeTheme } from './highlight-theme.js';

type Renderer = (text: string) => string;
/** The indentation of a list, in spaces (marked-terminal's `tab`). */
const TAB = 2;
interface Libs {
  Marked: typeof Marked;
  markedTerminal: (opts: object, highlightOpts: object) => object;
  highlight: (code: string, opts: object) => string;
  supportsLanguage: (lang: string) => boolean;
}

let libs: Libs | null = null;
let loading: Promise<void> | null = null;
const byWidth = new Map<string, Renderer>();

/** Loads the markdown libraries (once); resolves when `renderMarkdown` renders for real. */
export function loadMarkdown(): Promise<void> {
  loading ??= (async () => {
    const [marked, mt, hlModule] = await Promise.all([
      import('marked'),
      import('marked-terminal'),
      import('cli-highlight'),
    ]);
    // cli-highlight is CommonJS: its functions are named exports under Node, but only on
    // `default` in the esbuild bundle (scripts/bundle.mjs)
    const hl = typeof hlModule.highlight === 'function' ? hlModule : hlModule.default;
    libs = {
      Marked: marked.Marked,
      markedTerminal: mt.markedTerminal as unknown as Libs['markedTerminal'],
      highlight: hl.highlight,
      supportsLanguage: hl.supportsLanguage,
    };
  })();
  return loading;
}

/** True once the libraries are loaded. */
export function isMarkdownReady(): boolean {
  return libs !== null;
}

/** Colours a fenced code block: diffs by line, known languages highlighted, others plain. */
export function renderCode(code: string, lang: string | undefined): string {
  const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (language === 'diff' || language === 'patch') return colorDiff(code);
  if (!libs || !language || chalk.level === 0 || !libs.supportsLanguage(language)) return code;
  try {
    return libs.highlight(code, { language, ignoreIllegals: true, theme: codeTheme() });
  } catch {
    return code;
  }
}

function build(l: Libs, width: number): Renderer {
  // single newlines stay line breaks (GFM `breaks`): models write lines of output and lists so
  const m = new l.Marked({ breaks: true });
  const id = (s: string): string => s;
  const terminal = l.markedTerminal(
    {
      code: id,
      blockquote: chalk.gray.italic,
      html: chalk.gray,
      heading: chalk.bold,
      firstHeading: chalk.bold.underline,
      hr: chalk.gray,
      listitem: id,
      table: id,
      paragraph: id,
      strong: chalk.bold,
      em: chalk.italic,
      codespan: chalk.cyan,
      del: chalk.strikethrough,
      link: chalk.blue,
      href: chalk.blue.underline,
      text: id,
      width,
      reflowText: true,
      showSectionPrefix: false,
      tab: TAB,
      emoji: false,
      // cli-table3 colours with its own library: no colour names at all when colour is off
      tableOptions: {
        style: chalk.level > 0 ? { head: ['bold'], border: ['gray'] } : { head: [], border: [] },
      },
    },
    {},
  ) as { renderer: { list: Parameters<typeof listFromStart>[0] } };
  // an ordered list starts at its own first number (marked-terminal starts each one at 1)
  terminal.renderer.list = listFromStart(terminal.renderer.list, TAB);
  m.use(terminal);
  m.use({
    renderer: {
      code(token: Tokens.Code): string {
        const lang = stripControls((token.lang ?? '').trim().split(/\s+/)[0] ?? '');
        const code = renderCode(stripControls(token.text.replace(/\n$/, '')), token.lang);
        return `${frameCode(code, lang, width)}\n\n`;
      },
      // the text of a tight list item holds inline tokens (code, bold, links): marked-terminal's
      // `text` printed them as typed (`code`, **bold**); they are rendered, as in a paragraph, a
      // line break staying a line break (marked-terminal's `br` is a CR placeholder that only its
      // paragraphs turn back)
      text(
        this: { parser: { parseInline(tokens: NonNullable<Tokens.Text['tokens']>): string } },
        token: Tokens.Text | Tokens.Escape,
      ): string | false {
        if (!('tokens' in token) || !token.tokens) return false;
        return this.parser.parseInline(token.tokens).replace(/\r/g, '\n');
      },
      heading(
        this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } },
        token: Tokens.Heading,
      ) {
        return `${formatHeading(this.parser.parseInline(token.tokens), token.depth)}\n\n`;
      },
    },
  });
  return (text) => {
    const out = m.parse(text, { async: false });
    return carryStyles(out.replace(/\s+$/, ''));
  };
}

/**
 * Renders markdown to ANSI text for a terminal `width` columns wide. Falls back to the text as is
 * before `loadMarkdown` finished, or if rendering fails.
 */
export function renderMarkdown(text: string, width: number): string {
  if (!libs) return stripControls(text);
  const w = Math.max(20, Math.floor(width));
  const key = `${w}:${chalk.level}`;
  let r = byWidth.get(key);
  if (!r) {
    if (byWidth.size > 8) byWidth.clear();
    r = build(libs, w);
    byWidth.set(key, r);
  }
  try {
    return r(text);
  } catch {
    return stripControls(text);
  }
}
