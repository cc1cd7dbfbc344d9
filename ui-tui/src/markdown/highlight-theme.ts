/**
 * Syntax colours for fenced code, in ANSI names only (readable on light and dark terminals), built
 * on the app's chalk so NO_COLOR and the colour level apply to code too.
 */
import chalk from 'chalk';

type Fmt = (s: string) => string;

/** A cli-highlight theme: highlight.js token class → formatter. */
export function codeTheme(): Record<string, Fmt> {
  const keyword: Fmt = (s) => chalk.blue(s);
  const str: Fmt = (s) => chalk.green(s);
  const name: Fmt = (s) => chalk.cyan(s);
  const lit: Fmt = (s) => chalk.magenta(s);
  const dim: Fmt = (s) => chalk.gray(s);
  const plain: Fmt = (s) => s;
  return {
    keyword,
    built_in: name,
    type: name,
    literal: lit,
    number: lit,
    regexp: str,
    string: str,
    subst: plain,
    symbol: lit,
    class: name,
    function: plain,
    title: name,
    params: plain,
    comment: dim,
    doctag: dim,
    meta: dim,
    'meta-keyword': keyword,
    'meta-string': str,
    section: (s) => chalk.bold(s),
    tag: dim,
    name: keyword,
    'builtin-name': name,
    attr: name,
    attribute: name,
    variable: plain,
    bullet: plain,
    code: plain,
    emphasis: (s) => chalk.italic(s),
    strong: (s) => chalk.bold(s),
    formula: plain,
    link: (s) => chalk.underline(s),
    quote: dim,
    'selector-tag': keyword,
    'selector-id': name,
    'selector-class': name,
    'selector-attr': name,
    'selector-pseudo': name,
    'template-tag': keyword,
    'template-variable': plain,
    addition: (s) => chalk.green(s),
    deletion: (s) => chalk.red(s),
    default: plain,
  };
}
