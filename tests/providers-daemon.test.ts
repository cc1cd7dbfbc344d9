/**
 * Named providers through the real daemon: an original-style config.yaml (`provider: deepseek`,
 * aliases `glm`, `kimi-coding`, `lm-studio`) with keys in the profile's `.env` reaches the
 * scripted server with the right key; `model.set` switches provider and model, and refuses an
 * unknown provider or one without its key without writing anything.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { killDaemons } from './support/gateway-process.js';
import { makeTestHome, runHermes } from './support/hermes-cli.js';

let model: FakeModelServer;
let root: string;

function profile(name: string, config: string, env = ''): void {
  const dir = join(root, 'profiles', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), config);
  if (env) writeFileSync(join(dir, '.env'), env, { mode: 0o600 });
}

beforeAll(async () => {
  model = await startFakeModelServer({ whenEmpty: { text: 'provider reply' } });
  // the original's layout: no _config_version, the provider by its id, the endpoint moved by the
  // original's variable in .env
  root = makeTestHome();
  writeFileSync(
    join(root, 'config.yaml'),
    '# from Python Hermes\nmodel:\n  provider: deepseek\n  default: deepseek-chat\n',
  );
  writeFileSync(
    join(root, '.env'),
    `DEEPSEEK_API_KEY=sk-deep-1\nDEEPSEEK_BASE_URL=${model.url}\nGLM_API_KEY=sk-glm-1\nGLM_BASE_URL=${model.url}\n`,
    { mode: 0o600 },
  );
  profile(
    'glm',
    `model:\n  provider: glm\n  default: glm-4.6\n  base_url: ${model.url}\n`,
    'ZAI_API_KEY=sk-zai-2\n',
  );
  profile(
    'kimi',
    `model:\n  provider: kimi-coding\n  default: kimi-k2\n  base_url: ${model.url}\n`,
    'KIMI_API_KEY=sk-kimi-3\n',
  );
  profile('lm', `model:\n  provider: lm-studio\n  default: local-model\n  base_url: ${model.url}\n`);
  const started = await runHermes(root, ['gateway', 'start']);
  expect(started.code, started.stderr).toBe(0);
});
afterAll(async () => {
  await runHermes(root, ['gateway', 'stop']);
  killDaemons(root);
  await model.close();
});

/** The last chat request the scripted server got: model and Authorization header. */
function lastCall(): { model: unknown; auth: string | undefined } {
  const req = model.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
  return { model: req.body.model, auth: req.headers.authorization as string | undefined };
}

describe('named providers through the daemon', () => {
  it('provider: deepseek with DEEPSEEK_API_KEY and DEEPSEEK_BASE_URL from .env answers', async () => {
    const r = await runHermes(root, ['chat', '-q', 'hello deepseek']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('provider reply');
    expect(lastCall()).toEqual({ model: 'deepseek-chat', auth: 'Bearer sk-deep-1' });
  });

  it.each([
    ['glm', 'glm-4.6', 'Bearer sk-zai-2'],
    ['kimi', 'kimi-k2', 'Bearer sk-kimi-3'],
    ['lm', 'local-model', undefined],
  ])('profile %s (an alias of the original) reaches the server with its key', async (name, id, auth) => {
    const r = await runHermes(root, ['-p', name, 'chat', '-q', `hello ${name}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('provider reply');
    expect(lastCall()).toEqual({ model: id, auth });
  });

  it('model.set switches provider and model; an unknown provider or a missing key is refused, nothing written', async () => {
    const client = await connect({ root }, { name: 'providers-test', capabilities: { approvals: false } });
    try {
      const before = readFileSync(join(root, 'config.yaml'), 'utf8');
      const unknown = await client
        .request('model.set', { model: 'x', provider: 'deepseak' })
        .catch((e: Error) => e);
      expect(String(unknown)).toMatch(/unknown provider "deepseak".*"deepseek"/);
      const nokey = await client
        .request('model.set', { model: 'anthropic/claude-sonnet-4-5' })
        .catch((e: Error) => e);
      expect(String(nokey)).toMatch(/ANTHROPIC_API_KEY/);
      const oauth = await client
        .request('model.set', { model: 'gpt-5', provider: 'copilot' })
        .catch((e: Error) => e);
      expect(String(oauth)).toMatch(/OAuth/);
      const spaced = await client.request('model.set', { model: 'zai/glm-4.5\u200b' }).catch((e: Error) => e);
      expect(String(spaced)).toMatch(/model id "glm-4\.5\?" contains U\+200B/);
      expect(readFileSync(join(root, 'config.yaml'), 'utf8')).toBe(before);

      const r = await client.request('model.set', { model: 'zai/glm-4.5-air' });
      expect(r).toMatchObject({ model: 'glm-4.5-air', provider: 'zai' });
      const after = readFileSync(join(root, 'config.yaml'), 'utf8');
      expect(after).toContain('# from Python Hermes');
      expect(after).toMatch(/provider: zai/);
      const listed = await client.request('model.list', {});
      expect(listed.provider).toBe('zai');
      expect(listed.providers!.find((p) => p.id === 'zai')).toMatchObject({ key_set: true, kind: 'hosted' });
      expect(JSON.stringify(listed)).not.toContain('sk-glm-1');
    } finally {
      client.close();
    }
    const chat = await runHermes(root, ['chat', '-q', 'hello glm']);
    expect(chat.code, chat.stderr).toBe(0);
    expect(lastCall()).toEqual({ model: 'glm-4.5-air', auth: 'Bearer sk-glm-1' });
  });
});
