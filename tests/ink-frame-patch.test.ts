/**
 * The bundle's change to Ink's frame builder (ui-tui/scripts/ink-frame-patch.mjs): the patched
 * Output builds exactly the frames Ink's own does — styled text, wide characters, clipping, frame
 * after frame with the caches kept — and a source it was not written for fails loudly.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without types
import { MAX_CACHED_LINES, patchInkOutput } from '../ui-tui/scripts/ink-frame-patch.mjs';

const inkBuild = dirname(fileURLToPath(import.meta.resolve('ink')));
const original = readFileSync(join(inkBuild, 'output.js'), 'utf8');
// a copy of Ink's build inside node_modules, so its bare imports resolve as Ink's do
const copy = join(inkBuild, '..', '..', '.cache', `hermes-ink-patch-${process.pid}`, 'build');

interface OutputLike {
  write(
    x: number,
    y: number,
    text: string,
    opts: { transformers: Array<(s: string, i: number) => string> },
  ): void;
  clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (o: { width: number; height: number }) => OutputLike;

/** The frames a list of scenes makes with an Output class. */
function frames(Output: OutputClass, scenes: Array<(o: OutputLike) => void>, width = 30): string[] {
  return scenes.map((scene) => {
    const o = new Output({ width, height: 6 });
    scene(o);
    return o.get().output;
  });
}

const bold = (s: string): string => `\u001b[1m${s}\u001b[22m`;
const red = (s: string): string => `\u001b[31m${s}\u001b[39m`;
const none = { transformers: [] };
const SCENES: Array<(o: OutputLike) => void> = [
  (o) => o.write(0, 0, `plain ${bold('bold')} and ${red('red')}\nsecond line`, none),
  (o) => o.write(2, 1, '漢字 and emoji 🙂 wide', none),
  (o) => {
    o.clip({ x1: 2, x2: 12 });
    o.write(0, 2, `clipped ${red('styled text that runs past')}`, none);
    o.unclip();
    o.write(0, 4, 'status · ● connected', { transformers: [(s) => s.toUpperCase()] });
  },
  // the same line clipped to other bounds (a cut line is cached by line and bounds)
  (o) => {
    o.clip({ x1: 2, x2: 8 });
    o.write(0, 2, `clipped ${red('styled text that runs past')}`, none);
    o.unclip();
  },
  (o) => {
    o.clip({ x1: 4, x2: 8 });
    o.write(0, 2, `clipped ${red('styled text that runs past')}`, none);
    o.unclip();
  },
  // the same lines again (now from the caches), and again changed
  (o) => o.write(0, 0, `plain ${bold('bold')} and ${red('red')}\nsecond line`, none),
  (o) => o.write(0, 0, `plain ${bold('bold')} and ${red('red!')}\nsecond line`, none),
];

/** Styles a random text is built from: colours, intensity (bold and dim share an end code), resets. */
const STYLES: Array<[string, string]> = [
  ['\u001b[1m', '\u001b[22m'],
  ['\u001b[2m', '\u001b[22m'],
  ['\u001b[3m', '\u001b[23m'],
  ['\u001b[31m', '\u001b[39m'],
  ['\u001b[32m', '\u001b[39m'],
  ['\u001b[44m', '\u001b[49m'],
  ['\u001b[38;5;208m', '\u001b[39m'],
];

/** Scenes of random styled, nested and overlapping writes (a seeded generator: the same every run). */
function randomScenes(count: number, seed = 7): Array<(o: OutputLike) => void> {
  let x = seed;
  const rnd = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((x / 2 ** 31) * n);
  };
  const text = (): string => {
    let out = '';
    for (let i = rnd(6) + 1; i > 0; i--) {
      const word = ['ab', 'c d', '漢', ' ', 'xyz', '🙂'][rnd(6)]!;
      const style = rnd(4) === 0 ? undefined : STYLES[rnd(STYLES.length)]!;
      if (!style) out += word;
      else if (rnd(3) === 0)
        out += `${style[0]}${word}`; // left open: runs on, or into the next write
      else if (rnd(5) === 0) out += `${style[0]}${word}\u001b[0m`;
      else out += `${style[0]}${word}${style[1]}`;
    }
    return out;
  };
  const upper = { transformers: [(s: string, i: number) => (i === 0 ? s.toUpperCase() : s)] };
  return Array.from({ length: count }, () => {
    // columns past the width leave holes in the row; rows above or below the frame are skipped
    const writes = Array.from({ length: rnd(5) + 1 }, () => ({
      x: rnd(36),
      y: rnd(9) - 1,
      t: `${text()}\n${text()}`,
      clip: rnd(4) === 0 ? { x1: rnd(10), x2: 10 + rnd(20), y1: rnd(3), y2: 3 + rnd(3) } : null,
      opts: rnd(5) === 0 ? upper : none,
    }));
    return (o: OutputLike) => {
      for (const w of writes) {
        if (w.clip) o.clip(w.clip);
        o.write(w.x, w.y, w.t, w.opts);
        if (w.clip) o.unclip();
      }
    };
  });
}

describe('the patch of Ink 6.8 frame building in the TUI bundle', () => {
  afterAll(() => rmSync(join(copy, '..'), { recursive: true, force: true }));

  it('builds the same frames as Ink, frame after frame, and leaves blank cells unchanged', async () => {
    mkdirSync(copy, { recursive: true });
    cpSync(inkBuild, copy, { recursive: true });
    writeFileSync(join(copy, 'output.js'), patchInkOutput(original));
    const Ink = (await import(pathToFileURL(join(inkBuild, 'output.js')).href)) as { default: OutputClass };
    const Patched = (await import(pathToFileURL(join(copy, 'output.js')).href)) as { default: OutputClass };
    const expected = frames(Ink.default, SCENES);
    expect(frames(Patched.default, SCENES)).toEqual(expected);
    expect(frames(Patched.default, SCENES)).toEqual(expected); // caches warm
    // more lines than the caches hold: they start again, frames stay right
    const many = Array.from(
      { length: MAX_CACHED_LINES + 10 },
      (_, i) => (o: OutputLike) => o.write(0, 0, `line ${i}`, none),
    );
    expect(frames(Patched.default, many)).toEqual(frames(Ink.default, many));
    expect(frames(Patched.default, SCENES)).toEqual(expected);
  });

  it('builds the same rows as Ink for styles that start, stop, nest and run across writes', async () => {
    mkdirSync(copy, { recursive: true });
    cpSync(inkBuild, copy, { recursive: true });
    writeFileSync(join(copy, 'output.js'), patchInkOutput(original));
    const Ink = (await import(pathToFileURL(join(inkBuild, 'output.js')).href)) as { default: OutputClass };
    const Patched = (await import(pathToFileURL(join(copy, 'output.js')).href)) as { default: OutputClass };
    const scenes = randomScenes(400);
    const expected = frames(Ink.default, scenes);
    // the generator makes styled rows (not only plain ones), or this would prove little
    expect(expected.filter((f) => f.includes('\u001b[')).length).toBeGreaterThan(300);
    expect(frames(Patched.default, scenes)).toEqual(expected);
    // again (rows now from the cache), and at other widths (a row's text depends on the width)
    expect(frames(Patched.default, scenes)).toEqual(expected);
    // few enough scenes that their rows stay in the cache from one width to the next
    const some = scenes.slice(0, 40);
    for (const width of [30, 24, 40]) {
      expect(frames(Patched.default, some, width)).toEqual(frames(Ink.default, some, width));
    }
  });

  it('refuses a source it was not written for, naming itself', () => {
    expect(() => patchInkOutput(original.replace('caches = new OutputCaches();', 'caches = x;'))).toThrow(
      /ink-frame-patch\.mjs: .*caches = new OutputCaches\(\)/,
    );
    expect(() => patchInkOutput(patchInkOutput(original))).toThrow(/Output\.get .* not the one/);
    expect(() => patchInkOutput(original.replace('offsetX += characterWidth;', 'offsetX += 1;'))).toThrow(
      /ink-frame-patch\.mjs: Output\.get/,
    );
    expect(() =>
      patchInkOutput(
        original.replace("from '@alcalzone/ansi-tokenize';", "from '@alcalzone/ansi-tokenize/x';"),
      ),
    ).toThrow(/exactly once/);
  });
});
