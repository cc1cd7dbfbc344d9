/**
 * Images in a real terminal: `/image PATH` shows a chip above the composer, the prompt sent with
 * it reaches the scripted model as an image part, the transcript shows the chip under the prompt,
 * and a new TUI attached to the session shows the stored message's chip. `/paste` without any
 * clipboard says so; Ctrl+V with a clipboard holding an image (a scripted `xclip` on PATH)
 * attaches it; a model without vision refuses the prompt and the chip stays. Run `npm run build`
 * first.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TINY_PNG } from '@hermes/core/testing';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux } from './support/tmux.js';
import { useTuiTmux, tuiEnv } from './support/tui-tmux-fixture.js';

const tui = (...args: string[]): string[] => [process.execPath, HERMES_BIN, 'tui', ...args];
const CHIP = `[image dot.png · ${TINY_PNG.length} B]`;

describeTmux('images in the TUI', () => {
  let env: Record<string, string>;
  const fx = useTuiTmux('hermes-tui-image', { cols: 120, rows: 40 }, (root) => {
    const config = join(root, 'config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace('default: fake-model', 'default: fake-model\n  vision: true'),
    );
    writeFileSync(join(root, 'dot.png'), TINY_PNG);
    env = tuiEnv(root, { DISPLAY: '', WAYLAND_DISPLAY: '' });
  });
  const { tmux } = fx;

  it('/image PATH shows a chip, sends an image part, and the stored message keeps its chip after re-attach', async () => {
    const w = tmux.open('first', tui('--new'), env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));

    tmux.type(w, '/paste', 'Enter');
    await tmux.waitFor(w, 'No clipboard to read here');

    tmux.type(w, `/image ${join(fx.root, 'dot.png')}`, 'Enter');
    const attached = await tmux.waitFor(w, `Attached ${CHIP} to the next prompt.`);
    // the chip waits above the composer
    const lines = attached.split('\n');
    const chipRow = lines.findLastIndex((l) => l.trimEnd() === CHIP);
    expect(chipRow, attached).toBeGreaterThan(-1);
    expect(lines.slice(chipRow + 1).join('\n')).toContain('Type a message');

    const before = fx.model.requests.length;
    fx.model.push({ text: 'IMG-REPLY a red dot' });
    tmux.type(w, 'what is in the picture?', 'Enter');
    const done = await tmux.waitFor(w, (s) => s.includes('IMG-REPLY a red dot'), { timeoutMs: 15_000 });
    expect(done).toContain(`› what is in the picture?\n  ${CHIP}`);
    // sent: no chip waits above the composer any more
    expect(done.split('\n').filter((l) => l.trimEnd() === CHIP)).toHaveLength(0);
    const sent = fx.model.requests[before]!.body.messages.at(-1);
    expect(sent.content).toEqual([
      { type: 'text', text: 'what is in the picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG.toString('base64')}` } },
    ]);

    // a new TUI on the same session shows the stored message with its chip
    const list = await runHermes(fx.root, ['sessions', 'list', '--json']);
    const id = (JSON.parse(list.stdout) as Array<{ id: string }>)[0]!.id;
    tmux.keys(w, 'C-c');
    tmux.keys(w, 'C-c');
    const w2 = tmux.open('second', tui('--session', id), env);
    const again = await tmux.waitFor(
      w2,
      (s) => s.includes('IMG-REPLY a red dot') && s.includes('● connected'),
    );
    expect(again).toContain(`› what is in the picture?\n  ${CHIP}`);
  });

  it('Ctrl+V attaches the clipboard image (read with xclip) and sends it', async () => {
    const bin = join(fx.root, 'fake-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'clip.png'), TINY_PNG);
    const xclip = join(bin, 'xclip');
    writeFileSync(
      xclip,
      '#!/bin/sh\ncase "$*" in\n  *TARGETS*) printf \'TARGETS\\nimage/png\\n\' ;;\n  *image/png*) cat "$(dirname "$0")/clip.png" ;;\nesac\n',
    );
    chmodSync(xclip, 0o755);
    const w = tmux.open('paste', tui('--new'), {
      ...env,
      DISPLAY: ':99',
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    });
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    tmux.keys(w, 'C-v');
    const chip = `[image clipboard.png · ${TINY_PNG.length} B]`;
    await tmux.waitFor(w, `Attached ${chip} to the next prompt.`);
    const before = fx.model.requests.length;
    fx.model.push({ text: 'PASTE-REPLY got it' });
    tmux.type(w, 'and the pasted one?', 'Enter');
    const done = await tmux.waitFor(w, 'PASTE-REPLY got it', { timeoutMs: 15_000 });
    expect(done).toContain(`› and the pasted one?\n  ${chip}`);
    expect(fx.model.requests[before]!.body.messages.at(-1).content[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${TINY_PNG.toString('base64')}` },
    });
  });

  it('a model without vision refuses the prompt with the reason; the chip stays for the next try', async () => {
    const off = await runHermes(fx.root, ['config', 'set', 'model.vision', 'false']);
    expect(off.code, off.stderr).toBe(0);
    try {
      const w = tmux.open('novision', tui('--new'), env);
      await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
      tmux.type(w, `/image ${join(fx.root, 'dot.png')}`, 'Enter');
      await tmux.waitFor(w, `Attached ${CHIP} to the next prompt.`);
      const before = fx.model.requests.length;
      tmux.type(w, 'describe it', 'Enter');
      const refused = await tmux.waitFor(w, /cannot take images[\s\S]*model\.vision/);
      expect(refused).toMatch(
        /Message not sent: The prompt carries an image, but model fake-model cannot take images/,
      );
      expect(refused.split('\n').filter((l) => l.trimEnd() === CHIP)).toHaveLength(1); // still attached
      expect(fx.model.requests.length).toBe(before);
    } finally {
      await runHermes(fx.root, ['config', 'set', 'model.vision', 'true']);
    }
  });
});
