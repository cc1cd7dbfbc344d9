// The steps of the TUI's bundle (scripts/bundle-plugins.mjs): string-width with its emoji
// expression compiled lazily measures exactly as published; an ESM bundle becomes a script that
// runs (top-level await, Node built-ins, lazily imported packages).
import { build } from 'esbuild';
import type Assert from 'node:assert';
import { createRequire } from 'node:module';
import type * as Path from 'node:path';
import type * as Zlib from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  builtinShim,
  inputPausesPlugin,
  lazyRgiEmoji,
  lazyRgiEmojiPlugin,
  scriptImportsPlugin,
  toAsyncFunctionScript,
} from '../scripts/bundle-plugins.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
type Width = (s: string, opts?: { ambiguousIsNarrow?: boolean }) => number;

/** string-width bundled as the TUI bundles it (with `plugins`) and loaded. */
async function stringWidth(plugins: (typeof lazyRgiEmojiPlugin)[]): Promise<{ width: Width; code: string }> {
  const out = await build({
    stdin: { contents: "export { default } from 'string-width';", resolveDir: pkg },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    plugins,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
    default: Width;
  };
  return { width: mod.default, code };
}

/** Strings covering every kind of RGI emoji sequence, near misses, and what the TUI draws. */
function corpus(): string[] {
  const out = [
    '╭──╮ │ › Type a message · / for commands',
    '#️⃣ 1️⃣ *️⃣ 1⃣ #⃣', // keycaps, qualified and not
    '🇫🇷🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿', // flags, a tag sequence
    '👍🏽 👩‍💻 👨‍👩‍👧‍👦 🧑🏿‍🦱', // modifiers, ZWJ sequences
    '© ®️ ™ ↔️ ☺ ☺️ ⌚ ✈️ ❤️ ❤', // text-default emoji with and without VS16
    '日本語 한국어 ｶﾞ 각 e\u0301 \u200b',
    '\u001b[31mred\u001b[39m ok',
  ];
  // every code point of the BMP but the CJK ideographs and Hangul syllables, and of the emoji
  // planes, alone and followed by U+FE0F
  const ranges: [number, number][] = [
    [0x20, 0x33ff],
    [0xa000, 0xabff],
    [0xd7b0, 0xd7ff],
    [0xe000, 0xffff],
    [0x1f000, 0x1fbff],
  ];
  for (const [from, to] of ranges) {
    for (let cp = from; cp <= to; cp += 1) {
      const ch = String.fromCodePoint(cp);
      out.push(ch, `${ch}\ufe0f`);
    }
  }
  return out;
}

describe('lazyRgiEmoji (string-width as the TUI bundles it)', () => {
  it('measures every string as the published string-width does', async () => {
    const published = await stringWidth([]);
    const lazy = await stringWidth([lazyRgiEmojiPlugin]);
    expect(lazy.code).toContain('mayBeRgiEmoji'); // the plugin applied
    expect(published.code).not.toContain('mayBeRgiEmoji');
    const differ = corpus().filter(
      (s) =>
        lazy.width(s) !== published.width(s) ||
        lazy.width(s, { ambiguousIsNarrow: false }) !== published.width(s, { ambiguousIsNarrow: false }),
    );
    expect(differ).toEqual([]);
  }, 60_000);

  it('leaves a source without the expression as it is', () => {
    expect(lazyRgiEmoji('export default (s) => s.length;')).toBe('export default (s) => s.length;');
  });
});

/** Evaluates a built-in's shim with a `require` that records what it loads. */
function shimOf(spec: string): { exports: unknown; loaded: string[] } {
  const loaded: string[] = [];
  const req = createRequire(import.meta.url);
  const module = { exports: {} as unknown };
  new Function('module', 'require', builtinShim(spec))(module, (id: string) => {
    loaded.push(id);
    return req(id) as unknown;
  });
  return { exports: module.exports, loaded };
}

describe('builtinShim (Node built-ins in the script bundle)', () => {
  it('loads a deferred built-in on the first use of an export, not before', () => {
    const { exports, loaded } = shimOf('node:zlib');
    const zlib = exports as typeof Zlib;
    expect(loaded).toEqual([]);
    expect(Object.keys(zlib)).toContain('gzipSync'); // the names are known without loading
    expect(loaded).toEqual([]);
    expect(zlib.gunzipSync(zlib.gzipSync('hi')).toString()).toBe('hi');
    expect(loaded).toEqual(['node:zlib']);
  });

  it('a built-in that is a function (assert) stays callable, its exports too', () => {
    const { exports, loaded } = shimOf('assert');
    const assert = exports as typeof Assert;
    expect(loaded).toEqual([]);
    expect(() => assert(false, 'no')).toThrow('no');
    expect(() => assert.equal(1, 2)).toThrow(assert.AssertionError);
    expect(loaded).toEqual(['assert']); // once
  });

  it('other built-ins are required as they are', () => {
    const { exports, loaded } = shimOf('node:path');
    expect(loaded).toEqual(['node:path']);
    expect((exports as typeof Path).sep).toBe('/');
  });
});

describe('toAsyncFunctionScript', () => {
  it('turns an ESM bundle into a script: top-level await, built-ins, lazy imports, exports', async () => {
    const out = await build({
      stdin: {
        contents: [
          "import { sep } from 'node:path';",
          "import os from 'os';",
          'const later = await Promise.resolve(42);',
          "export const loadLazy = () => import('lazy-pkg');",
          'export { sep, later };',
          'export const eol = os.EOL;',
          'export const url = import.meta.url;',
        ].join('\n'),
        resolveDir: pkg,
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      external: ['lazy-pkg'],
      define: { 'import.meta.url': 'importMetaUrl' },
      plugins: [scriptImportsPlugin],
      logLevel: 'silent',
    });
    const source = toAsyncFunctionScript(out.outputFiles[0]!.text, ['lazy-pkg']);
    const fn = runInThisContext(source) as (
      req: NodeJS.Require,
      importLazy: (name: string) => Promise<unknown>,
      url: string,
    ) => Promise<Record<string, unknown>>;
    const asked: string[] = [];
    const exports = await fn(
      createRequire(import.meta.url),
      async (name) => {
        asked.push(name);
        return { lazy: true };
      },
      'file:///x/app.js',
    );
    expect(exports.sep).toBe('/');
    expect(exports.later).toBe(42);
    expect(exports.eol).toBe('\n');
    expect(exports.url).toBe('file:///x/app.js');
    await expect((exports.loadLazy as () => Promise<unknown>)()).resolves.toEqual({ lazy: true });
    expect(asked).toEqual(['lazy-pkg']);
  });

  it('refuses a bundle that still imports a module', () => {
    expect(() => toAsyncFunctionScript('import x from "y";\nexport { x };', [])).toThrow(/still imports/);
    expect(() => toAsyncFunctionScript('const f = () => import("z");\nexport { f };', [])).toThrow(
      /still imports/,
    );
  });
});

describe('inputPausesPlugin', () => {
  it('an input pause between imports lets the event loop run before the next module evaluates', async () => {
    const out = await build({
      stdin: {
        contents: [
          "import 'virtual:a';",
          "import 'hermes:input-pause/1';",
          "import 'virtual:b';",
          'export const order = globalThis.pauseOrder;',
        ].join('\n'),
        resolveDir: pkg,
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
      plugins: [
        inputPausesPlugin,
        {
          name: 'virtual',
          setup(b) {
            b.onResolve({ filter: /^virtual:/ }, (a) => ({ path: a.path, namespace: 'virtual' }));
            b.onLoad({ filter: /.*/, namespace: 'virtual' }, (a) => ({
              contents:
                a.path === 'virtual:a'
                  ? "globalThis.pauseOrder = ['a']; setTimeout(() => globalThis.pauseOrder.push('timer'), 0);"
                  : "globalThis.pauseOrder.push('b');",
              loader: 'js',
            }));
          },
        },
      ],
    });
    const mod = (await import(
      `data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`
    )) as { order: string[] };
    expect(mod.order).toEqual(['a', 'timer', 'b']);
  });
});
