/**
 * The bundle's bounds on Ink's text caches (ui-tui/scripts/ink-cache-patch.mjs): the patched
 * modules measure, wrap and draw exactly what Ink's own do (except where Ink's wrap cache mixed up
 * two texts), a text used again is a cache hit, and the caches stay bounded however many texts
 * pass through them.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PassThrough } from 'node:stream';
import { createElement as h, type ReactElement } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import type * as InkNamespace from 'ink';

type InkModule = typeof InkNamespace;
import {
  INK_CACHE_PATCHES,
  MAX_TEXT_CACHE_ENTRIES,
  patchInkMeasureText,
  // @ts-expect-error -- a build script in plain JavaScript, without types
} from '../ui-tui/scripts/ink-cache-patch.mjs';
// @ts-expect-error -- a build script in plain JavaScript, without types
import { patchInkOutput } from '../ui-tui/scripts/ink-frame-patch.mjs';

const inkBuild = dirname(fileURLToPath(import.meta.resolve('ink')));
// a copy of Ink's build inside Ink's folder, so its bare imports resolve as Ink's do (its own signal-exit)
const copy = join(inkBuild, '..', `.hermes-test-${process.pid}`, 'build');
mkdirSync(copy, { recursive: true });
cpSync(inkBuild, copy, { recursive: true });
const patches = { 'output.js': patchInkOutput, ...INK_CACHE_PATCHES } as Record<
  string,
  (s: string) => string
>;
for (const [file, patch] of Object.entries(patches)) {
  writeFileSync(join(copy, file), patch(readFileSync(join(inkBuild, file), 'utf8')));
}
afterAll(() => rmSync(join(copy, '..'), { recursive: true, force: true }));

type Measure = (text: string) => { width: number; height: number };
type Wrap = (text: string, width: number, mode: string) => string;
const load = async <T>(dir: string, file: string): Promise<T> =>
  ((await import(pathToFileURL(join(dir, file)).href)) as { default: T }).default;

/** Texts of every kind the caches see: styled, wide, multi-line, long. */
function texts(count: number): string[] {
  const words = [
    'alpha',
    '\u001b[1mbold\u001b[22m',
    '漢字',
    '🙂',
    'a-very-long-word-that-must-break',
    '\n',
    '  ',
  ];
  return Array.from({ length: count }, (_, i) => {
    let t = '';
    for (let j = 0; j < 3 + (i % 17); j++) t += `${words[(i * 7 + j * 3) % words.length]} `;
    return `${t}${i}`;
  });
}

describe("the bounds on Ink 6.8's text caches in the TUI bundle", () => {
  it('measures and wraps exactly as Ink does', async () => {
    const [measure, measured] = [
      await load<Measure>(inkBuild, 'measure-text.js'),
      await load<Measure>(copy, 'measure-text.js'),
    ];
    const [wrap, wrapped] = [
      await load<Wrap>(inkBuild, 'wrap-text.js'),
      await load<Wrap>(copy, 'wrap-text.js'),
    ];
    for (const text of texts(300)) {
      expect(measured(text)).toEqual(measure(text));
      for (const mode of ['wrap', 'truncate', 'truncate-middle', 'truncate-start'])
        for (const width of [5, 17, 40]) expect(wrapped(text, width, mode)).toBe(wrap(text, width, mode));
    }
  });

  it('wraps texts whose keys Ink ran together each as its own (text + width: "v1" at 18, "v11" at 8)', async () => {
    const [wrap, wrapped] = [
      await load<Wrap>(inkBuild, 'wrap-text.js'),
      await load<Wrap>(copy, 'wrap-text.js'),
    ];
    const words = 'words in a line v1';
    expect(wrap(words, 18, 'wrap')).toBe(words);
    // Ink's own module: the second text gets the first one's lines (both keyed "…v118wrap")
    expect(wrap(`${words}1`, 8, 'wrap')).toBe(words);
    expect(wrapped(words, 18, 'wrap')).toBe(words);
    expect(wrapped(`${words}1`, 8, 'wrap')).toBe('words in\n a line \nv11');
  });

  it('keeps a text used again cached, and drops texts once more than two generations passed through', async () => {
    const measured = await load<Measure>(copy, 'measure-text.js');
    const hot = measured('the status bar');
    const cold = measured('a frame of a reply, drawn once');
    expect(measured('the status bar')).toBe(hot); // a hit: the same object
    const many = texts(3 * MAX_TEXT_CACHE_ENTRIES).map((t) => `${t} frame`);
    for (const [i, text] of many.entries()) {
      measured(text);
      if (i % 100 === 0) expect(measured('the status bar')).toBe(hot); // used all along: kept
    }
    expect(measured('the status bar')).toBe(hot);
    // the cold one and the early frames were dropped: measured again, a new object
    expect(measured('a frame of a reply, drawn once')).not.toBe(cold);
    expect(measured('a frame of a reply, drawn once')).toEqual(cold);
  });

  it('turns over on size too: long texts do not pile up under the entry count', async () => {
    const measured = await load<Measure>(copy, 'measure-text.js');
    const first = measured(`${'x'.repeat(100_000)} first`);
    for (let i = 0; i < 12; i++) measured(`${'y'.repeat(100_000)} ${i}`); // 1.2 M chars, 13 entries
    expect(measured(`${'x'.repeat(100_000)} first`)).not.toBe(first);
  });

  it('draws the same frames as Ink with all of the bundle’s patches applied', async () => {
    const draw = async (dir: string, tree: ReactElement): Promise<string> => {
      const ink = (await import(pathToFileURL(join(dir, 'index.js')).href)) as InkModule;
      const stdout = Object.assign(new PassThrough(), { columns: 40, rows: 20, isTTY: false });
      let out = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      const app = ink.render(tree, {
        stdout: stdout as unknown as NodeJS.WriteStream,
        debug: true,
        patchConsole: false,
      });
      app.unmount();
      return out;
    };
    const ink = (await import(pathToFileURL(join(inkBuild, 'index.js')).href)) as InkModule;
    const trees = texts(40).map((text, i) =>
      h(
        ink.Box,
        { flexDirection: 'column', width: 20 + (i % 15), borderStyle: i % 2 ? 'round' : undefined },
        h(ink.Text, { wrap: (['wrap', 'truncate', 'truncate-middle'] as const)[i % 3] }, text),
        h(ink.Box, { overflow: 'hidden', width: 12 }, h(ink.Text, {}, `clipped ${text}`)),
        h(ink.Text, { bold: i % 3 === 0, color: 'red' }, `${i} · status`),
      ),
    );
    for (const tree of trees) {
      const expected = await draw(inkBuild, tree);
      expect(expected).toContain('· status');
      expect(await draw(copy, tree)).toBe(expected);
    }
  });

  it('refuses a source it was not written for, naming itself and the file', () => {
    expect(() => patchInkMeasureText('const cache = new WeakMap();\n')).toThrow(
      /ink-cache-patch\.mjs: ink\/build\/measure-text\.js does not contain/,
    );
  });
});
