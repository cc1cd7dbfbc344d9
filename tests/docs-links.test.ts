/**
 * Every relative Markdown link in README.md, docs/ and the packages' README.md files leads to a
 * file of this repository (and, with `#anchor`, to a heading of that file when it is Markdown).
 * Links to the web are not checked; a link that leaves the repository fails.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** README.md, every `*.md` under docs/, and `<folder>/README.md` for each top-level folder. */
function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const rel = join(dir, name);
      if (statSync(join(ROOT, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  for (const name of readdirSync(ROOT)) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    if (existsSync(join(ROOT, name, 'README.md'))) files.push(join(name, 'README.md'));
  }
  return files;
}

/** The link targets of a Markdown text: inline `[x](target)` and reference `[x]: target`. */
export function linkTargets(markdown: string): string[] {
  const text = markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, '') // fenced code
    .replace(/`[^`\n]*`/g, ''); // inline code
  const inline = [...text.matchAll(/\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
  const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...reference];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8')
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, '')
    .split('\n')
    .filter((l) => /^#{1,6}\s/.test(l))
    .map((l) => headingAnchor(l.replace(/^#+\s*/, '')));
  return new Set(headings);
}

/** What is wrong with `target` linked from `from` (repository-relative), or undefined. */
function brokenLink(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, from) : resolve(ROOT, dirname(from), decodeURIComponent(path));
  const rel = relative(ROOT, file);
  if (rel.startsWith(`..${sep}`) || rel === '..') return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file (${rel})`;
  if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor.toLowerCase())) {
    return `${target}: no heading #${anchor} in ${rel}`;
  }
  return undefined;
}

describe('Markdown links', () => {
  it('finds inline and reference links, skipping code', () => {
    const md = [
      'See [a](docs/a.md#top) and [b](<b c.md> "title"), `[not](x.md)`.',
      '```',
      '[nor](y.md)',
      '```',
      '[ref]: ../z.md',
    ].join('\n');
    expect(linkTargets(md)).toEqual(['docs/a.md#top', 'b c.md', '../z.md']);
    expect(headingAnchor('What the rules flag')).toBe('what-the-rules-flag');
    expect(headingAnchor('`session.attach` and replay')).toBe('sessionattach-and-replay');
  });

  it('refuses links out of the repository and to missing files or headings', () => {
    expect(brokenLink('README.md', '../shared/DESIGN.md')).toMatch(/outside the repository/);
    expect(brokenLink('docs/architecture.md', 'nope.md')).toMatch(/no such file/);
    expect(brokenLink('docs/architecture.md', 'protocol.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('docs/architecture.md', 'protocol.md')).toBeUndefined();
    expect(brokenLink('README.md', 'https://example.com/x.md')).toBeUndefined();
  });

  it('in README.md, docs/ and */README.md all resolve to files of the repository', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', join('docs', 'architecture.md')]));
    const links = files.flatMap((f) => linkTargets(readFileSync(join(ROOT, f), 'utf8')));
    expect(links.length).toBeGreaterThan(10);
    const broken = files.flatMap((f) =>
      linkTargets(readFileSync(join(ROOT, f), 'utf8')).flatMap((t) => {
        const why = brokenLink(f, t);
        return why ? [`${f}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('name no file outside the repository, not even as plain text', () => {
    const outside = markdownFiles().filter((f) => /\.\.\/shared\//.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
