/**
 * `hermes auth add` at a real terminal (run `npm run build` first): the key is asked without
 * echo, a key the provider refuses (401) is kept only when the user says so, an accepted one is
 * saved, and no key ever shows on the screen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { HERMES_BIN } from './support/hermes-cli.js';
import { describeTmux, Tmux } from './support/tmux.js';

const GOOD = 'sk-deep-good-0123456789';
const BAD = 'sk-deep-bad-9876543210';

describeTmux('hermes auth add at a terminal', () => {
  const tmux = new Tmux(`hermes-auth-${process.pid}-${Date.now().toString(36)}`, { cols: 120, rows: 20 });
  let model: FakeModelServer;
  let root: string;
  beforeAll(async () => {
    model = await startFakeModelServer({ apiKey: GOOD });
    root = mkdtempSync(join(tmpdir(), 'hermes-test-'));
    writeFileSync(join(root, 'config.yaml'), `model:\n  provider: deepseek\n  base_url: ${model.url}\n`);
  });
  afterAll(async () => {
    tmux.kill();
    await model?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('asks without echo; a refused key is kept only on yes; an accepted one is saved', async () => {
    const env = { HERMES_HOME: root, NO_COLOR: '1', TERM: 'xterm-256color' };
    const w = tmux.open('bad', [process.execPath, HERMES_BIN, 'auth', 'add', 'deepseek'], env);
    await tmux.waitFor(w, 'API key for DeepSeek (DEEPSEEK_API_KEY; not shown):');
    tmux.type(w, BAD, 'Enter');
    const asked = await tmux.waitFor(w, 'Keep this key anyway? [y/N]');
    expect(asked).toMatch(/Rejected: .*HTTP 401/);
    tmux.type(w, 'n', 'Enter');
    const refused = await tmux.waitFor(w, 'key not saved');
    expect(refused).not.toContain(BAD);
    expect(() => readFileSync(join(root, '.env'))).toThrow();

    const g = tmux.open('good', [process.execPath, HERMES_BIN, 'auth', 'add', 'deepseek'], env);
    await tmux.waitFor(g, 'not shown):');
    tmux.type(g, GOOD, 'Enter');
    const saved = await tmux.waitFor(g, 'Saved DEEPSEEK_API_KEY for deepseek');
    expect(saved).toContain('OK: ');
    expect(saved).not.toContain(GOOD);
    expect(parse(readFileSync(join(root, '.env')))).toEqual({ DEEPSEEK_API_KEY: GOOD });
  });

  it('Ctrl-C at the key question ends the command with status 130, nothing written', async () => {
    const env = { HERMES_HOME: root, NO_COLOR: '1', TERM: 'xterm-256color' };
    const cmd = `${process.execPath} ${HERMES_BIN} auth add xai; echo "EXIT=$?"`;
    const w = tmux.open('ctrlc', ['sh', '-c', cmd], env);
    await tmux.waitFor(w, 'not shown):');
    tmux.keys(w, 'C-c');
    expect(await tmux.waitFor(w, /EXIT=\d+/)).toContain('EXIT=130');
    expect(parse(readFileSync(join(root, '.env'))).XAI_API_KEY).toBeUndefined();
  });
});
