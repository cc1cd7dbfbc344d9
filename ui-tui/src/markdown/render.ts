/**
 * Markdown for the terminal: marked + marked-terminal, fenced code highlighted by cli-highlight
 * with ANSI-name colours, diffs coloured; headings and code frames as in blocks.ts, lists as in
 * list.ts, tables as in table.ts; text wrapped to the room its block has (wrap.ts). A single
 * newline is a line break, as in GFM comments and chat UIs (models write line-by-line output that
 * way); each line carries its own styles. The libraries are loaded on demand (`loadMarkdown`), so
 * start-up does not wait for them; until then `renderMarkdown` returns the text as is.
 */
import chalk from 'chalk';
import type { Marked, Token, Tokens } from 'marked';
import { stripControls } from '../util/sanitize.js';
import { carryStyles } from './ansi-lines.js';
import { formatHeading, frameCode } from './blocks.js';
import { colorDiff } from './diff.js';
import { formatList } from './list.js';
import { formatTable } from './table.js';
import { wrapText } from './wrap.js';
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

/**
 * Loads the markdown libraries (once); resolves when `renderMarkdown` renders for real.
 * `HERMES_TUI_MARKDOWN_DELAY_MS` (tests: what the screen shows while they load) waits that long first.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= (async () => {
    const delay = Number(process.env.HERMES_TUI_MARKDOWN_DELAY_MS);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
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

/**
 * Inline text as marked-terminal leaves it, made plain text: its placeholder for `:` in code spans
 * and its hard line break (CR) undone, HTML entities unescaped.
 */
function inlineText(text: string): string {
  return text
    .replace(/\*#COLON\|\*/g, ':')
    .replace(/\r/g, '\n')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e] ?? _);
}
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

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
    },
    {},
  );
  m.use(terminal);
  /** The width the block being rendered has, in columns (less inside a list item or a quote). */
  let room = width;
  const within = <T>(w: number, f: () => T): T => {
    const outer = room;
    room = w;
    try {
      return f();
    } finally {
      room = outer;
    }
  };
  type Parser = {
    parse(tokens: Token[]): string;
    parseInline(tokens: Token[]): string;
  };
  m.use({
    renderer: {
      code(token: Tokens.Code): string {
        const lang = stripControls((token.lang ?? '').trim().split(/\s+/)[0] ?? '');
        const code = renderCode(stripControls(token.text.replace(/\n$/, '')), token.lang);
        return `${frameCode(code, lang, room)}\n\n`;
      },
      // paragraphs wrap to the room they have (in a list item: the item's text column on), a line
      // break staying one (marked-terminal's `br` is a CR placeholder)
      paragraph(this: { parser: Parser }, token: Tokens.Paragraph): string {
        return `${wrapText(inlineText(this.parser.parseInline(token.tokens)), room)}\n\n`;
      },
      // the text of a tight list item holds inline tokens (code, bold, links): rendered, as in a
      // paragraph, and wrapped to the item's room
      text(this: { parser: Parser }, token: Tokens.Text | Tokens.Escape): string | false {
        if (!('tokens' in token) || !token.tokens) return false;
        return wrapText(inlineText(this.parser.parseInline(token.tokens)), room);
      },
      heading(this: { parser: Parser }, token: Tokens.Heading) {
        return `${formatHeading(inlineText(this.parser.parseInline(token.tokens)), token.depth)}\n\n`;
      },
      checkbox(token: Tokens.Checkbox): string {
        return token.checked ? '[x] ' : '[ ] ';
      },
      list(this: { parser: Parser }, token: Tokens.List): string {
        const render = (tokens: Token[], w: number): string => within(w, () => this.parser.parse(tokens));
        return `${formatList(token, room, render, TAB)}\n\n`;
      },
      blockquote(this: { parser: Parser }, token: Tokens.Blockquote): string {
        const body = within(room - TAB, () => this.parser.parse(token.tokens)).trim();
        const quoted = body.split('\n').map((l) => (l ? ' '.repeat(TAB) + l : l));
        return `${chalk.gray.italic(quoted.join('\n'))}\n\n`;
      },
      table(this: { parser: Parser }, token: Tokens.Table): string {
        const cell = (c: Tokens.TableCell): string => inlineText(this.parser.parseInline(c.tokens));
        const table = {
          header: token.header.map(cell),
          rows: token.rows.map((r) => r.map(cell)),
          align: token.align,
        };
        return `${formatTable(table, room)}\n\n`;
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
