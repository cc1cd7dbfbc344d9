/**
 * `/model provider/model` in the real TUI (run `npm run build` first): the composer's popup
 * completes provider ids with their key state and the provider's models, the daemon switches
 * provider and model, and the next prompt goes to the new provider with its key from `.env`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux, Tmux } from './support/tmux.js';

describeTmux('hermes tui: /model provider/model with completion', () => {
  const tmux = new Tmux(`hermes-model-switch-${process.pid}-${Date.now().toString(36)}`, {
    cols: 110,
    rows: 30,
  });
  let model: FakeModelServer;
  let root: string;
  beforeAll(async () => {
    model = await startFakeModelServer({ whenEmpty: { text: 'REPLY-FROM-DEEPSEEK' } });
    root = mkdtempSync(join(tmpdir(), 'hermes-test-'));
    writeFileSync(
      join(root, 'config.yaml'),
      `_config_version: 2\nmodel:\n  provider: custom\n  base_url: ${model.url}\n  default: fake-model\n`,
    );
    writeFileSync(join(root, '.env'), `DEEPSEEK_API_KEY=sk-deep-tmux\nDEEPSEEK_BASE_URL=${model.url}\n`, {
      mode: 0o600,
    });
    const r = await runHermes(root, ['gateway', 'start']);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    tmux.kill();
    if (root) killDaemons(root);
    await model?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('completes deepseek/, switches to deepseek-chat, and the next turn uses its key', async () => {
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('tui', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    await tmux.waitFor(w, (s) => s.includes('Type a message') && s.includes('● connected'));
    tmux.type(w, '/model dee');
    await tmux.waitFor(w, (s) => s.includes('deepseek/') && s.includes('DeepSeek · key set'));
    tmux.keys(w, 'Tab');
    await tmux.waitFor(
      w,
      (s) => s.includes('deepseek/deepseek-chat') && s.includes('deepseek/deepseek-reasoner'),
    );
    tmux.type(w, 'deepseek-chat', 'Enter');
    await tmux.waitFor(w, 'Model: deepseek-chat on deepseek');
    expect(readFileSync(join(root, 'config.yaml'), 'utf8')).toMatch(/provider: deepseek/);
    tmux.type(w, 'hello there', 'Enter');
    await tmux.waitFor(w, 'REPLY-FROM-DEEPSEEK');
    const req = model.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    expect(req.body.model).toBe('deepseek-chat');
    expect(req.headers.authorization).toBe('Bearer sk-deep-tmux');
  });
});
