/**
 * First-run setup against a server that checks its API key (run `npm run build` first): the
 * "Another OpenAI-compatible server" choice asks for an optional key, the daemon saves it in the
 * profile's `.env` under the variable `model.api_key_env` names, and the first prompt succeeds
 * because the model layer sends that key (without it the server answers 401).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { HERMES_BIN, runHermes } from './support/hermes-cli.js';
import { describeTmux, Tmux } from './support/tmux.js';

const KEY = 'sk-custom-0123456789';

describeTmux('hermes tui first run: a custom server with an API key', () => {
  const tmux = new Tmux(`hermes-setup-key-${process.pid}-${Date.now().toString(36)}`, {
    cols: 110,
    rows: 34,
  });
  let model: FakeModelServer;
  let root: string;
  beforeAll(async () => {
    model = await startFakeModelServer({ apiKey: KEY });
    root = mkdtempSync(join(tmpdir(), 'hermes-test-'));
    writeFileSync(join(root, 'config.yaml'), '_config_version: 2\n');
    const r = await runHermes(root, ['gateway', 'start']);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    tmux.kill();
    if (root) killDaemons(root);
    await model?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('asks for the key, saves it for the model layer, and the first prompt gets its reply', async () => {
    const env = { HERMES_HOME: root, CI: 'false', TERM: 'xterm-256color', NO_COLOR: '1' };
    const w = tmux.open('setup', [process.execPath, HERMES_BIN, 'tui', '--new'], env);
    const card = await tmux.waitFor(w, (s) => /No local server answered|\(running here\)/.test(s));
    tmux.keys(w, /(\d)\. Another OpenAI-compatible server/.exec(card)![1]!);
    await tmux.waitFor(w, 'Base URL');
    tmux.type(w, `${model.port}/v1`, 'Enter');
    await tmux.waitFor(w, 'saved as CUSTOM_API_KEY');
    tmux.type(w, KEY);
    const masked = await tmux.waitFor(w, `(${KEY.length} characters)`);
    expect(masked).not.toContain(KEY);
    tmux.keys(w, 'Enter');
    // the model list came from the key-checking server: the key was sent
    await tmux.waitFor(w, (s) => s.includes('Which model?') && s.includes('fake-model'));
    tmux.keys(w, 'Enter');
    await tmux.waitFor(w, (s) => s.includes('Model set up: fake-model') && s.includes('Type a message'));

    const envFile = join(root, '.env');
    expect(readFileSync(envFile, 'utf8')).toContain(`CUSTOM_API_KEY=${KEY}`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const config = readFileSync(join(root, 'config.yaml'), 'utf8');
    expect(config).toContain('api_key_env: CUSTOM_API_KEY');
    expect(config).not.toContain(KEY);

    model.push({ text: 'KEYED-REPLY' });
    tmux.type(w, 'hello keyed server', 'Enter');
    await tmux.waitFor(w, 'KEYED-REPLY');
    const chat = model.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chat.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
