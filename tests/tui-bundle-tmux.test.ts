/**
 * `hermes tui` as built (run `npm run build` first): the app runs from its bundled script
 * (ui-tui/dist/bundle/app.js) with a V8 code cache the first launch writes beside it and later
 * launches use without rewriting; the markdown libraries load from the lazy bundle when a reply
 * is shown, and render it.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { waitFor } from './support/gateway-process.js';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { tuiEnv, useTuiTmux } from './support/tui-tmux-fixture.js';

const bundleDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'ui-tui', 'dist', 'bundle');
const app = join(bundleDir, 'app.js');
const cache = `${app}.cache`;
const ready = (s: string): boolean => s.includes('● connected') && s.includes('◇ idle');

describeTmux('hermes tui in tmux: the bundled app', () => {
  const fx = useTuiTmux('hermes-tui-bundle', { cols: 100, rows: 30 });

  it('the first launch writes the code cache for its bundle; the next one uses it as it is', async () => {
    const { tmux, root } = fx;
    rmSync(cache, { force: true });
    const first = tmux.open('first', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    await tmux.waitFor(first, ready);
    await waitFor(() => existsSync(cache), 'the code cache written beside the bundle', 10_000);
    const file = readFileSync(cache);
    const header = JSON.parse(file.subarray(0, file.indexOf(10)).toString('utf8')) as object;
    expect(header).toMatchObject({ size: statSync(app).size, mtimeMs: statSync(app).mtimeMs });
    const written = statSync(cache).mtimeMs;

    const second = tmux.open('second', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    await tmux.waitFor(second, ready);
    tmux.type(second, '/');
    await tmux.waitFor(second, '/help');
    expect(statSync(cache).mtimeMs).toBe(written);
  });

  it('renders a markdown reply with the lazily loaded libraries', async () => {
    const { tmux, root, model } = fx;
    model.push({ text: '# Plan\n\nThis is **bold** and `code`.\n\n```js\nconst x = 1;\n```\n\nDONE-MARK' });
    const t = tmux.open('md', [process.execPath, HERMES_BIN, 'tui', '--new'], tuiEnv(root));
    await tmux.waitFor(t, ready);
    tmux.type(t, 'show markdown');
    tmux.keys(t, 'Enter');
    const screen = await tmux.waitFor(t, (s) => s.includes('DONE-MARK') && ready(s), { timeoutMs: 30_000 });
    const reply = screen.slice(screen.indexOf('Plan'));
    expect(reply).toContain('This is bold and code.');
    expect(reply).not.toContain('**');
    expect(reply).not.toContain('```');
    expect(reply).toContain('const x = 1;');
  });
});
