/**
 * `hermes model` and `hermes auth` through the real CLI against a temporary home, with the
 * scripted server playing the provider's models endpoint (key checks, model lists).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'dotenv';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
beforeAll(async () => {
  model = await startFakeModelServer({
    apiKey: 'sk-good-0123456789abcd',
    models: ['deepseek-chat', 'deepseek-v9'],
  });
});
afterAll(() => model.close());

const CONFIG = (url: string) =>
  `# my settings\nmodel:\n  provider: deepseek   # chosen by hand\n  base_url: ${url}\n  default: deepseek-chat\nagent:\n  max_turns: 7  # keep\n`;

describe('hermes model', () => {
  it('shows the provider and model, and every provider with its key state', async () => {
    const root = makeTestHome({
      config: CONFIG(model.url),
      env: 'DEEPSEEK_API_KEY=sk-good-0123456789abcd\n',
    });
    const r = await runHermes(root, ['model']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Provider: deepseek');
    expect(r.stdout).toContain('Model:    deepseek-chat');
    expect(r.stdout).toMatch(/● deepseek +DeepSeek — key set \(DEEPSEEK_API_KEY\)/);
    expect(r.stdout).toMatch(/ zai +z\.ai \/ GLM — no key \(GLM_API_KEY or ZAI_API_KEY or Z_AI_API_KEY\)/);
    expect(r.stdout).toMatch(/ ollama +Ollama — local, http:\/\/127\.0\.0\.1:11434\/v1/);
    expect(r.stdout).toMatch(/ bedrock +AWS Bedrock — not supported here/);
    expect(r.stdout).not.toContain('sk-good');
  });

  it('with provider auto, says which provider it uses', async () => {
    const root = makeTestHome({ env: 'OPENROUTER_API_KEY=sk-or-0123456789abcdef\n' });
    const r = await runHermes(root, ['model']);
    expect(r.stdout).toContain('Provider: auto (uses openrouter)');
    const none = await runHermes(makeTestHome(), ['model']);
    expect(none.stdout).toContain('Provider: auto (none usable yet)');
  });

  it("list: the provider's models endpoint, else its default list with the reason on stderr", async () => {
    const root = makeTestHome({
      config: CONFIG(model.url),
      env: 'DEEPSEEK_API_KEY=sk-good-0123456789abcd\n',
    });
    const live = await runHermes(root, ['model', 'list']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toBe('deepseek-chat\ndeepseek-v9\n');
    const other = await runHermes(root, ['model', 'list', 'glm']);
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('glm-4.6');
    expect(other.stderr).toMatch(/zai: known models .*GLM_API_KEY/);
    const bad = await runHermes(root, ['model', 'list', 'deepseak']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown provider "deepseak" \(did you mean "deepseek"/);
  });

  it('set PROVIDER/MODEL and PROVIDER MODEL write config.yaml, keeping comments and other keys', async () => {
    const root = makeTestHome({ config: CONFIG(model.url) });
    const file = join(root, 'config.yaml');
    const same = await runHermes(root, ['model', 'set', 'deepseek/deepseek-v9']);
    expect(same.code, same.stderr).toBe(0);
    let text = readFileSync(file, 'utf8');
    expect(text).toContain('default: deepseek-v9');
    expect(text).toContain(`base_url: ${model.url}`); // same provider: its endpoint stays
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 7 # keep'); // the YAML writer keeps comments (one space before)

    const r = await runHermes(root, ['model', 'kimi', 'kimi-k2-turbo-preview']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Model: kimi-k2-turbo-preview on kimi-coding .*removed model\.base_url/);
    expect(r.stderr).toMatch(/KIMI_API_KEY/); // no key yet: said, not refused
    text = readFileSync(file, 'utf8');
    expect(text).toContain('provider: kimi-coding # chosen by hand');
    expect(text).not.toContain('base_url');

    const refused = await runHermes(root, ['model', 'set', 'bedrock/claude']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/bedrock.*SigV4/);
    const spaced = await runHermes(root, ['model', 'deepseek', 'deepseek chat']);
    expect(spaced.code).toBe(1);
    expect(spaced.stderr).toMatch(/model id "deepseek chat" contains U\+0020/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('completes provider ids and models in the shell', async () => {
    const root = makeTestHome();
    const ids = await runHermes(root, ['--get-yargs-completions', 'hermes', 'model', 'set', 'dee']);
    expect(ids.stdout.split('\n')).toContain('deepseek');
    const models = await runHermes(root, ['--get-yargs-completions', 'hermes', 'model', 'set', 'deepseek/']);
    expect(models.stdout.split('\n')).toContain('deepseek/deepseek-reasoner');
    const auth = await runHermes(root, ['--get-yargs-completions', 'hermes', 'auth', 'add', '']);
    expect(auth.stdout.split('\n')).toContain('openrouter');
    const top = await runHermes(root, ['--get-yargs-completions', 'hermes', 'mo']);
    expect(top.stdout.split('\n')).toContain('model');
  });
});

describe('hermes auth', () => {
  it('add checks the key (OK), writes .env 0600 keeping its other lines, never prints the key', async () => {
    const root = makeTestHome({ config: CONFIG(model.url), env: '# keys\nIRC_PASSWORD="x y"\n' });
    const r = await runHermes(root, ['auth', 'add', 'deepseek', '--key', 'sk-good-0123456789abcd']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/OK: .*accepted the key/);
    expect(r.stdout + r.stderr).not.toContain('sk-good-0123456789abcd');
    const env = readFileSync(join(root, '.env'), 'utf8');
    expect(env).toBe('# keys\nIRC_PASSWORD="x y"\nDEEPSEEK_API_KEY=sk-good-0123456789abcd\n');
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o600);
    expect(model.requests.at(-1)!.headers.authorization).toBe('Bearer sk-good-0123456789abcd');

    const list = await runHermes(root, ['auth', 'list']);
    expect(list.stdout).toMatch(/deepseek +DEEPSEEK_API_KEY +••••abcd +\(\.env\)/);
    expect(list.stdout).not.toContain('sk-good');
  });

  it('a rejected key (401) is not saved without a terminal to ask; --no-check saves it; stdin gives it', async () => {
    const root = makeTestHome({ config: CONFIG(model.url) });
    const bad = await runHermes(root, ['auth', 'add', 'deepseek', '--key', 'sk-wrong-key-000000']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Rejected: .*HTTP 401/);
    expect(bad.stderr).toMatch(/key not saved/);
    expect(bad.stdout + bad.stderr).not.toContain('sk-wrong-key-000000');
    expect(() => readFileSync(join(root, '.env'))).toThrow();

    const forced = await runHermes(root, [
      'auth',
      'add',
      'deepseek',
      '--key',
      'sk-wrong-key-000000',
      '--no-check',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    const piped = await runHermes(root, ['auth', 'add', 'glm', '--no-check'], { input: 'a\\b"c #$ `x\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(parse(readFileSync(join(root, '.env')))).toEqual({
      DEEPSEEK_API_KEY: 'sk-wrong-key-000000',
      GLM_API_KEY: 'a\\b"c #$ `x',
    });

    // a key copied with a zero-width or no-break space is refused before anything is written
    for (const odd of ['sk-good-\u200b0123', 'sk-good\u00a00123']) {
      const r = await runHermes(root, ['auth', 'add', 'xai', '--no-check'], { input: `${odd}\n` });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/U\+(200B|00A0) at position \d+.*nothing written/);
      expect(r.stderr).not.toContain('0123');
      expect(parse(readFileSync(join(root, '.env'), 'utf8')).XAI_API_KEY).toBeUndefined();
    }
    const removed = await runHermes(root, ['auth', 'remove', 'deepseek']);
    expect(removed.code).toBe(0);
    expect(parse(readFileSync(join(root, '.env')))).toEqual({ GLM_API_KEY: 'a\\b"c #$ `x' });
  });

  it('an unreachable provider: the key is saved with a warning; local and unsupported providers are refused', async () => {
    const root = makeTestHome({
      config: 'model:\n  provider: deepseek\n  base_url: http://127.0.0.1:9/v1\n',
    });
    const r = await runHermes(root, ['auth', 'add', 'deepseek', '--key', 'k1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/could not be reached; saving the key unchecked/);
    writeFileSync(join(root, 'x'), '');
    const local = await runHermes(root, ['auth', 'add', 'ollama', '--key', 'k']);
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/takes no key/);
    const oauth = await runHermes(root, ['auth', 'add', 'copilot', '--key', 'k']);
    expect(oauth.code).toBe(1);
    expect(oauth.stderr).toMatch(/OAuth/);
  });
});
