import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { SetupChoice } from '../setup/model-setup.js';
import type { FoundServer } from '../setup/probe.js';
import { keys, renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { ModelSetup } from './ModelSetup.js';

afterEach(() => cleanup());

const ollama: FoundServer = {
  name: 'Ollama',
  baseUrl: 'http://127.0.0.1:11434/v1',
  models: ['qwen3:8b', 'llama3.2'],
};

async function card(
  opts: {
    found?: FoundServer[];
    probeUrl?: (u: string, key?: string) => Promise<string[] | Error>;
    fail?: string;
  } = {},
) {
  const done: SetupChoice[] = [];
  let skipped = 0;
  const r = await renderInk(
    <ModelSetup
      profile="work"
      width={100}
      probeLocal={async () => opts.found ?? []}
      probeUrl={opts.probeUrl ?? (async () => new Error('nothing there'))}
      onDone={async (c) => {
        if (opts.fail) throw new Error(opts.fail);
        done.push(c);
      }}
      onSkip={() => skipped++}
    />,
  );
  return { r, done, skipped: () => skipped };
}

describe('ModelSetup', () => {
  it('offers the local servers that answered first, then the hosted providers and a base URL', async () => {
    const { r } = await card({ found: [ollama] });
    const f = await r.waitFor('Ollama (running here)');
    expect(f).toContain('Set up a model · profile work');
    expect(f).toContain('http://127.0.0.1:11434/v1 · 2 models');
    expect(f).toMatch(/2\. OpenRouter hosted · needs OPENROUTER_API_KEY/);
    expect(f).toContain('3. OpenAI');
    expect(f).toContain('4. Another OpenAI-compatible server');
  });

  it('says so when no local server answered', async () => {
    const { r } = await card();
    const f = await r.waitFor('No local server answered');
    expect(f).toContain('1. OpenRouter');
  });

  it('local server: picks one of its models', async () => {
    const { r, done } = await card({ found: [ollama] });
    await r.waitFor('Ollama (running here)');
    await r.press(keys.enter);
    await r.waitFor('Which model?');
    await r.press('2');
    await waitFor(() => done.length === 1);
    expect(done[0]).toEqual({ kind: 'server', baseUrl: ollama.baseUrl, model: 'llama3.2' });
  });

  it('hosted: the key is typed hidden, then the model (prefilled), and both go to onDone', async () => {
    const { r, done } = await card();
    await r.waitFor('1. OpenRouter');
    await r.press('1');
    await r.waitFor('OPENROUTER_API_KEY');
    await r.press('sk-or-v1-', 'secret42');
    const masked = await r.waitFor('(17 characters)');
    expect(masked).not.toContain('secret42');
    expect(masked).toContain('•••••');
    await r.press(keys.enter);
    await r.waitFor('anthropic/claude-sonnet-4');
    await r.press(keys.enter);
    await waitFor(() => done.length === 1);
    expect(done[0]).toEqual({
      kind: 'hosted',
      provider: 'openrouter',
      key: 'sk-or-v1-secret42',
      model: 'anthropic/claude-sonnet-4',
    });
  });

  it('a pasted key (bracketed paste) is taken whole', async () => {
    const { r } = await card();
    await r.waitFor('2. OpenAI');
    await r.press('2');
    await r.waitFor('OPENAI_API_KEY');
    await r.press(`${keys.pasteStart}sk-pasted-key${keys.pasteEnd}`);
    await r.waitFor('(13 characters)');
  });

  it('base URL: checks the server and lists its models; a silent one can be used anyway', async () => {
    const probed: string[] = [];
    const { r, done } = await card({
      probeUrl: async (u) => {
        probed.push(u);
        return u.includes(':9999') ? ['served-model'] : new Error(`${u}/models: ECONNREFUSED`);
      },
    });
    await r.waitFor('3. Another OpenAI-compatible server');
    await r.press('3');
    await r.waitFor('Base URL');
    await r.press('8000/v1', keys.enter);
    await r.waitFor('API key of that server, if it needs one');
    await r.press(keys.enter); // no key
    await r.waitFor('Enter again to use it anyway');
    expect(probed).toEqual(['http://127.0.0.1:8000/v1']);
    await r.press(keys.enter);
    await r.waitFor('empty: the server’s only model');
    await r.press(keys.esc);
    await r.waitFor('Where does the model run?');
    await r.press('3');
    await r.waitFor('Base URL');
    await r.press('9999/v1\r');
    await r.waitFor('API key of that server');
    await r.press('\r');
    await r.waitFor('served-model');
    await r.press(keys.enter);
    await waitFor(() => done.length === 1);
    expect(done[0]).toEqual({ kind: 'server', baseUrl: 'http://127.0.0.1:9999/v1', model: 'served-model' });
  });

  it('another server: an optional API key, hidden, sent when listing its models and in the choice', async () => {
    const probed: Array<[string, string | undefined]> = [];
    const { r, done } = await card({
      probeUrl: async (u, key) => {
        probed.push([u, key]);
        return key === 'sk-server' ? ['keyed-model'] : new Error(`${u}/models answered HTTP 401`);
      },
    });
    await r.waitFor('3. Another OpenAI-compatible server');
    await r.press('3');
    await r.waitFor('Base URL');
    await r.press('7000/v1', keys.enter);
    await r.waitFor('saved as CUSTOM_API_KEY');
    await r.press('sk-server');
    const f = await r.waitFor('(9 characters)');
    expect(f).not.toContain('sk-server');
    await r.press(keys.enter);
    await r.waitFor('keyed-model');
    expect(probed).toEqual([['http://127.0.0.1:7000/v1', 'sk-server']]);
    await r.press(keys.enter);
    await waitFor(() => done.length === 1);
    expect(done[0]).toEqual({
      kind: 'server',
      baseUrl: 'http://127.0.0.1:7000/v1',
      model: 'keyed-model',
      key: 'sk-server',
    });
  });

  it('shows a save error and stays open; Esc on the first step skips', async () => {
    const { r, skipped } = await card({ found: [ollama], fail: 'config.yaml is read-only' });
    await r.waitFor('Ollama (running here)');
    await r.press(keys.enter);
    await r.waitFor('Which model?');
    await r.press(keys.enter);
    await r.waitFor('Could not save: config.yaml is read-only');
    await r.press(keys.esc);
    await r.waitFor('Where does the model run?');
    await r.press(keys.esc);
    expect(skipped()).toBe(1);
  });
});
